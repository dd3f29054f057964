import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { aiServicesFrom } from '../../src/domain/ai/ai-services.ts';
import { createLogger } from '../../src/runtime.ts';
import { buildInstallation, buildOrg } from '../support/factories.ts';
import { chatAnswer, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { testJobServices } from '../support/test-env.ts';
import { marks, waitFor } from '../support/test-jobs.ts';

/**
 * Ingestion → outbox → extraction worker → issues read back through the API, with the
 * issue titles asked of an LLM (the local fake server). The model working or failing, no
 * conversation stays unprocessed.
 */

const KEY = 'sk-e2e-0a1b2c3d4e5f60718293';
let api: TestApi;
let fake: FakeOpenAi;
let logged: string[] = [];

beforeAll(async () => {
  [api, fake] = await Promise.all([startTestApi(), startFakeOpenAi()]);
});
afterEach(() => {
  fake.reset();
  logged = [];
});
afterAll(async () => {
  await Promise.all([api.close(), fake.close()]);
  marks().disconnect();
});

function workersWithLlm() {
  const config = loadConfig({ LLM_URL: fake.url, LLM_MODEL: 'fake-chat', LLM_API_KEY: KEY, AI_TIMEOUT_MS: '2000' });
  const log = createLogger({ logLevel: 'warn' }, 'test', { write: (line: string) => void logged.push(line) });
  return startTestWorkers(api, ['conversations'], { ...testJobServices(), ai: aiServicesFrom(config, log, { retryDelayMs: 0 }) });
}

/** `n` conversations posted by an integration; with `thanks`, every third one only says thanks. */
async function ingest(n: number, thanks: boolean) {
  const em = api.em();
  const { org, owner } = await buildOrg(em);
  const { token } = await buildInstallation(em, org);
  const body = Array.from({ length: n }, (_, i) => ({
    id: `c-${i}`,
    subject: `conversation ${i}`,
    parts: [{ type: 'message', role: 'user', body: thanks && i % 3 === 2 ? 'Thanks, bye!' : `How do I configure feature ${i}?` }],
  }));
  const res = await api.request('POST', `/v1/orgs/${org.id}/conversations`, { token, body });
  expect(res.status).toBe(204);
  return { orgId: org.id, reader: owner.token };
}

/** What a reader of the organization sees: processed conversations, and issue titles by conversation subject. */
async function read(orgId: string, token: string) {
  const conversations = await api.request('GET', `/v1/orgs/${orgId}/conversations?limit=1000`, { token });
  const issues = await api.request('GET', `/v1/orgs/${orgId}/conversations-issues?limit=1000`, { token });
  const items = conversations.body.items as Array<{ id: string; processedAt?: string | null }>;
  const titles = new Map<string, string>();
  for (const item of issues.body.items as Array<{ issue: { title: string }; conversation: { subject: string } }>) titles.set(item.conversation.subject, item.issue.title);
  return { total: items.length, processed: items.filter((c) => c.processedAt).length, titles };
}

describe('issue extraction with an LLM', () => {
  it('takes titles from the model, one request per conversation, and records no issue where it finds none', async () => {
    const workers = workersWithLlm();
    try {
      const { orgId, reader } = await ingest(20, true);
      await waitFor(async () => (await read(orgId, reader)).processed === 20, 20_000, 'extraction');
      const { titles } = await read(orgId, reader);
      expect(titles.size).toBe(14);
      for (const title of titles.values()) expect(title).toMatch(/^LLM: How do I configure feature \d+\?$/);
      const chats = fake.seen.filter((r) => r.path === '/v1/chat/completions');
      expect(chats).toHaveLength(20);
      expect(chats.every((r) => r.authorization === `Bearer ${KEY}` && r.body.model === 'fake-chat')).toBe(true);
      expect(logged).toEqual([]);
    } finally {
      await workers.close();
    }
  });

  it('falls back to the offline titles for each conversation the model fails on, and loses none', async () => {
    // Conversations with an odd feature number get a 500 (twice: the retry fails too), the others a malformed answer or a good one.
    fake.answer('/v1/chat/completions', (body) => {
      const n = Number(/feature (\d+)/.exec(body.messages[1].content)?.[1] ?? -1);
      if (n % 2 === 1) return { status: 500, json: { error: { message: `upstream failed for key ${KEY}` } } };
      if (n % 4 === 0) return chatAnswer('not json at all');
      return chatAnswer(JSON.stringify({ title: `LLM: feature ${n}`, summary: 'From the model.' }));
    });
    const workers = workersWithLlm();
    try {
      const { orgId, reader } = await ingest(20, false);
      await waitFor(async () => (await read(orgId, reader)).processed === 20, 20_000, 'extraction');
      const { total, titles } = await read(orgId, reader);
      expect(total).toBe(20);
      expect(titles.size).toBe(20);
      for (let i = 0; i < 20; i++) {
        const offline = i % 2 === 1 || i % 4 === 0;
        expect(titles.get(`conversation ${i}`)).toBe(offline ? `How do I configure feature ${i}?` : `LLM: feature ${i}`);
      }
      expect(logged.filter((l) => l.includes('offline heuristics used'))).toHaveLength(15);
      expect(logged.join('\n')).not.toContain(KEY);
    } finally {
      await workers.close();
    }
  });
});
