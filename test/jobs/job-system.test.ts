import { spawnWorker } from '../support/spawn-worker.ts';
import type { ChildProcess } from 'node:child_process';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { JobOutbox } from '../../src/jobs/outbox.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { queueStats } from '../../src/jobs/queue-stats.ts';
import { defineSchedule } from '../../src/jobs/schedules.ts';
import { enqueueTick, tickJobId } from '../../src/workers/scheduler.ts';
import { startWorkers, type RunningWorkers } from '../../src/workers/worker.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from '../support/test-env.ts';
import { marks, NO_OUTBOX_PASSES, recordJob, testJobs, waitFor } from '../support/test-jobs.ts';

const log = pino({ level: 'silent' });
let orm: Orm;
const prefix = () => `vt${newId()}`;
const key = () => `vellum-test:${newId()}`;
const done = (k: string) => async () => (await marks().get(`${k}:done`)) === '1';
const runs = async (k: string) => Number((await marks().get(`${k}:runs`)) ?? 0);

function workersFor(p: string, extra: Partial<Omit<Parameters<typeof startWorkers>[0], 'services'>> = {}): RunningWorkers {
  return startWorkers({
    orm,
    log,
    connection: { url: testRedisUrl(), prefix: p },
    jobs: testJobs,
    queues: ['maintenance'],
    concurrency: { default: 2 },
    lockMs: 30_000,
    ...NO_OUTBOX_PASSES,
    services: testJobServices(),
    ...extra,
  });
}

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 4 });
});
afterAll(async () => {
  await orm.close(true);
  marks().disconnect();
});

describe('outbox', () => {
  it('runs a job recorded with a committed change, once, and removes its row when it finished', async () => {
    const p = prefix();
    const k = key();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, testJobs, log);
    const workers = workersFor(p);
    try {
      const em = orm.em.fork();
      const outbox = new JobOutbox(producer, log);
      await em.transactional(async (tx) => {
        outbox.add(tx, recordJob, { key: k });
      });
      await outbox.publish(em);
      await waitFor(done(k), 10_000, 'job to run');
      await waitFor(async () => (await orm.em.fork().count(OutboxEntry, { payload: { key: k } })) === 0, 10_000, 'the row to go');
      expect(await runs(k)).toBe(1);
    } finally {
      await workers.close();
      await producer.close();
    }
  });

  it('does not enqueue a job whose transaction rolled back', async () => {
    const p = prefix();
    const k = key();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, testJobs, log);
    try {
      const em = orm.em.fork();
      const outbox = new JobOutbox(producer, log);
      await expect(
        em.transactional(async (tx) => {
          outbox.add(tx, recordJob, { key: k });
          await tx.flush();
          throw new Error('change refused');
        }),
      ).rejects.toThrow('change refused');
      await outbox.publish(em);
      expect((await producer.queue('maintenance').getJobCounts('waiting')).waiting).toBe(0);
    } finally {
      await producer.close();
    }
  });

  it('rejects an invalid payload when recording, before anything is written', () => {
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: prefix() }, testJobs, log);
    const outbox = new JobOutbox(producer, log);
    expect(() => outbox.add(orm.em.fork(), recordJob, { key: '' })).toThrow();
    expect(outbox.size).toBe(0);
  });

  it('keeps a job enqueued while Redis is down and runs it once Redis is back (relay)', async () => {
    const p = prefix();
    const k = key();
    const down = new QueueProducer({ url: 'redis://127.0.0.1:1', prefix: p }, testJobs, log);
    const em = orm.em.fork();
    const outbox = new JobOutbox(down, log);
    const row = outbox.add(em, recordJob, { key: k });
    await em.flush();
    await outbox.publish(em); // the fast path fails: Redis is unreachable
    await down.close().catch(() => undefined);
    expect(await orm.em.fork().count(OutboxEntry, { payload: { key: k } })).toBe(1);

    const workers = workersFor(p, { relayGraceMs: 0 });
    try {
      // Scoped to this test's row: other files' rows share the table (and their own queues).
      expect(await workers.relayOnce({ ids: [row.id] })).toEqual({ enqueued: 1, parked: 0 });
      await waitFor(done(k), 10_000, 'relayed job to run');
      expect(await workers.relayOnce({ ids: [row.id] })).toEqual({ enqueued: 0, parked: 0 });
      expect(await runs(k)).toBe(1);
    } finally {
      await workers.close();
    }
  });

  it('enqueues the same outbox row twice without running the job twice', async () => {
    const p = prefix();
    const k = key();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, testJobs, log);
    const workers = workersFor(p);
    try {
      const row = { id: newId(), queue: 'maintenance', name: recordJob.name, payload: { key: k, sleepMs: 0 }, delayMs: 0 };
      await producer.enqueue(row);
      await waitFor(done(k), 10_000, 'job to run');
      await producer.enqueue(row);
      await new Promise((r) => setTimeout(r, 300));
      expect(await runs(k)).toBe(1);
    } finally {
      await workers.close();
      await producer.close();
    }
  });
});

describe('a worker killed mid-job', () => {
  it('is finished by another worker after SIGKILL', async () => {
    const p = prefix();
    const k = key();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, testJobs, log);
    const first = await spawnWorker(p);
    let second: ChildProcess | undefined;
    try {
      await producer.enqueue({ id: newId(), queue: 'maintenance', name: recordJob.name, payload: { key: k, sleepMs: 4000 }, delayMs: 0 });
      await waitFor(async () => (await runs(k)) === 1, 10_000, 'job to start');
      first.kill('SIGKILL');
      second = await spawnWorker(p);
      await waitFor(done(k), 30_000, 'job to be recovered');
      expect(await runs(k)).toBe(2);
    } finally {
      first.kill('SIGKILL');
      second?.kill('SIGTERM');
      await producer.close();
    }
  }, 60_000);
});

describe('scheduler ticks', () => {
  const schedule = defineSchedule({ name: 'test-tick', cron: '* * * * *', job: recordJob, payload: () => ({ key: 'tick' }) });

  it('two schedulers enqueue one job per tick', async () => {
    const p = prefix();
    const a = new QueueProducer({ url: testRedisUrl(), prefix: p }, testJobs, log);
    const b = new QueueProducer({ url: testRedisUrl(), prefix: p }, testJobs, log);
    try {
      const tick = new Date('2026-11-21T10:15:00.000Z');
      const ids = await Promise.all([
        enqueueTick(a, schedule, tick),
        enqueueTick(b, schedule, new Date(tick.getTime() + 700)),
        enqueueTick(a, schedule, tick),
      ]);
      expect(new Set(ids)).toEqual(new Set([tickJobId('test-tick', tick)]));
      expect(ids[0]).not.toContain(':');
      await enqueueTick(b, schedule, new Date(tick.getTime() + 60_000));
      const counts = await a.queue('maintenance').getJobCounts('waiting');
      expect(counts.waiting).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('queue stats', () => {
  it('reports counts and the age of the oldest waiting job for every queue', async () => {
    const p = prefix();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, testJobs, log);
    try {
      await producer.enqueue({ id: newId(), queue: 'maintenance', name: recordJob.name, payload: { key: key(), sleepMs: 0 }, delayMs: 0 });
      await producer.enqueue({ id: newId(), queue: 'maintenance', name: recordJob.name, payload: { key: key(), sleepMs: 0 }, delayMs: 60_000 });
      const stats = await queueStats(producer, new Date(Date.now() + 5000));
      const maintenance = stats.find((s) => s.queue === 'maintenance')!;
      expect(maintenance).toMatchObject({ waiting: 1, delayed: 1, active: 0, failed: 0 });
      expect(maintenance.oldestWaitingSeconds).toBeGreaterThanOrEqual(4);
      expect(stats.map((s) => s.queue)).toContain('openapi');
    } finally {
      await producer.close();
    }
  });
});
