import { spawnWorker } from '../support/spawn-worker.ts';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { reclusterOrganization } from '../../src/domain/conversations/recluster.ts';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { JobOutbox } from '../../src/jobs/outbox.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { reclusterJob } from '../../src/jobs/recluster.job.ts';
import { jobs } from '../../src/jobs/registry.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { testRedisUrl } from '../support/test-env.ts';
import { marks, waitFor } from '../support/test-jobs.ts';
import { THREE_TOPICS, topicOrg, topicQuestions } from '../support/topic-conversations.ts';

let api: TestApi;
let producer: QueueProducer;
beforeAll(async () => {
  api = await startTestApi();
  producer = new QueueProducer({ url: testRedisUrl(), prefix: api.rt.config.queuePrefix }, jobs, api.rt.log);
});
afterAll(async () => {
  await producer.close();
  await api.close();
  marks().disconnect();
});

/** A worker process running the half-way-stopping re-clustering (test/support/long-jobs.ts) on the API's queues. */
const spawnReclusterer = () => spawnWorker(api.rt.config.queuePrefix, { WORKER_QUEUES: 'conversations' });

/** What a re-clustering writes: cluster rows, each issue's cluster, the model and its version. */
async function written(orgId: string) {
  const em = api.em();
  const clusters = await em.execute<Array<{ id: string; label: string; status: string }>>('select id, label, status from conversation_issue_clusters where organization_id = ? order by id', [orgId]);
  const issues = await em.execute<Array<{ id: string; cluster_id: string | null }>>('select id, cluster_id from conversation_issues where organization_id = ? order by id', [orgId]);
  const [state] = await em.execute<Array<{ version: number; model: Buffer | null; cluster_ids: string[]; requested_at: string | null; started_at: string | null }>>(
    'select version, model, cluster_ids, requested_at, started_at from conversation_clusterings where organization_id = ?',
    [orgId],
  );
  return {
    clusters: clusters.map((c) => c.id),
    statuses: new Set(clusters.map((c) => c.status)),
    assignments: issues.map((i) => `${i.id}:${i.cluster_id}`),
    version: state!.version,
    model: state!.model ? createHash('sha256').update(state!.model).digest('hex') : null,
    clusterIds: [...state!.cluster_ids].sort(),
    state: state!,
  };
}

describe('a worker killed mid-re-clustering', () => {
  it('leaves the previous clustering whole (its clusters analysing); the retry commits a consistent new one', async () => {
    const t = await topicOrg(api, api.em());
    await t.post(topicQuestions(60, 21).map(([, text], i) => ({ id: `q-${i}`, text })));
    await extractPendingIssues(api.em(), t.org.id, { now: () => new Date() });
    await reclusterOrganization(api.em(), t.org.id, { now: () => new Date() });
    // A new topic arrives: the next run has real changes to write.
    await t.post(THREE_TOPICS.export.map((text, i) => ({ id: `export-${i}`, text })));
    await extractPendingIssues(api.em(), t.org.id, { now: () => new Date() });
    const before = await written(t.org.id);
    expect(before.version).toBe(1);

    const outbox = new JobOutbox(producer, api.rt.log);
    const entry = await api.em().transactional(async (tx) => outbox.add(tx, reclusterJob, { organizationId: t.org.id }));
    await outbox.publish(api.em());

    const runs = `vellum-test:recluster:${t.org.id}:runs`;
    const children: ChildProcess[] = [];
    try {
      const first = await spawnReclusterer();
      children.push(first);
      await waitFor(async () => Number(await marks().get(runs)) >= 1, 30_000, 'the run to write its cluster rows');
      // Readers see the run under way, and nothing of what it has written so far.
      const during = await written(t.org.id);
      expect(during.statuses).toEqual(new Set(['analysing']));
      expect(during).toMatchObject({ clusters: before.clusters, assignments: before.assignments, version: 1, model: before.model });
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));

      const killed = await written(t.org.id);
      expect(killed).toMatchObject({ clusters: before.clusters, assignments: before.assignments, version: 1, model: before.model, clusterIds: before.clusterIds });

      // The killed job's lock lapses and another worker runs it again, through to the commit.
      children.push(await spawnReclusterer());
      await waitFor(async () => (await written(t.org.id)).version === 2, 60_000, 'the retried re-clustering');
      const after = await written(t.org.id);
      expect(Number(await marks().get(runs))).toBe(2);
      expect(after.statuses).toEqual(new Set(['ready']));
      expect(after.clusterIds).toEqual([...after.clusters].sort());
      const ids = new Set(after.clusters);
      expect(after.assignments.every((a) => ids.has(a.split(':')[1]!))).toBe(true);
      expect(after.state).toMatchObject({ requested_at: null, started_at: null });
      expect(await api.em().findOne(OutboxEntry, { id: entry.id })).toBeNull();
    } finally {
      for (const child of children) child.kill('SIGKILL');
    }
  }, 120_000);
});
