// End-to-end throughput of a no-op job through the transactional outbox and a worker,
// beside raw BullMQ add+process of the same number of jobs, in the same run.
// Usage: bash scripts/bench.sh outbox-throughput [jobs] [concurrency]
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { z } from 'zod';
import { openOrm } from '../src/domain/orm.ts';
import { newId } from '../src/domain/shared/ids.ts';
import { defineJob } from '../src/jobs/define-job.ts';
import { JobOutbox } from '../src/jobs/outbox.ts';
import { QueueProducer } from '../src/jobs/producer.ts';
import { startWorkers } from '../src/workers/worker.ts';
import { benchDatabaseUrl, rate, redisUrl } from './bench-env.ts';
import { LocalDiskStore } from '../src/domain/storage/local-disk-store.ts';
import { guardedHttpFrom } from '../src/domain/net/guarded-http.ts';
import { loadConfig } from '../config/env.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const JOBS = Number(process.argv[2] ?? 2000);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const log = pino({ level: 'silent' });

const noop = defineJob({
  name: 'bench.noop',
  queue: 'maintenance',
  payload: z.object({ n: z.number() }),
  retry: { attempts: 1, backoff: { type: 'fixed', delay: 0 } },
  async handle() {
    return null;
  },
});

function completion(workers: Worker[], total: number): Promise<void> {
  let done = 0;
  return new Promise((resolve) => {
    for (const w of workers) w.on('completed', () => ++done === total && resolve());
  });
}

async function viaOutbox(databaseUrl: string): Promise<number> {
  const orm = await openOrm({ databaseUrl, poolMax: 10 });
  const prefix = `vb${newId()}`;
  const producer = new QueueProducer({ url: redisUrl, prefix }, [noop], log);
  const running = startWorkers({
    orm,
    log,
    connection: { url: redisUrl, prefix },
    jobs: [noop],
    queues: ['maintenance'],
    concurrency: { default: CONCURRENCY },
    lockMs: 30_000,
    relayIntervalMs: 3_600_000,
    reconcileIntervalMs: 3_600_000,
    // A no-op job reaches nothing outside the database.
    services: { blobs: new LocalDiskStore(join(tmpdir(), 'vellum-bench')), http: guardedHttpFrom(loadConfig()) },
  });
  await Promise.all(running.workers.map((w) => w.waitUntilReady()));
  const finished = completion(running.workers, JOBS);
  const started = performance.now();
  // One transaction per job, as one API request recording one job would do.
  const senders = Array.from({ length: 8 }, async (_, lane) => {
    for (let n = lane; n < JOBS; n += 8) {
      const em = orm.em.fork();
      const outbox = new JobOutbox(producer, log);
      await em.transactional(async (tx) => {
        outbox.add(tx, noop, { n });
      });
      await outbox.publish(em);
    }
  });
  await Promise.all(senders);
  await finished;
  const ms = performance.now() - started;
  await running.close();
  await producer.close();
  await orm.close(true);
  return ms;
}

async function rawBullmq(): Promise<number> {
  const prefix = `vb${newId()}`;
  const queue = new Queue('maintenance', { connection: { url: redisUrl }, prefix });
  const worker = new Worker('maintenance', async () => null, { connection: { url: redisUrl, maxRetriesPerRequest: null }, prefix, concurrency: CONCURRENCY });
  await worker.waitUntilReady();
  const finished = completion([worker], JOBS);
  const started = performance.now();
  const senders = Array.from({ length: 8 }, async (_, lane) => {
    for (let n = lane; n < JOBS; n += 8) await queue.add('bench.noop', { n }, { jobId: newId(), removeOnComplete: { age: 3600 } });
  });
  await Promise.all(senders);
  await finished;
  const ms = performance.now() - started;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return ms;
}

const databaseUrl = await benchDatabaseUrl();
await rawBullmq(); // warm-up: connections, Lua scripts, JIT
const raw = await rawBullmq();
const outbox = await viaOutbox(databaseUrl);
console.log(`outbox throughput: ${JOBS} no-op jobs, worker concurrency ${CONCURRENCY}, 8 concurrent producers`);
console.log(`  raw BullMQ add+process:        ${raw.toFixed(0)} ms  ${rate(JOBS, raw)}`);
console.log(`  outbox (tx + enqueue + mark, worker deletes): ${outbox.toFixed(0)} ms  ${rate(JOBS, outbox)}`);
console.log(`  ratio outbox/raw:              ${(outbox / raw).toFixed(2)}x the time`);
process.exit(0);
