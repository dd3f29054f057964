import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { reclusterOrganization } from '../../src/domain/conversations/recluster.ts';
import { GROWTH_MAX, reclusterDue } from '../../src/domain/conversations/recluster-triggers.ts';
import { ConversationIssue } from '../../src/domain/entities/conversation-issue.entity.ts';
import { IssueCluster } from '../../src/domain/entities/issue-cluster.entity.ts';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { reclusterJob } from '../../src/jobs/recluster.job.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { waitFor } from '../support/test-jobs.ts';
import { topicOrg, topicQuestions } from '../support/topic-conversations.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const state = async (orgId: string) =>
  (await api.em().execute<Array<{ issues: number; new_issues: number; requested_at: string | null; started_at: string | null }>>(
    'select issues, new_issues, requested_at, started_at from conversation_clusterings where organization_id = ?',
    [orgId],
  ))[0];

/** Extraction as the job runs it, counting the re-clustering requests its batches make. */
async function extractCounting(orgId: string, runs = 1) {
  let requests = 0;
  const opts = { now: () => new Date(), reclusterDue: () => void requests++ };
  await Promise.all(Array.from({ length: runs }, () => extractPendingIssues(api.em(), orgId, opts)));
  return requests;
}

describe('when a full re-clustering is due', () => {
  it('is decided by growth: any issue before the first run, then 20 % more, at most 1,000', () => {
    expect(reclusterDue({ issues: 0, newIssues: 0 })).toBe(false);
    expect(reclusterDue({ issues: 0, newIssues: 1 })).toBe(true);
    expect(reclusterDue({ issues: 100, newIssues: 19 })).toBe(false);
    expect(reclusterDue({ issues: 100, newIssues: 20 })).toBe(true);
    expect(reclusterDue({ issues: 100_000, newIssues: GROWTH_MAX - 1 })).toBe(false);
    expect(reclusterDue({ issues: 100_000, newIssues: GROWTH_MAX })).toBe(true);
  });

  it('extraction batches request one run when enough new issues arrived, also three runs at once; the run ends the request', async () => {
    const t = await topicOrg(api, api.em());
    await t.post(topicQuestions(350, 1).map(([, text], i) => ({ id: `a-${i}`, text })));
    // Four batches over three concurrent extractions: the first batch requests, the others see the request.
    expect(await extractCounting(t.org.id, 3)).toBe(1);
    expect(await state(t.org.id)).toMatchObject({ new_issues: 350, requested_at: expect.anything() });

    await reclusterOrganization(api.em(), t.org.id, { now: () => new Date() });
    expect(await state(t.org.id)).toMatchObject({ issues: 350, new_issues: 0, requested_at: null, started_at: null });

    await t.post(topicQuestions(60, 2).map(([, text], i) => ({ id: `b-${i}`, text })));
    expect(await extractCounting(t.org.id)).toBe(0); // 60 < 20 % of 350
    await t.post(topicQuestions(20, 3).map(([, text], i) => ({ id: `c-${i}`, text })));
    expect(await extractCounting(t.org.id)).toBe(1); // 80 ≥ 70
    expect(await state(t.org.id)).toMatchObject({ new_issues: 80 });
  });

  it('runs as a job after ingestion: extraction records it through the outbox and the clusters appear', async () => {
    const workers = startTestWorkers(api, ['conversations']);
    try {
      const t = await topicOrg(api, api.em());
      await t.post(topicQuestions(60, 4).map(([, text], i) => ({ id: `q-${i}`, text })));
      await waitFor(async () => (await state(t.org.id))?.issues === 60, 30_000, 'a re-clustering of all 60 issues');
      const issues = await api.em().find(ConversationIssue, { organization: t.org.id });
      const clusters = await api.em().find(IssueCluster, { organization: t.org.id });
      expect(clusters.length).toBeGreaterThanOrEqual(2);
      expect(issues.every((i) => i.cluster !== null && clusters.some((c) => c.id === i.cluster!.id))).toBe(true);
      await waitFor(async () => (await api.em().count(OutboxEntry, { name: reclusterJob.name, payload: { organizationId: t.org.id } })) === 0, 10_000, 'the job record to go');
      expect(await state(t.org.id)).toMatchObject({ requested_at: null });
    } finally {
      await workers.close();
    }
  });

  it('a job for an organization deleted since ends quietly', async () => {
    const ctx = { em: api.em(), log: api.rt.log, clock: { now: () => new Date() } } as unknown as Parameters<typeof reclusterJob.handle>[1];
    await expect(reclusterJob.handle({ organizationId: 'gone-organization' }, ctx)).resolves.toEqual({ skipped: 'organization gone' });
  });

  it('a run that failed for good ends its request and shows its clusters ready again', async () => {
    const t = await topicOrg(api, api.em());
    await t.post(topicQuestions(30, 6).map(([, text], i) => ({ id: `q-${i}`, text })));
    await extractPendingIssues(api.em(), t.org.id, { now: () => new Date() });
    await reclusterOrganization(api.em(), t.org.id, { now: () => new Date() });
    const old = new Date(Date.now() - 3600_000);
    await api.em().execute('update conversation_clusterings set requested_at = ?, started_at = ? where organization_id = ?', [old, old, t.org.id]);
    await api.em().nativeUpdate(IssueCluster, { organization: t.org.id }, { status: 'analysing' });

    const stranded = await reclusterJob.unfinished!(api.em(), { before: new Date(), limit: 10_000 });
    expect(stranded).toContainEqual({ organizationId: t.org.id });
    await reclusterJob.onFinalFailure!({ organizationId: t.org.id }, new Error('gave up'), { em: api.em(), log: api.rt.log, clock: { now: () => new Date() } });
    expect(await state(t.org.id)).toMatchObject({ requested_at: null, started_at: null });
    const clusters = await api.em().find(IssueCluster, { organization: t.org.id });
    expect(clusters.every((c) => c.status === 'ready')).toBe(true);
  });
});
