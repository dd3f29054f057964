import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../domain/shared/clock.ts';
import type { JobContext, JobDefinition, JobServices } from '../jobs/define-job.ts';
import { JobOutbox } from '../jobs/outbox.ts';
import { QueueProducer, type QueueConnection } from '../jobs/producer.ts';
import type { QueueName } from '../jobs/queues.ts';
import { relayOutbox } from '../jobs/relay.ts';
import { closeParsePool } from '../domain/openapi/parse-pool.ts';
import type { Orm } from '../domain/orm.ts';
import { RELAY_BATCH_SIZE, RELAY_GRACE_MS, RELAY_INTERVAL_MS, workerLockSettings } from './settings.ts';

export type WorkerOptions = {
  orm: Orm;
  log: Logger;
  connection: QueueConnection;
  jobs: readonly JobDefinition[];
  queues: readonly QueueName[];
  concurrency: Partial<Record<QueueName, number>> & { default: number };
  lockMs: number;
  services: JobServices;
  clock?: Clock;
  relayIntervalMs?: number;
  relayGraceMs?: number;
};

export type RunningWorkers = { workers: Worker[]; producer: QueueProducer; relayOnce(): Promise<number>; close(): Promise<void> };

/** Starts one BullMQ worker per queue and the outbox relay. `close` lets active jobs finish. */
export function startWorkers(opts: WorkerOptions): RunningWorkers {
  const clock = opts.clock ?? systemClock;
  const producer = new QueueProducer(opts.connection, opts.jobs, opts.log);
  const byName = new Map(opts.jobs.map((j) => [j.name, j]));

  const workers = opts.queues.map((queue) => {
    const worker = new Worker(queue, (job: Job) => runJob(job, byName, producer, opts, clock), {
      connection: { url: opts.connection.url, maxRetriesPerRequest: null },
      prefix: opts.connection.prefix,
      concurrency: opts.concurrency[queue] ?? opts.concurrency.default,
      ...workerLockSettings(opts.lockMs),
    });
    worker.on('error', (err) => opts.log.error({ queue, err: err.message }, 'worker error'));
    worker.on('failed', (job, err) => opts.log.warn({ queue, job: job?.name, id: job?.id, err: err.message }, 'job failed'));
    return worker;
  });

  const relayOnce = () =>
    relayOutbox(opts.orm.em, producer, clock.now(), { graceMs: opts.relayGraceMs ?? RELAY_GRACE_MS, batchSize: RELAY_BATCH_SIZE });
  let relaying = false;
  const timer = setInterval(async () => {
    if (relaying) return;
    relaying = true;
    try {
      const moved = await relayOnce();
      if (moved) opts.log.info({ moved }, 'outbox relay enqueued left-behind jobs');
    } catch (err) {
      opts.log.warn({ err: (err as Error).message }, 'outbox relay pass failed; will retry');
    } finally {
      relaying = false;
    }
  }, opts.relayIntervalMs ?? RELAY_INTERVAL_MS);

  return {
    workers,
    producer,
    relayOnce,
    async close() {
      clearInterval(timer);
      await Promise.all(workers.map((w) => w.close()));
      await producer.close();
      // Parsing threads (OpenAPI) stop with the workers that use them.
      await closeParsePool();
    },
  };
}

async function runJob(job: Job, byName: Map<string, JobDefinition>, producer: QueueProducer, opts: WorkerOptions, clock: Clock) {
  const def = byName.get(job.name);
  if (!def) throw new UnrecoverableError(`No job is declared with the name "${job.name}"`);
  const parsed = def.payload.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`Invalid payload for ${job.name}: ${parsed.error.message}`);
  const log = opts.log.child({ job: job.name, jobId: job.id, attempt: job.attemptsMade + 1 });
  const em = opts.orm.em.fork();
  const outbox = new JobOutbox(producer, log);
  const ctx: JobContext = {
    em,
    log,
    clock,
    outbox,
    attempt: job.attemptsMade + 1,
    services: opts.services,
    reportProgress: (progress) => job.updateProgress(progress),
  };
  try {
    const result = await def.handle(parsed.data, ctx);
    await outbox.publish(em);
    return result ?? null;
  } catch (err) {
    const final = err instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (final && def.onFinalFailure) {
      await def.onFinalFailure(parsed.data, err as Error, { em: opts.orm.em.fork(), log, clock, attempt: ctx.attempt }).catch((hookErr) =>
        log.error({ err: hookErr }, 'final-failure hook failed'),
      );
    }
    throw err;
  }
}
