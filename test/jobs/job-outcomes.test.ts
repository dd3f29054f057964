import { spawnWorker } from '../support/spawn-worker.ts';
import type { ChildProcess } from 'node:child_process';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportRun } from '../../src/domain/entities/import-run.entity.ts';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import type { JobDefinition } from '../../src/jobs/define-job.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { startWorkers, type RunningWorkers } from '../../src/workers/worker.ts';
import { buildOrg, buildSpace } from '../support/factories.ts';
import { alwaysFailsJob, longImport3, longImport4, longJobs } from '../support/long-jobs.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from '../support/test-env.ts';
import { marks, NO_OUTBOX_PASSES, recordJob, testJobs, waitFor } from '../support/test-jobs.ts';

const log = pino({ level: 'silent' });
let orm: Orm;
const prefix = () => `vt${newId()}`;
const key = () => `vellum-test:${newId()}`;
const count = async (k: string, what: 'runs' | 'hooks') => Number((await marks().get(`${k}:${what}`)) ?? 0);

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 4 });
});
afterAll(async () => {
  await orm.close(true);
  marks().disconnect();
});

function workersFor(p: string, jobs: readonly JobDefinition[] = [...testJobs, ...longJobs]): RunningWorkers {
  return startWorkers({
    orm,
    log,
    connection: { url: testRedisUrl(), prefix: p },
    jobs,
    queues: ['maintenance'],
    concurrency: { default: 2 },
    lockMs: 30_000,
    ...NO_OUTBOX_PASSES,
    services: testJobServices(),
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', resolve));
}

async function pendingRun(): Promise<string> {
  const em = orm.em.fork();
  const { org, owner } = await buildOrg(em);
  const space = await buildSpace(em, org, owner);
  const run = em.create(ImportRun, { organization: org, space, sourceUrl: 'https://docs.example.test/' });
  await em.flush();
  return run.id;
}

const runOf = (id: string) => orm.em.fork().findOneOrFail(ImportRun, { id });
const ended = (id: string) => async () => ['completed', 'failed', 'cancelled'].includes((await runOf(id)).status);

describe('a job whose worker is killed three times', () => {
  async function killThreeTimes(job: JobDefinition) {
    const p = prefix();
    const k = key();
    const runId = await pendingRun();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, longJobs, log);
    const children: ChildProcess[] = [];
    try {
      await producer.enqueue({ id: newId(), queue: 'maintenance', name: job.name, payload: { runId, key: k, longRuns: 3 }, delayMs: 0 });
      for (let kill = 1; kill <= 3; kill++) {
        const worker = await spawnWorker(p);
        children.push(worker);
        await waitFor(async () => (await count(k, 'runs')) === kill, 30_000, `run ${kill} to start`);
        worker.kill('SIGKILL');
        await exitCode(worker);
      }
      children.push(await spawnWorker(p));
      await waitFor(ended(runId), 30_000, 'the import run to end');
      return { run: await runOf(runId), runs: await count(k, 'runs'), hooks: await count(k, 'hooks') };
    } finally {
      for (const child of children) child.kill('SIGKILL');
      await producer.close();
    }
  }

  it('ends its record failed through the final-failure hook when each stall used one of its 3 attempts', async () => {
    const { run, runs, hooks } = await killThreeTimes(longImport3);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/worker running it stopped/);
    expect({ runs, hooks }).toEqual({ runs: 3, hooks: 1 });
  }, 120_000);

  it('completes its record on the attempt that remains (4 attempts)', async () => {
    const { run, runs, hooks } = await killThreeTimes(longImport4);
    expect(run.status).toBe('completed');
    expect({ runs, hooks }).toEqual({ runs: 4, hooks: 0 });
  }, 120_000);
});

describe('a worker stopped with SIGTERM during a long job', () => {
  it('exits 0 within its budget and hands the job to another worker, which completes it', async () => {
    const p = prefix();
    const k = key();
    const runId = await pendingRun();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, longJobs, log);
    // A lock of 30 s: only a hand-back, not stall recovery, gets the job to another worker this soon.
    const env = { SHUTDOWN_TIMEOUT: '4', JOB_LOCK_MS: '30000' };
    const first = await spawnWorker(p, env);
    let second: ChildProcess | undefined;
    try {
      const id = newId();
      await producer.enqueue({ id, queue: 'maintenance', name: longImport3.name, payload: { runId, key: k, longRuns: 1 }, delayMs: 0 });
      await waitFor(async () => (await count(k, 'runs')) === 1, 15_000, 'the long run to start');
      second = await spawnWorker(p, env);
      const exited = exitCode(first);
      first.kill('SIGTERM');
      // The first run still has ~a minute to go: only a hand-back lets it end this soon.
      let code: number | null = -1;
      await waitFor(async () => {
        code = await Promise.race([exited, new Promise<number>((r) => setTimeout(() => r(-1), 50))]);
        return code !== -1;
      }, 8_000, 'the stopped worker to exit');
      expect(code).toBe(0);
      await waitFor(ended(runId), 8_000, 'another worker to complete the job');
      expect((await runOf(runId)).status).toBe('completed');
      expect(await count(k, 'runs')).toBe(2);
      expect(await marks().get(`${k}:aborted`)).toBe('1'); // the first run's handler was told to stop
      // Handed back, not failed: the completing attempt is the only one counted.
      expect((await producer.queue('maintenance').getJob(id))!.attemptsMade).toBe(1);
    } finally {
      first.kill('SIGKILL');
      second?.kill('SIGKILL');
      await producer.close();
    }
  }, 60_000);
});

describe('a job name this worker does not know (rolling deploy)', () => {
  it('stays queued, delayed without using an attempt, and runs once a worker that knows it starts', async () => {
    const p = prefix();
    const k = key();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, testJobs, log);
    const older = workersFor(p, []);
    const olderClosed = { done: false };
    let newer: RunningWorkers | undefined;
    try {
      const id = newId();
      await producer.enqueue({ id, queue: 'maintenance', name: recordJob.name, payload: { key: k, sleepMs: 0 }, delayMs: 0 });
      const queue = producer.queue('maintenance');
      await waitFor(async () => (await queue.getJob(id))!.attemptsStarted > 0 && (await queue.getJobState(id)) === 'delayed', 10_000, 'the older worker to put the job back');
      const job = (await queue.getJob(id))!;
      expect(job.attemptsMade).toBe(0);
      expect(job.failedReason ?? '').toBe('');
      await older.close();
      olderClosed.done = true;

      newer = workersFor(p);
      await waitFor(async () => (await marks().get(`${k}:done`)) === '1', 20_000, 'the newer worker to run the job');
      expect(await count(k, 'runs')).toBe(1);
    } finally {
      if (!olderClosed.done) await older.close();
      await newer?.close();
      await producer.close();
    }
  }, 40_000);
});

describe('a job that fails every attempt', () => {
  it('runs its final-failure hook once, after the last attempt', async () => {
    const p = prefix();
    const k = key();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, longJobs, log);
    const workers = workersFor(p);
    try {
      const id = newId();
      await producer.enqueue({ id, queue: 'maintenance', name: alwaysFailsJob.name, payload: { key: k }, delayMs: 0 });
      await waitFor(async () => (await count(k, 'hooks')) > 0, 10_000, 'the hook to run');
      await new Promise((r) => setTimeout(r, 300));
      expect({ runs: await count(k, 'runs'), hooks: await count(k, 'hooks') }).toEqual({ runs: 3, hooks: 1 });
      expect(await producer.queue('maintenance').getJobState(id)).toBe('failed');
    } finally {
      await workers.close();
      await producer.close();
    }
  });
});
