import { createServer, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { relayOutbox } from '../../src/jobs/relay.ts';
import { startWorkers } from '../../src/workers/worker.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from '../support/test-env.ts';
import { marks, NO_OUTBOX_PASSES, recordJob, testJobs, waitFor } from '../support/test-jobs.ts';

const log = pino({ level: 'silent' });
let orm: Orm;
const key = () => `vellum-test:${newId()}`;
const inAMinute = () => new Date(Date.now() + 60_000);

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 4 });
});
afterAll(async () => {
  await orm.close(true);
  marks().disconnect();
});

/** Outbox rows as an API would have left them, oldest first. */
async function rows(...specs: Array<{ name: string; payload: Record<string, unknown> }>): Promise<string[]> {
  const em = orm.em.fork();
  const base = Date.now() - 5000;
  const made = specs.map((s, i) => em.create(OutboxEntry, { id: newId(), queue: 'maintenance', name: s.name, payload: s.payload, delayMs: 0, createdAt: new Date(base + i) }));
  await em.flush();
  return made.map((r) => r.id);
}
const rowOf = (id: string) => orm.em.fork().findOne(OutboxEntry, { id });

describe('the outbox relay, row by row', () => {
  it('parks a row it cannot enqueue, with its reason, and enqueues the rows behind it', async () => {
    const k = key();
    const ids = await rows(
      { name: `test.renamed-${newId()}`, payload: { key: k } }, // recorded by a release that had this job
      { name: recordJob.name, payload: { key: '' } }, // a payload the job no longer accepts
      { name: recordJob.name, payload: { key: k } },
    );
    const [unknown, unparsable, good] = ids as [string, string, string];
    const workers = startWorkers({
      orm, log, connection: { url: testRedisUrl(), prefix: `vt${newId()}` }, jobs: testJobs, queues: ['maintenance'],
      concurrency: { default: 1 }, lockMs: 30_000, services: testJobServices(), ...NO_OUTBOX_PASSES,
    });
    try {
      expect(await workers.relayOnce({ ids, now: inAMinute() })).toEqual({ enqueued: 1, parked: 2 });
      await waitFor(async () => (await marks().get(`${k}:done`)) === '1', 10_000, 'the row behind the parked ones to run');

      expect(await rowOf(unknown)).toMatchObject({ parkCode: 'unknown-job', parkReason: expect.stringMatching(/No job named "test\.renamed-\w+" is declared/), parkedAt: expect.any(Date), enqueuedAt: null });
      expect(await rowOf(unparsable)).toMatchObject({ parkCode: 'bad-payload', parkReason: expect.stringMatching(/payload of test\.record does not parse/), parkedAt: expect.any(Date) });
      // Parked rows are not tried again, by the relay or the reconciler.
      expect(await workers.relayOnce({ ids, now: inAMinute() })).toEqual({ enqueued: 0, parked: 0 });
      expect(await workers.reconcileOnce({ ids, now: new Date(Date.now() + 3600_000) })).toMatchObject({ requeued: 0 });
      expect((await rowOf(unknown))!.parkedAt).not.toBeNull();
      await waitFor(async () => (await rowOf(good)) === null, 10_000, 'the finished job to leave the outbox');
    } finally {
      await workers.close();
      await orm.em.fork().nativeDelete(OutboxEntry, { id: { $in: ids } });
    }
  });

  it('counts and moves only the rows a scoped pass names (files share the table)', async () => {
    const k = key();
    const [mine, theirs] = await rows({ name: recordJob.name, payload: { key: k } }, { name: recordJob.name, payload: { key: key() } });
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: `vt${newId()}` }, testJobs, log);
    try {
      const pass = () => relayOutbox(orm.em, producer, inAMinute(), log, { graceMs: 0, batchSize: 10, leaseMs: 60_000, ids: [mine!] });
      expect(await pass()).toEqual({ enqueued: 1, parked: 0 });
      expect(await pass()).toEqual({ enqueued: 0, parked: 0 });
      expect((await rowOf(theirs!))!.enqueuedAt).toBeNull(); // another file's row: untouched
      expect(await producer.queue('maintenance').getJobState(theirs!)).toBe('unknown');
    } finally {
      await producer.close();
      await orm.em.fork().nativeDelete(OutboxEntry, { id: { $in: [mine!, theirs!] } });
    }
  });

  it('takes up again rows parked for a job name this release declares (a rolling deploy), not others', async () => {
    const [renamed, unparsable] = await rows({ name: recordJob.name, payload: { key: key() } }, { name: recordJob.name, payload: { key: key() } });
    const em = orm.em.fork();
    // Parked by an older release's relay, which did not declare the job yet; and one parked for its payload.
    await em.nativeUpdate(OutboxEntry, { id: renamed }, { parkedAt: new Date(), parkCode: 'unknown-job', parkReason: 'No job named "test.record" is declared in this release' });
    await em.nativeUpdate(OutboxEntry, { id: unparsable }, { parkedAt: new Date(), parkCode: 'bad-payload', parkReason: 'The payload of test.record does not parse' });
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: `vt${newId()}` }, testJobs, log);
    try {
      const ids = [renamed!, unparsable!];
      expect(await relayOutbox(orm.em, producer, inAMinute(), log, { graceMs: 0, batchSize: 10, leaseMs: 60_000, ids })).toEqual({ enqueued: 1, parked: 0 });
      expect(await producer.queue('maintenance').getJobState(renamed!)).toBe('waiting');
      expect(await rowOf(renamed!)).toMatchObject({ parkedAt: null, parkCode: null, enqueuedAt: expect.any(Date) });
      expect(await rowOf(unparsable!)).toMatchObject({ parkCode: 'bad-payload', parkedAt: expect.any(Date) });
    } finally {
      await producer.close();
      await orm.em.fork().nativeDelete(OutboxEntry, { id: { $in: [renamed!, unparsable!] } });
    }
  });

  it('holds no row lock while it waits on Redis', async () => {
    // A Redis that accepts connections and never answers: the relay's enqueue waits.
    const sockets = new Set<Socket>();
    let connected!: () => void;
    const waiting = new Promise<void>((resolve) => (connected = resolve));
    const silent = createServer((s) => {
      sockets.add(s);
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const producer = new QueueProducer({ url: `redis://127.0.0.1:${port}`, prefix: `vt${newId()}` }, testJobs, log);
    const [id] = await rows({ name: recordJob.name, payload: { key: key() } });
    try {
      const relaying = relayOutbox(orm.em, producer, new Date(), log, { graceMs: 0, batchSize: 10, leaseMs: 60_000, ids: [id!] });
      relaying.catch(() => undefined);
      await waiting; // the relay is inside its Redis call now
      // Another transaction can take the row's lock at once: the relay claimed it and let go.
      await expect(orm.em.fork().execute('select id from job_outbox where id = ? for update nowait', [id])).resolves.toHaveLength(1);
      await expect(relaying).rejects.toThrow(/did not accept/);
      // Redis failed: the claim is given back for the next pass, nothing marked enqueued.
      expect(await rowOf(id!)).toMatchObject({ enqueuedAt: null, claimedUntil: null, parkedAt: null });
    } finally {
      await producer.close();
      for (const s of sockets) s.destroy();
      silent.close();
      await orm.em.fork().nativeDelete(OutboxEntry, { id });
    }
  });
});
