import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import type { JobDefinition } from '../../src/jobs/define-job.ts';
import { JobOutbox } from '../../src/jobs/outbox.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { reconcileOutbox } from '../../src/jobs/reconcile.ts';
import { startWorkers, type RunningWorkers } from '../../src/workers/worker.ts';
import { alwaysFailsJob, longJobs } from '../support/long-jobs.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from '../support/test-env.ts';
import { marks, NO_OUTBOX_PASSES, recordJob, testJobs, waitFor } from '../support/test-jobs.ts';

const log = pino({ level: 'silent' });
const allJobs = [...testJobs, ...longJobs];
let orm: Orm;
const prefix = () => `vt${newId()}`;
const key = () => `vellum-test:${newId()}`;
const runs = async (k: string) => Number((await marks().get(`${k}:runs`)) ?? 0);
const rowOf = (id: string) => orm.em.fork().findOne(OutboxEntry, { id });
/** Past the reconciler's grace: rows enqueued now are looked at. */
const later = () => new Date(Date.now() + 10 * 60_000);

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 4 });
});
afterAll(async () => {
  await orm.close(true);
  marks().disconnect();
});

function workersFor(p: string): RunningWorkers {
  return startWorkers({
    orm, log, connection: { url: testRedisUrl(), prefix: p }, jobs: allJobs, queues: ['maintenance'],
    concurrency: { default: 2 }, lockMs: 30_000, services: testJobServices(), ...NO_OUTBOX_PASSES,
  });
}

/** Work accepted the way a route accepts it: recorded in a transaction, enqueued after commit. */
async function accept(producer: QueueProducer, job: JobDefinition, payload: Record<string, unknown>, delayMs = 0): Promise<string> {
  const em = orm.em.fork();
  const outbox = new JobOutbox(producer, log);
  const row = await em.transactional(async (tx) => outbox.add(tx, job, payload, { delayMs }));
  await outbox.publish(em);
  return row.id;
}

/** What a Redis restarted without persistence holds of this prefix: nothing. */
async function emptyRedis(p: string) {
  const keys = await marks().keys(`${p}:*`);
  if (keys.length) await marks().del(...keys);
}

describe('the outbox as the record of accepted work', () => {
  it('loses no accepted job when Redis restarts empty: the reconciler enqueues it again and it runs once', async () => {
    const p = prefix();
    const k = key();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, allJobs, log);
    const id = await accept(producer, recordJob, { key: k });
    expect(await producer.queue('maintenance').getJobState(id)).toBe('waiting');
    expect((await rowOf(id))!.enqueuedAt).toBeInstanceOf(Date); // kept, though its job is queued

    await emptyRedis(p);
    expect(await producer.queue('maintenance').getJobState(id)).toBe('unknown');
    const workers = workersFor(p);
    try {
      expect(await workers.reconcileOnce({ ids: [id], now: later() })).toEqual({ requeued: 1, finished: 0, parked: 0 });
      await waitFor(async () => (await marks().get(`${k}:done`)) === '1', 10_000, 'the lost job to run');
      await waitFor(async () => (await rowOf(id)) === null, 10_000, 'the finished job to leave the outbox');
      expect(await workers.reconcileOnce({ ids: [id], now: later() })).toEqual({ requeued: 0, finished: 0, parked: 0 });
      expect(await runs(k)).toBe(1);
    } finally {
      await workers.close();
      await producer.close();
    }
  });

  it('keeps the row of a job still queued, and removes rows whose job finished without removing it', async () => {
    const p = prefix();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, allJobs, log);
    const workers = workersFor(p);
    try {
      const waiting = await accept(producer, recordJob, { key: key() }, 3600_000);
      const k = key();
      const done = await accept(producer, recordJob, { key: k });
      await waitFor(async () => (await rowOf(done)) === null, 10_000, 'the job to finish');
      // A worker that died between finishing the job and removing its row left it behind.
      const em = orm.em.fork();
      em.create(OutboxEntry, { id: done, queue: 'maintenance', name: recordJob.name, payload: { key: k }, delayMs: 0, enqueuedAt: new Date() });
      await em.flush();

      const now = later();
      expect(await workers.reconcileOnce({ ids: [waiting, done], now })).toEqual({ requeued: 0, finished: 1, parked: 0 });
      expect(await rowOf(done)).toBeNull();
      // Seen in its queue: kept, and marked so the next passes look at other rows first.
      expect((await rowOf(waiting))!.enqueuedAt).toEqual(now);
      expect(await runs(k)).toBe(1);
    } finally {
      await workers.close();
      await producer.close();
    }
  });

  it('ends a reconciler pass when Redis does not answer, giving its claims back', async () => {
    const p = prefix();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, allJobs, log);
    const down = new QueueProducer({ url: 'redis://127.0.0.1:1', prefix: p }, allJobs, log);
    try {
      const id = await accept(producer, recordJob, { key: key() }, 3600_000);
      await expect(reconcileOutbox(orm.em, down, later(), log, { graceMs: 60_000, batchSize: 10, leaseMs: 60_000, ids: [id] })).rejects.toThrow();
      expect(await rowOf(id)).toMatchObject({ claimedUntil: null, enqueuedAt: expect.any(Date) });
      // Nothing was decided from the failed look-ups: the job is still queued, once.
      expect(await producer.queue('maintenance').getJobState(id)).toBe('delayed');
    } finally {
      await producer.close();
      await down.close().catch(() => undefined);
    }
  });

  it('removes the row of a job that failed for good, after its final-failure hook', async () => {
    const p = prefix();
    const k = key();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: p }, allJobs, log);
    const workers = workersFor(p);
    try {
      const id = await accept(producer, alwaysFailsJob, { key: k });
      await waitFor(async () => (await rowOf(id)) === null, 10_000, 'the failed job to leave the outbox');
      expect(await marks().get(`${k}:hooks`)).toBe('1');
      expect(await producer.queue('maintenance').getJobState(id)).toBe('failed');
    } finally {
      await workers.close();
      await producer.close();
    }
  });
});
