import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { aiServicesFrom } from '../../src/domain/ai/ai-services.ts';
import { decodeClusterModel } from '../../src/domain/conversations/cluster-model-codec.ts';
import { labelClusters } from '../../src/domain/conversations/label-clusters.ts';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { reclusterOrganization } from '../../src/domain/conversations/recluster.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import type { JobContext } from '../../src/jobs/define-job.ts';
import { extractIssuesJob } from '../../src/jobs/extract-issues.job.ts';
import { JobOutbox } from '../../src/jobs/outbox.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { reclusterJob } from '../../src/jobs/recluster.job.ts';
import { createLogger } from '../../src/runtime.ts';
import { chatAnswer, startFakeOpenAi, type FakeAnswer, type FakeOpenAi } from '../support/fake-openai.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { testJobServices, testRedisUrl } from '../support/test-env.ts';
import { THREE_TOPICS, topicOrg, type TopicOrg } from '../support/topic-conversations.ts';

/**
 * Re-clustering and extraction with the optional endpoints (a local fake server speaking
 * OpenAI's format): embeddings clustered and placed by, chat labels for clusters, and the
 * offline methods whenever an endpoint fails.
 */

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
});

const now = () => new Date();

function services(env: Record<string, string>) {
  const log = createLogger({ logLevel: 'warn' }, 'test', { write: (line: string) => void logged.push(line) });
  return { ai: aiServicesFrom(loadConfig({ AI_TIMEOUT_MS: '2000', ...env }), log, { retryDelayMs: 0 }), log };
}
const embeddingsEnv = (model = 'fake-embed') => ({ EMBEDDINGS_URL: fake.url, EMBEDDINGS_MODEL: model });
const chatEnv = () => ({ LLM_URL: fake.url, LLM_MODEL: 'fake-chat' });

/**
 * Vectors that know the topic: one dimension per topic its words name ("visa" and
 * "refused" count as card words, which LSA fitted on the topics' texts has never seen),
 * plus a little noise from the text.
 */
const TOPIC_WORDS = [/card|declin|payment|visa|refused/i, /password|log in|reset/i, /export|csv|data/i];
function topicVector(text: string): number[] {
  const v = new Array<number>(8).fill(0);
  TOPIC_WORDS.forEach((re, k) => void (re.test(text) && (v[k] = 1)));
  for (let i = 0; i < text.length; i++) v[3 + (i % 5)]! += text.charCodeAt(i);
  const noise = Math.hypot(...v.slice(3));
  for (let j = 3; j < 8; j++) v[j] = (0.15 * v[j]!) / noise;
  return v;
}
function topicEmbeddings(body: { input: string[]; model: string }): FakeAnswer {
  return { json: { object: 'list', model: body.model, data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: topicVector(t) })) } };
}
const failing = (): FakeAnswer => ({ status: 500, json: { error: { message: 'overloaded' } } });

async function threeTopics(ai?: ReturnType<typeof services>['ai']): Promise<TopicOrg> {
  const t = await topicOrg(api, api.em());
  await t.post(Object.entries(THREE_TOPICS).flatMap(([topic, texts]) => texts.map((text, i) => ({ id: `${topic}-${i}`, text }))));
  await extractPendingIssues(api.em(), t.org.id, { now, ai });
  return t;
}

/** Each topic's set of clusters (by conversation id prefix), the clusters' labels, and the stored model. */
async function state(orgId: string) {
  const em = api.em();
  const issues = await em.execute<Array<{ external_id: string; cluster_id: string | null; embedding_model: string | null }>>(
    `select c.external_id, i.cluster_id, i.embedding_model from conversation_issues i join conversations c on c.id = i.conversation_id where i.organization_id = ?`,
    [orgId],
  );
  const clusters = await em.execute<Array<{ id: string; label: string }>>('select id, label from conversation_issue_clusters where organization_id = ?', [orgId]);
  const [row] = await em.execute<Array<{ model: Buffer }>>('select model from conversation_clusterings where organization_id = ?', [orgId]);
  const byTopic = new Map<string, Set<string | null>>();
  for (const i of issues) {
    const topic = i.external_id.replace(/-\d+$/, '');
    byTopic.set(topic, (byTopic.get(topic) ?? new Set()).add(i.cluster_id));
  }
  return { issues, byTopic, labels: new Map(clusters.map((c) => [c.id, c.label])), model: row?.model ? decodeClusterModel(row.model) : null };
}

function expectTopicsApart(byTopic: Map<string, Set<string | null>>) {
  for (const topic of Object.keys(THREE_TOPICS)) expect(byTopic.get(topic)?.size).toBe(1);
  expect(new Set(Object.keys(THREE_TOPICS).map((t) => [...byTopic.get(t)!][0])).size).toBe(3);
}

describe('re-clustering with an embeddings endpoint', () => {
  it('clusters the issues by their embeddings into three topics, and places a new issue through its embedding', async () => {
    fake.answer('/v1/embeddings', topicEmbeddings);
    const { ai, log } = services(embeddingsEnv());
    const t = await threeTopics(ai);
    // Extraction embedded every issue in its batch.
    expect((await state(t.org.id)).issues.every((i) => i.embedding_model === 'fake-embed')).toBe(true);

    const result = await reclusterOrganization(api.em(), t.org.id, { now, ai, log });
    expect(result).toMatchObject({ issues: 24, clusters: 3, space: 'fake-embed' });
    const after = await state(t.org.id);
    expectTopicsApart(after.byTopic);
    expect(after.model?.space).toEqual({ kind: 'embeddings', model: 'fake-embed', dims: 8 });

    // No word in common with what was clustered: only its embedding can place it.
    await t.post([{ id: 'card-new', text: 'Visa refused at the till' }]);
    await extractPendingIssues(api.em(), t.org.id, { now, ai });
    const placed = await state(t.org.id);
    expect(placed.byTopic.get('card')).toEqual(after.byTopic.get('card'));
    expect(logged).toEqual([]);
  });

  it('places by a threshold calibrated on the run: an issue halfway between two topics waits, though it scores above the LSA 0.5', async () => {
    fake.answer('/v1/embeddings', topicEmbeddings);
    const { ai, log } = services(embeddingsEnv());
    const t = await threeTopics(ai);
    await reclusterOrganization(api.em(), t.org.id, { now, ai, log });
    const { model } = await state(t.org.id);
    // The topics' issues sit close to their centroids: the calibrated threshold is high.
    expect(model?.placeThreshold).toBeGreaterThan(0.9);

    // Card and password words alike: about 0.7 to either centroid.
    await t.post([{ id: 'between-0', text: 'My card payment was declined and now I cannot reset my password, please help?' }]);
    await extractPendingIssues(api.em(), t.org.id, { now, ai });
    const after = await state(t.org.id);
    expect(after.byTopic.get('between')).toEqual(new Set([null]));
  });

  it('falls back to LSA when the endpoint fails (500s), logs why and still finds the three topics', async () => {
    fake.answer('/v1/embeddings', failing);
    const { ai, log } = services(embeddingsEnv());
    const t = await threeTopics(ai);
    const result = await reclusterOrganization(api.em(), t.org.id, { now, ai, log });
    expect(result).toMatchObject({ issues: 24, clusters: 3, space: 'lsa' });
    const after = await state(t.org.id);
    expectTopicsApart(after.byTopic);
    expect(after.model?.space.kind).toBe('lsa');
    expect(after.issues.every((i) => i.embedding_model === null)).toBe(true);
    expect(logged.some((l) => l.includes('embeddings failed'))).toBe(true);
    expect(logged.some((l) => l.includes('re-clustering uses sparse vectors (LSA)'))).toBe(true);
  });

  it('embeds everything again after a change of model, never mixing the old vectors in', async () => {
    fake.answer('/v1/embeddings', topicEmbeddings);
    const first = services(embeddingsEnv('model-a'));
    const t = await threeTopics(first.ai);
    await reclusterOrganization(api.em(), t.org.id, { now, ...first });
    fake.reset();
    fake.answer('/v1/embeddings', topicEmbeddings);

    const second = services(embeddingsEnv('model-b'));
    const result = await reclusterOrganization(api.em(), t.org.id, { now, ...second });
    expect(result).toMatchObject({ issues: 24, clusters: 3, space: 'model-b', kept: 3, created: 0 });
    const requests = fake.seen.filter((r) => r.path === '/v1/embeddings');
    expect(requests.every((r) => r.body.model === 'model-b')).toBe(true);
    expect(requests.flatMap((r) => r.body.input)).toHaveLength(24);
    const after = await state(t.org.id);
    expect(after.issues.every((i) => i.embedding_model === 'model-b')).toBe(true);
    expect(after.model?.space).toMatchObject({ kind: 'embeddings', model: 'model-b' });
  });
});

describe('the jobs', () => {
  it('embed, cluster by embeddings and label with the services the worker was given', async () => {
    fake.answer('/v1/embeddings', topicEmbeddings);
    fake.answer('/v1/chat/completions', () => chatAnswer(JSON.stringify({ label: 'From the model' })));
    const { ai, log } = services({ ...embeddingsEnv(), ...chatEnv() });
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: `vt${newId()}` }, [], log);
    const ctx = (): JobContext => ({
      em: api.em(),
      log,
      clock: { now },
      outbox: new JobOutbox(producer, log),
      attempt: 1,
      services: { ...testJobServices(), ai: { ...ai, issueExtractor: null, extractBatch: undefined } },
      reportProgress: async () => undefined,
    });
    try {
      const t = await topicOrg(api, api.em());
      await t.post(Object.entries(THREE_TOPICS).flatMap(([topic, texts]) => texts.map((text, i) => ({ id: `${topic}-${i}`, text }))));
      await extractIssuesJob.handle({ organizationId: t.org.id }, ctx());
      expect((await state(t.org.id)).issues.every((i) => i.embedding_model === 'fake-embed')).toBe(true);
      expect(await reclusterJob.handle({ organizationId: t.org.id }, ctx())).toMatchObject({ clusters: 3, space: 'fake-embed', labelled: 3 });
    } finally {
      await producer.close();
    }
  });
});

describe('extraction with a failing embeddings endpoint', () => {
  it('processes every conversation, leaves the issues without embedding, and a changed text clears one', async () => {
    fake.answer('/v1/embeddings', topicEmbeddings);
    const working = services(embeddingsEnv());
    const t = await threeTopics(working.ai);
    fake.answer('/v1/embeddings', failing);
    const broken = services(embeddingsEnv());
    await t.post([
      { id: 'card-0', text: 'My card was declined at a petrol station' },
      { id: 'export-new', text: 'Export to CSV drops the header row' },
    ]);
    const result = await extractPendingIssues(api.em(), t.org.id, { now, ai: broken.ai });
    expect(result.conversations).toBe(2);
    const [pending] = await api.em().execute<Array<{ n: number }>>('select count(*)::int as n from conversations where organization_id = ? and processed_at is null', [t.org.id]);
    expect(pending!.n).toBe(0);
    const byId = new Map((await state(t.org.id)).issues.map((i) => [i.external_id, i.embedding_model]));
    expect(byId.size).toBe(25);
    expect(byId.get('card-0')).toBeNull();
    expect(byId.get('export-new')).toBeNull();
    expect(byId.get('card-1')).toBe('fake-embed');
    expect(logged.some((l) => l.includes('embeddings failed'))).toBe(true);
  });
});

describe('cluster labels from a chat endpoint', () => {
  const LABELS: Array<[RegExp, string]> = [
    [/card|declined/i, 'Declined card payments'],
    [/password/i, 'Password resets'],
    [/export|csv/i, 'CSV data exports'],
  ];
  const labeller = (body: { messages: Array<{ role: string; content: string }> }) => {
    const content = body.messages.find((m) => m.role === 'user')!.content;
    return chatAnswer(JSON.stringify({ label: LABELS.find(([re]) => re.test(content))?.[1] ?? 'Other' }));
  };

  it('gives new clusters the label the model answers', async () => {
    fake.answer('/v1/chat/completions', labeller);
    const { ai, log } = services(chatEnv());
    const t = await threeTopics();
    const result = await reclusterOrganization(api.em(), t.org.id, { now, ai, log });
    expect(result).toMatchObject({ clusters: 3, created: 3, labelled: 3 });
    expect([...(await state(t.org.id)).labels.values()].sort()).toEqual(['CSV data exports', 'Declined card payments', 'Password resets']);
    const asked = fake.seen.filter((r) => r.path === '/v1/chat/completions');
    expect(asked).toHaveLength(3);
    expect(asked[0]!.body.messages[1].content).toMatch(/^Representative issues:\n- /);
  });

  it('keeps the labels from distinctive terms when the model fails', async () => {
    fake.answer('/v1/chat/completions', failing);
    const { ai, log } = services(chatEnv());
    const t = await threeTopics();
    const result = await reclusterOrganization(api.em(), t.org.id, { now, ai, log });
    expect(result).toMatchObject({ clusters: 3, created: 3, labelled: 0 });
    const labels = [...(await state(t.org.id)).labels.values()].map((l) => l.toLowerCase());
    expect(labels.some((l) => /card|declined|payment/.test(l))).toBe(true);
    expect(labels.some((l) => /password|reset|log/.test(l))).toBe(true);
    expect(labels.some((l) => /export|csv/.test(l))).toBe(true);
    expect(logged.some((l) => l.includes('LLM cluster label failed'))).toBe(true);
  });

  it('writes a label only over the one the run left (compare-and-set)', async () => {
    const t = await threeTopics();
    await reclusterOrganization(api.em(), t.org.id, { now });
    const [first, second] = [...(await state(t.org.id)).labels.entries()];
    const answer = { labelCluster: async () => 'From the model' };
    const clusters = [
      { id: first![0], label: first![1], titles: [], terms: [] },
      // Renamed since (e.g. by a later run): left as it is.
      { id: second![0], label: 'a label it no longer has', titles: [], terms: [] },
      { id: 'gone0000000000000000', label: 'x', titles: [], terms: [] },
    ];
    expect(await labelClusters(api.em(), t.org.id, clusters, answer)).toBe(1);
    const labels = (await state(t.org.id)).labels;
    expect(labels.get(first![0])).toBe('From the model');
    expect(labels.get(second![0])).toBe(second![1]);
  });
});
