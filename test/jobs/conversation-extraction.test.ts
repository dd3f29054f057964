import { spawnWorker } from '../support/spawn-worker.ts';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractIssues, TITLE_MAX } from '../../src/domain/conversations/extract-issues.ts';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { ConversationIssue } from '../../src/domain/entities/conversation-issue.entity.ts';
import { Conversation, type ConversationPart } from '../../src/domain/entities/conversation.entity.ts';
import { buildInstallation, buildOrg } from '../support/factories.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { marks, waitFor } from '../support/test-jobs.ts';

const user = (body: string): ConversationPart => ({ type: 'message', role: 'user', body });
const agent = (body: string): ConversationPart => ({ type: 'message', role: 'assistant', body });

describe('issue extraction heuristics', () => {
  it('takes the title from the customer’s question, greetings removed, and summarizes with the reply as context', () => {
    const [issue, ...rest] = extractIssues({
      subject: 'Custom domain',
      parts: [user('Hi team, how do I connect my custom domain? I added the CNAME yesterday.'), agent('You need to verify the domain in Settings.'), user('Thanks!')],
    });
    expect(rest).toEqual([]);
    expect(issue!.title).toBe('How do I connect my custom domain?');
    expect(issue!.summary).toContain('The customer asked: Hi team, how do I connect my custom domain? I added the CNAME yesterday.');
    expect(issue!.summary).toContain('Reply given: You need to verify the domain in Settings.');
  });

  it('counts a reported problem without a question mark', () => {
    expect(extractIssues({ subject: null, parts: [user('The PDF export fails with error 500 on large spaces.')] })[0]!.title).toBe('The PDF export fails with error 500 on large spaces.');
  });

  it('counts a statement of what happened, and titles with the sentence that asks or reports where there is one', () => {
    expect(extractIssues({ subject: null, parts: [user('I have been charged twice on my statement.')] })[0]!.title).toBe('I have been charged twice on my statement.');
    expect(extractIssues({ subject: null, parts: [user('limits on top ups')] })[0]!.title).toBe('Limits on top ups');
    const [issue] = extractIssues({ subject: null, parts: [user('Hello. I moved to Spain last month. Why is my card declined abroad?')] });
    expect(issue!.title).toBe('Why is my card declined abroad?');
    expect(issue!.summary).toContain('I moved to Spain last month.');
  });

  it('finds no issue where the customer only greets, thanks or says goodbye, or never wrote', () => {
    expect(extractIssues({ subject: 'Re: ticket', parts: [user('Thanks, bye!')] })).toEqual([]);
    expect(extractIssues({ subject: null, parts: [user('Hello!'), agent('How can I help you today?'), user('Ok thank you so much. Have a nice day!')] })).toEqual([]);
    expect(extractIssues({ subject: 'Survey', parts: [agent('Was this answer helpful? How can we improve?')] })).toEqual([]);
    expect(extractIssues({ subject: null, parts: [] })).toEqual([]);
  });

  it('reads HTML and Markdown bodies and keeps titles within 100 characters', () => {
    const long = `<p>Why does the <b>search</b> never return results for ${'very '.repeat(40)}long queries?</p>`;
    const [issue] = extractIssues({ subject: null, parts: [user(long)] });
    expect(Array.from(issue!.title).length).toBeLessThanOrEqual(TITLE_MAX);
    expect(issue!.title).toMatch(/^Why does the search never return results for very/);
    expect(issue!.title).not.toContain('<');
    const [md] = extractIssues({ subject: null, parts: [user('**How** can I use [variables](https://x.test/vars) in `templates`?')] });
    expect(md!.title).toBe('How can I use variables in templates?');
  });
});

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  marks().disconnect();
});

/** An organization with `n` ingested conversations; every third one only says thanks. */
async function ingested(n: number) {
  const em = api.em();
  const { org } = await buildOrg(em);
  const { token } = await buildInstallation(em, org);
  const body = Array.from({ length: n }, (_, i) => ({
    id: `c-${String(i).padStart(4, '0')}`,
    parts: i % 3 === 2 ? [user('Thanks, bye!')] : [user(`How do I configure feature ${i}?`), agent('See the guide.')],
  }));
  for (let i = 0; i < n; i += 1000) {
    const res = await api.request('POST', `/v1/orgs/${org.id}/conversations`, { token, body: body.slice(i, i + 1000) });
    if (res.status !== 204) throw new Error(`ingest: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const questions = body.filter((_, i) => i % 3 !== 2).length;
  return { orgId: org.id, questions };
}

/** Every conversation processed or not, and each question conversation with exactly one issue when processed. */
async function state(orgId: string) {
  const em = api.em();
  const conversations = await em.find(Conversation, { organization: orgId });
  const issues = await em.find(ConversationIssue, { organization: orgId });
  const perConversation = new Map<string, number>();
  for (const i of issues) perConversation.set(i.conversation.id, (perConversation.get(i.conversation.id) ?? 0) + 1);
  const processed = conversations.filter((c) => c.processedAt !== null);
  const asked = (c: Conversation) => c.parts[0]!.body.startsWith('How');
  return {
    processed: processed.length,
    total: conversations.length,
    issues: issues.length,
    // Consistent: a processed conversation has its issue (one) iff it asked; an unprocessed one none yet.
    consistent: conversations.every((c) => (perConversation.get(c.id) ?? 0) === (c.processedAt !== null && asked(c) ? 1 : 0)),
    ids: new Map(issues.map((i) => [i.conversation.id, i.id])),
  };
}

describe('extracting pending conversations', () => {
  it('processes every conversation once, also with three runs at the same time', async () => {
    const { orgId, questions } = await ingested(350);
    const now = () => new Date();
    const runs = await Promise.all([1, 2, 3].map(() => extractPendingIssues(api.em(), orgId, { now })));
    expect(runs.reduce((a, r) => a + r.conversations, 0)).toBe(350);
    const s = await state(orgId);
    expect(s).toMatchObject({ processed: 350, issues: questions, consistent: true });
  });

  it('running again changes nothing; re-extracting keeps the issues’ ids', async () => {
    const { orgId } = await ingested(30);
    await extractPendingIssues(api.em(), orgId, { now: () => new Date() });
    const before = await state(orgId);
    expect(await extractPendingIssues(api.em(), orgId, { now: () => new Date() })).toEqual({ conversations: 0, issues: 0 });
    await api.em().nativeUpdate(Conversation, { organization: orgId }, { processedAt: null });
    await extractPendingIssues(api.em(), orgId, { now: () => new Date() });
    const after = await state(orgId);
    expect(after.issues).toBe(before.issues);
    expect([...after.ids]).toEqual(expect.arrayContaining([...before.ids]));
  });

  it('runs on the conversations queue after an ingest request (outbox → worker)', async () => {
    const workers = startTestWorkers(api, ['conversations']);
    try {
      const { orgId, questions } = await ingested(12);
      await waitFor(async () => (await state(orgId)).processed === 12, 20_000, 'extraction by the worker');
      expect(await state(orgId)).toMatchObject({ issues: questions, consistent: true });
    } finally {
      await workers.close();
    }
  });
});

/** A worker process running the slowed extraction (test/support/long-jobs.ts) on the API's queues. */
const spawnExtractor = () => spawnWorker(api.rt.config.queuePrefix, { WORKER_QUEUES: 'conversations' });

describe('a worker killed mid-extraction', () => {
  it('leaves whole batches done and the rest pending; the retry finishes without duplicates', async () => {
    const { orgId, questions } = await ingested(600);
    const batches = `vellum-test:extract:${orgId}:batches`;
    const children: ChildProcess[] = [];
    try {
      const first = await spawnExtractor();
      children.push(first);
      await waitFor(async () => Number(await marks().get(batches)) >= 2, 30_000, 'two batches');
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));

      const midway = await state(orgId);
      expect(midway.processed).toBeGreaterThanOrEqual(200);
      expect(midway.processed).toBeLessThan(600);
      expect(midway.processed % 100).toBe(0);
      expect(midway.consistent).toBe(true);

      // The killed job's lock lapses and another worker runs it again.
      children.push(await spawnExtractor());
      await waitFor(async () => (await state(orgId)).processed === 600, 60_000, 'the retried extraction');
      const done = await state(orgId);
      expect(done).toMatchObject({ issues: questions, consistent: true });
      // Issues of the batches done before the kill were not rewritten under new ids.
      for (const [conversation, id] of midway.ids) expect(done.ids.get(conversation)).toBe(id);
    } finally {
      for (const child of children) child.kill('SIGKILL');
    }
  });
});
