import { MikroORM } from '@mikro-orm/postgresql';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { reclusterOrganization } from '../../src/domain/conversations/recluster.ts';
import { IssueCluster } from '../../src/domain/entities/issue-cluster.entity.ts';
import { migrateDatabase } from '../../src/domain/migrate.ts';
import { schedules } from '../../src/jobs/schedules.ts';
import type { RunningWorkers } from '../../src/workers/worker.ts';
import { enqueueTick } from '../../src/workers/scheduler.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { testDatabaseUrl, testRedisUrl } from '../support/test-env.ts';
import { waitFor } from '../support/test-jobs.ts';
import { topicOrg, topicQuestions, type TopicOrg } from '../support/topic-conversations.ts';

// The schedule's tick re-clusters every organization with new issues: a database of its own,
// so it never touches other files' organizations.
const url = testDatabaseUrl().replace(/\/([^/]+)$/, '/$1_cluster');
const bin = fileURLToPath(new URL('../../bin/vellum', import.meta.url));
let api: TestApi;
let workers: RunningWorkers | undefined;

beforeAll(async () => {
  const admin = await MikroORM.init({ clientUrl: url.replace(/\/[^/]+$/, '/postgres'), entities: [], discovery: { warnWhenNoEntities: false } });
  await admin.em.getConnection().execute(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`);
  await admin.close(true);
  await migrateDatabase(url);
  api = await startTestApi({ DATABASE_URL: url });
}, 60_000);
afterAll(async () => {
  await workers?.close();
  await api.close();
});

const version = async (orgId: string) =>
  (await api.em().execute<Array<{ version: number; new_issues: number }>>('select version, new_issues from conversation_clusterings where organization_id = ?', [orgId]))[0];

/**
 * Workers on the conversations queue, started once the test's data is in place: the
 * extraction jobs that ingestion queued then find nothing left, so no re-clustering is
 * requested but the ones the test makes.
 */
function working(): RunningWorkers {
  workers ??= startTestWorkers(api, ['conversations']);
  return workers;
}

/** An organization with extracted issues that no extraction job asked to re-cluster. */
async function withIssues(n: number, seed: number): Promise<TopicOrg> {
  const t = await topicOrg(api, api.em());
  await t.post(topicQuestions(n, seed).map(([, text], i) => ({ id: `q-${i}`, text })));
  await extractPendingIssues(api.em(), t.org.id, { now: () => new Date() });
  return t;
}

async function vellum(...args: string[]) {
  const env = { ...process.env, DATABASE_URL: url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: api.rt.config.queuePrefix, LOG_LEVEL: 'silent' };
  return promisify(execFile)(bin, args, { env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

describe('CLUSTER_SCHEDULE', () => {
  it('is a cron expression from the environment, hourly by default', () => {
    const cronOf = (env: Record<string, string>) => schedules(loadConfig(env)).find((s) => s.name === 'conversations-recluster')?.cron;
    expect(cronOf({})).toBe('30 * * * *');
    expect(cronOf({ CLUSTER_SCHEDULE: '*/10 * * * *' })).toBe('*/10 * * * *');
    expect(() => loadConfig({ CLUSTER_SCHEDULE: 'hourly' })).toThrow(/CLUSTER_SCHEDULE/);
  });

  it('each tick re-clusters the organizations with issues new since their last run, and only those', async () => {
    const fresh = await withIssues(40, 31);
    const settled = await withIssues(40, 32);
    await reclusterOrganization(api.em(), settled.org.id, { now: () => new Date() });
    expect(await version(fresh.org.id)).toMatchObject({ version: 0, new_issues: 40 });
    expect(await version(settled.org.id)).toMatchObject({ version: 1, new_issues: 0 });

    const schedule = schedules(api.rt.config).find((s) => s.name === 'conversations-recluster')!;
    await enqueueTick(working().producer, schedule, new Date());
    await waitFor(async () => (await version(fresh.org.id))?.version === 1, 30_000, 'the fresh organization re-clustered');
    expect(await version(fresh.org.id)).toMatchObject({ new_issues: 0 });
    expect(await api.em().count(IssueCluster, { organization: fresh.org.id })).toBeGreaterThan(0);
    // Give any stray job time to show itself: the settled organization was left alone.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await version(settled.org.id)).toMatchObject({ version: 1 });
    await workers!.close();
    workers = undefined;
  });
});

describe('bin/vellum conversations recluster', () => {
  it('runs a re-clustering on a worker, waits for it and prints the cluster count, the vectors clustered and the duration', async () => {
    const t = await withIssues(50, 33);
    working();
    const res = await vellum('conversations', 'recluster', '--org', t.org.id, '--json');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    const clusters = await api.em().count(IssueCluster, { organization: t.org.id });
    expect(out).toEqual({ organizationId: t.org.id, clusters, issues: 50, durationMs: expect.any(Number), version: 1, space: 'lsa' });
    expect(clusters).toBeGreaterThan(0);

    const human = await vellum('conversations', 'recluster', '--org', t.org.id);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^clusters: ${clusters}\\nissues: 50\\nvectors: lsa\\nduration: \\d+\\.\\d\\d s\\n$`));
    expect(await version(t.org.id)).toMatchObject({ version: 2 });
  }, 60_000);

  it('refuses an unknown organization and a missing --org', async () => {
    const unknown = await vellum('conversations', 'recluster', '--org', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Organization nope/);
    const missing = await vellum('conversations', 'recluster');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing --org/);
  }, 30_000);
});
