import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULSE_WEEKS } from '../../src/domain/conversations/cluster-figures.ts';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { reclusterOrganization } from '../../src/domain/conversations/recluster.ts';
import { ConversationIssue } from '../../src/domain/entities/conversation-issue.entity.ts';
import { Conversation } from '../../src/domain/entities/conversation.entity.ts';
import { IssueCluster } from '../../src/domain/entities/issue-cluster.entity.ts';
import { buildMember } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { THREE_TOPICS, topicOrg, topicQuestions, type TopicOrg } from '../support/topic-conversations.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const now = () => new Date();
const extract = (orgId: string) => extractPendingIssues(api.em(), orgId, { now });
const recluster = (orgId: string) => reclusterOrganization(api.em(), orgId, { now });

/** Each issue's cluster (by conversation external id), and the organization's cluster rows. */
async function snapshot(orgId: string) {
  const em = api.em();
  const issues = await em.find(ConversationIssue, { organization: orgId }, { populate: ['conversation'] });
  const clusters = await em.find(IssueCluster, { organization: orgId }, { orderBy: { id: 'asc' } });
  const [state] = await em.execute<Array<{ version: number; cluster_ids: string[]; issues: number; new_issues: number; requested_at: Date | null }>>(
    'select version, cluster_ids, issues, new_issues, requested_at from conversation_clusterings where organization_id = ?',
    [orgId],
  );
  return {
    byConversation: new Map(issues.map((i) => [i.conversation.getEntity().externalId, i.cluster?.id ?? null])),
    clusters,
    state,
  };
}

/** Every issue's cluster exists in the organization, and the model names exactly its clusters. */
function expectConsistent(s: Awaited<ReturnType<typeof snapshot>>) {
  const ids = new Set(s.clusters.map((c) => c.id));
  for (const cluster of s.byConversation.values()) if (cluster !== null) expect(ids.has(cluster)).toBe(true);
  expect([...s.state!.cluster_ids].sort()).toEqual([...ids].sort());
}

async function threeTopics(): Promise<TopicOrg> {
  const t = await topicOrg(api, api.em());
  await t.post(Object.entries(THREE_TOPICS).flatMap(([topic, texts]) => texts.map((text, i) => ({ id: `${topic}-${i}`, text }))));
  await extract(t.org.id);
  return t;
}

describe('re-clustering an organization', () => {
  it('groups three obvious topics (ingested, extracted) into three ready clusters with sensible labels, summaries and icons', async () => {
    const t = await threeTopics();
    const result = await recluster(t.org.id);
    expect(result).toMatchObject({ issues: 24, clusters: 3, created: 3, kept: 0, removed: 0, version: 1 });

    const reader = await buildMember(api.em(), t.org, 'read');
    const res = await api.request('GET', `/v1/orgs/${t.org.id}/conversations-clusters?orderBy=issues`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    const byTopic = new Map<string, any>();
    for (const cluster of res.body.items) {
      expect(cluster.stats.issues).toBe(8);
      expect(cluster.weeklyPulse).toHaveLength(PULSE_WEEKS);
      expect(cluster.weeklyPulse[PULSE_WEEKS - 1]).toBe(8);
      const issues = await api.request('GET', `/v1/orgs/${t.org.id}/conversations-issues?cluster=${cluster.id}&limit=100`, { token: reader.token });
      const topics = new Set(issues.body.items.map((i: any) => i.issue.title.toLowerCase().replace(/\?$/, '')).map((title: string) => Object.keys(THREE_TOPICS).find((k) => (THREE_TOPICS as any)[k].some((q: string) => q.toLowerCase() === title))));
      expect(topics.size).toBe(1);
      byTopic.set([...topics][0] as string, cluster);
    }
    const card = byTopic.get('card');
    const password = byTopic.get('password');
    const exported = byTopic.get('export');
    expect(card.label.toLowerCase()).toMatch(/card|declined|payment/);
    expect(password.label.toLowerCase()).toMatch(/password|reset|log/);
    expect(exported.label.toLowerCase()).toMatch(/export|csv/);
    for (const c of [card, password, exported]) {
      expect(c.label.length).toBeLessThanOrEqual(60);
      expect(c.summary).toMatch(/^Customers ask about .+, for example “.+”/);
    }
    expect(card.summary).toMatch(/declined/i);
    expect([card.icon, password.icon, exported.icon]).toEqual(['credit-card', 'key', 'file-export']);
  });

  it('places an issue extracted later in its nearest cluster at once; an unrelated one waits for the next run', async () => {
    const t = await threeTopics();
    await recluster(t.org.id);
    const before = await snapshot(t.org.id);
    const cardCluster = before.byConversation.get('card-0');

    await t.post([
      { id: 'late-card', text: 'My card payment got declined at the bakery' },
      { id: 'late-other', text: 'Which tuba mouthpiece suits jazz' },
    ]);
    await extract(t.org.id);
    const after = await snapshot(t.org.id);
    expect(after.byConversation.get('late-card')).toBe(cardCluster);
    expect(after.byConversation.get('late-other')).toBeNull();
    // Both count towards the next re-clustering, which takes the unplaced one in.
    expect(after.state!.new_issues).toBe(2);
    await recluster(t.org.id);
    const regrouped = await snapshot(t.org.id);
    expect(regrouped.byConversation.get('late-other')).not.toBeNull();
    expect(regrouped.state!.new_issues).toBe(0);
  });

  it('keeps cluster ids, labels and creation dates: after 10 % more issues at least 90 % of the earlier ones keep their cluster', async () => {
    const t = await topicOrg(api, api.em());
    const first = topicQuestions(200, 11);
    await t.post(first.map(([, text], i) => ({ id: `q-${i}`, text })));
    await extract(t.org.id);
    await recluster(t.org.id);
    const before = await snapshot(t.org.id);
    expect(before.clusters.length).toBeGreaterThanOrEqual(3);

    await t.post(topicQuestions(20, 97).map(([, text], i) => ({ id: `more-${i}`, text })));
    await extract(t.org.id);
    const result = await recluster(t.org.id);
    const after = await snapshot(t.org.id);
    expectConsistent(after);

    const earlier = [...before.byConversation.keys()];
    const same = earlier.filter((id) => after.byConversation.get(id) === before.byConversation.get(id)).length;
    expect(same / earlier.length).toBeGreaterThanOrEqual(0.9);
    expect(result.kept).toBeGreaterThan(0);
    const old = new Map(before.clusters.map((c) => [c.id, c]));
    for (const cluster of after.clusters.filter((c) => old.has(c.id))) {
      expect(cluster.label).toBe(old.get(cluster.id)!.label);
      expect(cluster.icon).toBe(old.get(cluster.id)!.icon);
      expect(cluster.createdAt).toEqual(old.get(cluster.id)!.createdAt);
      expect(cluster.status).toBe('ready');
    }
  });

  it('run again over the same issues keeps every cluster and assignment, and does not touch updatedAt', async () => {
    const t = await threeTopics();
    await recluster(t.org.id);
    const before = await snapshot(t.org.id);
    const result = await recluster(t.org.id);
    const after = await snapshot(t.org.id);
    expect(result).toMatchObject({ version: 2, kept: 3, created: 0, removed: 0 });
    expect(after.byConversation).toEqual(before.byConversation);
    expect(after.clusters.map((c) => [c.id, c.label, c.updatedAt.getTime()])).toEqual(before.clusters.map((c) => [c.id, c.label, c.updatedAt.getTime()]));
  });

  it('deletes clusters no new cluster continues: an organization whose issues are gone has none', async () => {
    const t = await threeTopics();
    await recluster(t.org.id);
    await api.em().nativeDelete(Conversation, { organization: t.org.id });
    const result = await recluster(t.org.id);
    expect(result).toMatchObject({ issues: 0, clusters: 0, removed: 3 });
    const after = await snapshot(t.org.id);
    expect(after.clusters).toEqual([]);
    expect(after.state!.cluster_ids).toEqual([]);
    // Nothing to place against: a new issue stays unassigned until the next run.
    await t.post([{ id: 'again', text: 'My card payment was declined' }]);
    await extract(t.org.id);
    expect((await snapshot(t.org.id)).byConversation.get('again')).toBeNull();
  });

  // More runs than the test pool has connections (4): waiting runs must not starve the one running.
  it('runs one at a time per organization: eight at once end in one consistent clustering', async () => {
    const t = await threeTopics();
    const results = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => recluster(t.org.id)));
    expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const after = await snapshot(t.org.id);
    expectConsistent(after);
    expect(after.clusters).toHaveLength(3);
    expect(after.state!.version).toBe(8);
    expect(after.clusters.every((c) => c.status === 'ready')).toBe(true);
  });
});
