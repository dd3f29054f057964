import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../domain/shared/clock.ts';
import type { JobContext, JobDefinition, JobServices } from '../jobs/define-job.ts';
import { JobOutbox } from '../jobs/outbox.ts';
import { QueueProducer, type QueueConnection } from '../jobs/producer.ts';
import type { QueueName } from '../jobs/queues.ts';
import { finishRow } from '../jobs/outbox-store.ts';
import type { ReconcileResult } from '../jobs/reconcile.ts';
import type { RelayResult } from '../jobs/relay.ts';
import { closeParsePool } from '../domain/openapi/parse-pool.ts';
import { closeClusterPool } from '../domain/conversations/cluster-pool.ts';
import type { Orm } from '../domain/orm.ts';
import { FinalFailures } from './final-failure.ts';
import { InFlightJobs } from './in-flight.ts';
import { every } from './periodic.ts';
import { startOutboxPasses, type OutboxPassTimes, type PassScope } from './outbox-passes.ts';
import {
  RELEASE_MARGIN_MS,
  SWEEP_BATCH_SIZE,
  SWEEP_GRACE_MS,
  SWEEP_INTERVAL_MS,
  UNKNOWN_JOB_RETRY,
  workerLockSettings,
} from './settings.ts';
import { failAttemptIfStalled } from './stall-attempts.ts';
import { sweepStranded } from './stranded-sweep.ts';

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
  sweepIntervalMs?: number;
  sweepGraceMs?: number;
} & OutboxPassTimes;

/** `drainUntil`: when to stop waiting for active jobs and hand them back (epoch ms); no limit when absent. */
export type CloseOptions = { drainUntil?: number };

export type RunningWorkers = {
  workers: Worker[];
  producer: QueueProducer;
  /** One relay pass: outbox rows not yet enqueued. */
  relayOnce(scope?: PassScope): Promise<RelayResult>;
  /** One reconciler pass: enqueued rows whose job Redis no longer holds. */
  reconcileOnce(scope?: PassScope): Promise<ReconcileResult>;
  /** One pass of the stranded-record sweep, as if it were `now`. */
  sweepOnce(now?: Date): Promise<number>;
  close(opts?: CloseOptions): Promise<void>;
};

type Running = { byName: Map<string, JobDefinition>; producer: QueueProducer; inFlight: InFlightJobs; opts: WorkerOptions; clock: Clock };

/** Starts one BullMQ worker per queue, the outbox relay and reconciler, and the stranded-record sweep. */
export function startWorkers(opts: WorkerOptions): RunningWorkers {
  const clock = opts.clock ?? systemClock;
  const producer = new QueueProducer(opts.connection, opts.jobs, opts.log);
  const byName = new Map(opts.jobs.map((j) => [j.name, j]));
  const inFlight = new InFlightJobs();
  const finalFailures = new FinalFailures(byName, opts.orm, opts.log, clock);
  const running: Running = { byName, producer, inFlight, opts, clock };

  const workers = opts.queues.map((queue) => {
    const worker = new Worker(queue, (job: Job, token?: string) => runJob(job, token!, running), {
      connection: { url: opts.connection.url, maxRetriesPerRequest: null },
      prefix: opts.connection.prefix,
      concurrency: opts.concurrency[queue] ?? opts.concurrency.default,
      ...workerLockSettings(opts.lockMs),
    });
    worker.on('error', (err) => opts.log.error({ queue, err: err.message }, 'worker error'));
    worker.on('failed', finalFailures.onFailed);
    return worker;
  });

  const outboxPasses = startOutboxPasses(opts.orm, producer, clock, opts.log, opts);

  const sweepOnce = (now?: Date) =>
    sweepStranded(opts.orm.em, producer, opts.jobs, now ? { now: () => now } : clock, opts.log, {
      graceMs: opts.sweepGraceMs ?? SWEEP_GRACE_MS,
      batchSize: SWEEP_BATCH_SIZE,
    });
  const sweeper = every(opts.sweepIntervalMs ?? SWEEP_INTERVAL_MS, async () => {
    const ended = await sweepOnce();
    if (ended) opts.log.warn({ ended }, 'stranded-record sweep ended records whose job was gone');
  }, opts.log, 'stranded-record sweep');

  return {
    workers,
    producer,
    relayOnce: outboxPasses.relayOnce,
    reconcileOnce: outboxPasses.reconcileOnce,
    sweepOnce,
    async close({ drainUntil }: CloseOptions = {}) {
      await Promise.all([outboxPasses.stop(), sweeper.stop()]);
      // Stop taking jobs and let the active ones finish, within the drain budget; then hand
      // back what is still running, so another worker takes it now rather than after a stall.
      const closing = Promise.all(workers.map((w) => w.close()));
      if (drainUntil !== undefined && !(await settlesBy(closing, drainUntil - RELEASE_MARGIN_MS))) {
        const released = await inFlight.releaseAll(opts.log);
        opts.log.warn({ released }, 'drain budget spent: running jobs handed back to the queue');
      }
      await closing;
      await finalFailures.settled();
      await producer.close();
      // Parsing (OpenAPI) and clustering threads stop with the workers that use them.
      await closeParsePool();
      await closeClusterPool();
    },
  };
}

async function runJob(job: Job, token: string, { byName, producer, inFlight, opts, clock }: Running) {
  const def = byName.get(job.name);
  if (!def) return retryUnknownLater(job, token, opts.log);
  const parsed = def.payload.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`Invalid payload for ${job.name}: ${parsed.error.message}`);
  await failAttemptIfStalled(job, producer.queue(job.queueName));
  const log = opts.log.child({ job: job.name, jobId: job.id, attempt: job.attemptsMade + 1 });
  const em = opts.orm.em.fork();
  const outbox = new JobOutbox(producer, log);
  const flight = inFlight.start(job, token);
  const ctx: JobContext = {
    em,
    log,
    clock,
    outbox,
    attempt: job.attemptsMade + 1,
    services: opts.services,
    reportProgress: (progress) => job.updateProgress(progress),
    signal: flight.signal,
    finishIn: (tx) => finishRow(tx, job.id),
  };
  // Failures are counted by BullMQ; a final one runs the job's hook from the `failed` event.
  try {
    const result = await flight.run(() => def.handle(parsed.data, ctx));
    await outbox.publish(em);
    // The job is done: its outbox row, the durable record of it, goes. Failing that is no
    // reason to run the job again: the reconciler removes rows whose job completed.
    await finishRow(em, job.id).catch((err) => log.warn({ err: (err as Error).message }, 'outbox row not removed; the reconciler will'));
    return result ?? null;
  } finally {
    inFlight.finish(flight);
  }
}

/**
 * A job this worker does not know (a newer release recorded it during a rolling deploy):
 * back to the queue, delayed and without using an attempt, for a worker that knows it.
 */
async function retryUnknownLater(job: Job, token: string, log: Logger): Promise<never> {
  const delay = Math.min(UNKNOWN_JOB_RETRY.firstMs * 2 ** Math.max(0, job.attemptsStarted - 1), UNKNOWN_JOB_RETRY.maxMs);
  await job.moveToDelayed(Date.now() + delay, token);
  log.warn({ job: job.name, id: job.id, retryInMs: delay }, 'no job is declared with this name here; left for a worker that knows it');
  throw new DelayedError();
}

/** Whether `promise` settles before `deadline` (epoch ms). */
async function settlesBy(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}
