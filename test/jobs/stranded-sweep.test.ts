import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitImport } from '../../src/domain/entities/git-import.entity.ts';
import { ImportRun, type ImportRunStatus } from '../../src/domain/entities/import-run.entity.ts';
import { OpenApiSpec } from '../../src/domain/entities/openapi-spec.entity.ts';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { jobs } from '../../src/jobs/registry.ts';
import { websiteImportJob } from '../../src/jobs/website-import.job.ts';
import { startWorkers, type RunningWorkers } from '../../src/workers/worker.ts';
import { buildOrg, buildSpace } from '../support/factories.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from '../support/test-env.ts';
import { NO_OUTBOX_PASSES } from '../support/test-jobs.ts';

// Records of this file are dated far in the past and swept "as of" shortly after, so
// records other test files leave in progress right now are never old enough here.
const T0 = new Date('2019-06-01T00:00:00Z');
const AN_HOUR_LATER = new Date(T0.getTime() + 3600_000);
const log = pino({ level: 'silent' });
let orm: Orm;
let org: Organization;
let space: Space;
let sweeper: RunningWorkers;

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 4 });
  const em = orm.em.fork();
  const built = await buildOrg(em);
  org = built.org;
  space = await buildSpace(em, org, built.owner);
  // The production jobs; no queue consumed, so nothing runs: only the sweep is exercised.
  sweeper = startWorkers({
    orm,
    log,
    connection: { url: testRedisUrl(), prefix: `vt${newId()}` },
    jobs,
    queues: [],
    concurrency: { default: 1 },
    lockMs: 30_000,
    ...NO_OUTBOX_PASSES,
    services: testJobServices(),
  });
});
afterAll(async () => {
  await sweeper.close();
  await orm.close(true);
});

async function importRun(status: ImportRunStatus): Promise<string> {
  const em = orm.em.fork();
  const run = em.create(ImportRun, { organization: org, space, sourceUrl: 'https://docs.example.test/', status });
  await em.flush();
  await em.nativeUpdate(ImportRun, { id: run.id }, { createdAt: T0 });
  return run.id;
}
const runOf = (id: string) => orm.em.fork().findOneOrFail(ImportRun, { id });

describe('the stranded-record sweep', () => {
  it('ends an import run left in progress with no job, and leaves runs whose job is queued or in the outbox', async () => {
    const stranded = await importRun('in-progress');
    const queued = await importRun('in-progress');
    const inOutbox = await importRun('pending');
    const done = await importRun('completed');
    await sweeper.producer.enqueue({ id: newId(), queue: websiteImportJob.queue, name: websiteImportJob.name, payload: { runId: queued }, delayMs: 0 });
    const em = orm.em.fork();
    // A row not yet enqueued: test workers run no relay of their own (NO_OUTBOX_PASSES).
    const row = em.create(OutboxEntry, { id: newId(), queue: websiteImportJob.queue, name: websiteImportJob.name, payload: { runId: inOutbox }, delayMs: 0 });
    await em.flush();
    try {
      await sweeper.sweepOnce(AN_HOUR_LATER);
    } finally {
      await em.nativeDelete(OutboxEntry, { id: row.id });
    }

    const ended = await runOf(stranded);
    expect(ended.status).toBe('failed');
    expect(ended.error).toMatch(/no longer queued/);
    expect((await runOf(queued)).status).toBe('in-progress');
    expect((await runOf(inOutbox)).status).toBe('pending');
    expect((await runOf(done)).status).toBe('completed');
  });

  it('ends a git import and an OpenAPI spec stranded in processing, through their own hooks', async () => {
    const em = orm.em.fork();
    const imp = em.create(GitImport, { space, url: 'https://user:secret@git.example.test/docs.git', ref: 'main', status: 'running' });
    const spec = em.create(OpenApiSpec, { organization: org, slug: `stranded-${newId().toLowerCase()}`, sourceText: 'openapi: 3.1.0', processingState: 'progress' });
    await em.flush();
    await em.nativeUpdate(GitImport, { id: imp.id }, { createdAt: T0 });
    await em.nativeUpdate(OpenApiSpec, { id: spec.id }, { updatedAt: T0 });

    await sweeper.sweepOnce(AN_HOUR_LATER);

    const gitAfter = await orm.em.fork().findOneOrFail(GitImport, { id: imp.id });
    expect(gitAfter).toMatchObject({ status: 'failed', url: 'https://git.example.test/docs.git' });
    const specAfter = await orm.em.fork().findOneOrFail(OpenApiSpec, { id: spec.id });
    expect(specAfter.processingState).toBe('complete');
    expect(specAfter.lastProcessedErrors[0]!.message).toMatch(/did not finish/);
  });

  it('may run in many workers at once: 20 sweeps end a stranded run once', async () => {
    const stranded = await importRun('pending');
    // None of them fails (no lock conflict), and the run ends once, failed.
    await Promise.all(Array.from({ length: 20 }, () => sweeper.sweepOnce(AN_HOUR_LATER)));
    const run = await runOf(stranded);
    expect(run.status).toBe('failed');
    expect(run.completedAt).not.toBeNull();
  });

  it('leaves records younger than the grace alone', async () => {
    const recent = await importRun('in-progress');
    await sweeper.sweepOnce(new Date(T0.getTime() + 60_000));
    expect((await runOf(recent)).status).toBe('in-progress');
  });
});
