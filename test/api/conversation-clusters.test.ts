import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULSE_WEEKS } from '../../src/domain/conversations/cluster-figures.ts';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { ConversationIssue } from '../../src/domain/entities/conversation-issue.entity.ts';
import { Conversation } from '../../src/domain/entities/conversation.entity.ts';
import { IssueCluster, type ClusterStatus } from '../../src/domain/entities/issue-cluster.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { fixedClock } from '../../src/domain/shared/clock.ts';
import { expectError } from '../support/assertions.ts';
import { buildInstallation, buildMember, buildOrg, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

// A Wednesday: the current week runs from Monday 2026-11-23 00:00 UTC.
const NOW = new Date('2026-11-25T12:00:00Z');
let api: TestApi;
let org: Organization;
let reader: Caller;
let installToken: string;
let otherSource: string;

beforeAll(async () => {
  api = await startTestApi({}, { clock: fixedClock(NOW) });
  const em = api.em();
  ({ org } = await buildOrg(em));
  reader = await buildMember(em, org, 'read');
  installToken = (await buildInstallation(em, org)).token;
  const other = await buildInstallation(em, org);
  otherSource = `integration:test-integration:${other.installation.id}`;
  const ask = (id: string, createdAt: string) => ({ id, metadata: { createdAt }, parts: [{ type: 'message', role: 'user', body: `How do I fix ${id}?` }] });
  const post = (token: string, body: unknown) => api.request('POST', `/v1/orgs/${org.id}/conversations`, { token, body });
  await post(installToken, [
    ask('this-week', '2026-11-24T09:00:00Z'),
    ask('monday-start', '2026-11-23T00:00:00Z'),
    ask('last-week', '2026-11-22T23:59:59Z'),
    ask('oldest-week', '2026-08-31T00:00:00Z'),
    ask('too-old', '2026-08-30T23:59:59Z'),
    ask('future', '2026-12-10T00:00:00Z'),
    ask('second-big', '2026-11-24T10:00:00Z'),
  ]);
  await post(other.token, ask('from-other-source', '2026-11-10T12:00:00Z'));
  await extractPendingIssues(api.em(), org.id, { now: () => NOW });
});
afterAll(() => api.close());

const clusters = (q = '') => `/v1/orgs/${org.id}/conversations-clusters${q}`;

/** A cluster as the clustering step would write it, holding the issues of the named conversations. */
async function cluster(label: string, externalIds: string[], opts: { status?: ClusterStatus; updatedAt?: Date } = {}) {
  const em = api.em();
  const made = em.create(IssueCluster, { organization: org, label, summary: `About ${label}.`, icon: 'book', status: opts.status ?? 'ready' });
  await em.flush();
  if (opts.updatedAt) await em.nativeUpdate(IssueCluster, { id: made.id }, { updatedAt: opts.updatedAt });
  const conversations = await em.find(Conversation, { organization: org, externalId: { $in: externalIds } });
  await em.nativeUpdate(ConversationIssue, { conversation: { $in: conversations.map((c) => c.id) } }, { cluster: made.id });
  return made.id;
}

describe('conversation clusters', () => {
  let big: string;
  let small: string;
  let empty: string;
  beforeAll(async () => {
    big = await cluster('Big', ['this-week', 'monday-start', 'last-week', 'oldest-week', 'too-old', 'future', 'from-other-source'], { updatedAt: new Date('2026-11-01T00:00:00Z') });
    small = await cluster('Small', ['second-big'], { status: 'pending', updatedAt: new Date('2026-11-20T00:00:00Z') });
    empty = await cluster('Empty', [], { status: 'analysing', updatedAt: new Date('2026-11-10T00:00:00Z') });
  });

  it('presents figures computed from the issues: 13 weekly counts ending this week, sources, stats', async () => {
    const res = await api.request('GET', clusters(`/${big}`), { token: reader.token });
    expect(res.status).toBe(200);
    expectPublishedShape(res, 'GET', '/orgs/{organizationId}/conversations-clusters/{clusterId}');
    const pulse = res.body.weeklyPulse as number[];
    expect(pulse).toHaveLength(PULSE_WEEKS);
    // This week: two (Tuesday, and Monday 00:00 itself); the week before: one (Sunday 23:59:59);
    // two weeks before the current one: the other source's; the oldest of the 13 weeks starts on 2026-08-31.
    expect(pulse[12]).toBe(2);
    expect(pulse[11]).toBe(1);
    expect(pulse[10]).toBe(1);
    expect(pulse[0]).toBe(1);
    // Before the 13 weeks and in the future: in no week.
    expect(pulse.reduce((a, b) => a + b, 0)).toBe(5);
    expect(res.body.stats).toEqual({ issues: 7, conversations: 7, tasksTotal: 0, tasksBacklog: 0, tasksStarted: 0, tasksCompleted: 0, tasksCancelled: 0 });
    expect(Object.values(res.body.sources).sort()).toEqual([1, 6]);
    expect(res.body.sources[otherSource]).toBe(1);
    expect(res.body.urls.location).toBe(`http://vellum.test/v1/orgs/${org.id}/conversations-clusters/${big}`);

    const none = await api.request('GET', clusters(`/${empty}`), { token: reader.token });
    expect(none.body.weeklyPulse).toEqual(new Array(13).fill(0));
    expect(none.body.sources).toEqual({});
  });

  it('lists by updatedAt (default, newest first) or by issue count, either way, and pages', async () => {
    const byDefault = await api.request('GET', clusters(), { token: reader.token });
    expectPublishedShape(byDefault, 'GET', '/orgs/{organizationId}/conversations-clusters');
    expect(byDefault.body.items.map((c: { id: string }) => c.id)).toEqual([small, empty, big]);
    const byIssues = await api.request('GET', clusters('?orderBy=issues'), { token: reader.token });
    expect(byIssues.body.items.map((c: { id: string }) => c.id)).toEqual([big, small, empty]);
    const ascending = await api.request('GET', clusters('?orderBy=conversations&order=asc'), { token: reader.token });
    expect(ascending.body.items.map((c: { id: string }) => c.id)).toEqual([empty, small, big]);

    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await api.request('GET', clusters(`?orderBy=issues&limit=1${page ? `&page=${page}` : ''}`), { token: reader.token });
      expect(res.body.count).toBe(3);
      seen.push(...res.body.items.map((c: { id: string }) => c.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual([big, small, empty]);
    // A token is bound to its ordering.
    const first = await api.request('GET', clusters('?orderBy=issues&limit=1'), { token: reader.token });
    expectError(await api.request('GET', clusters(`?orderBy=updatedAt&limit=1&page=${first.body.next.page}`), { token: reader.token }), 400);
  });

  it('pages by updatedAt without repeats when the clustering step stamps times in SQL (microseconds)', async () => {
    const stamped = await Promise.all(['One', 'Two', 'Three'].map((l) => cluster(`Stamped ${l}`, [])));
    await api.em().execute(`update conversation_issue_clusters set updated_at = '2030-01-01T00:00:00.123456Z' where id in (?)`, [stamped]);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await api.request('GET', clusters(`?limit=1${page ? `&page=${page}` : ''}`), { token: reader.token });
      seen.push(...res.body.items.map((c: { id: string }) => c.id));
      page = res.body.next?.page;
    } while (page && seen.length < 20);
    expect(seen.slice(0, 3).sort()).toEqual([...stamped].sort());
    expect(new Set(seen).size).toBe(seen.length);
    await api.em().nativeDelete(IssueCluster, { id: { $in: stamped } });
  });

  it('filters by status and refuses unknown orderings and statuses', async () => {
    const pending = await api.request('GET', clusters('?status=pending'), { token: reader.token });
    expect(pending.body.items.map((c: { id: string }) => c.id)).toEqual([small]);
    expect(pending.body.count).toBe(1);
    expect((await api.request('GET', clusters('?status=analysing'), { token: reader.token })).body.items.map((c: { id: string }) => c.id)).toEqual([empty]);
    expectError(await api.request('GET', clusters('?status=ready'), { token: reader.token }), 400);
    expectError(await api.request('GET', clusters('?orderBy=size'), { token: reader.token }), 400);
  });

  it('filters issues by cluster', async () => {
    const res = await api.request('GET', `/v1/orgs/${org.id}/conversations-issues?cluster=${small}`, { token: reader.token });
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0].issue.cluster).toBe(small);
  });

  it('answers 404 for a cluster of another organization and refuses guests', async () => {
    const stranger = await buildOrg(api.em());
    expectError(await api.request('GET', `/v1/orgs/${stranger.org.id}/conversations-clusters/${big}`, { token: stranger.owner.token }), 404);
    const guest = await buildMember(api.em(), org, null);
    expectError(await api.request('GET', clusters(`/${big}`), { token: guest.token }), 403);
  });
});
