import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { ParkCode } from '../domain/entities/outbox-entry.entity.ts';
import type { JobDefinition } from './define-job.ts';
import type { QueueName } from './queues.ts';

export type QueueConnection = { url: string; prefix: string };

export type Enqueueable = { id: string; queue: string; name: string; payload: Record<string, unknown>; delayMs: number };

/** Finished jobs are kept a day so a re-enqueue of the same outbox row is recognised and dropped. */
const KEEP_COMPLETED = { age: 24 * 3600, count: 50_000 };
const KEEP_FAILED = { age: 14 * 24 * 3600 };
/** BullMQ waits for a connection before adding; a request must not. */
const ENQUEUE_TIMEOUT_MS = 3000;

/**
 * A job that no retry will enqueue: no job of that name is declared in this release (a
 * rename), or its payload no longer parses. Thrown before anything reaches Redis.
 */
export class NotEnqueueableError extends Error {
  override name = 'NotEnqueueableError';
  readonly code: ParkCode;
  constructor(code: ParkCode, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Adds jobs to their queues. Producers fail fast (no offline queue): a Redis outage must
 * not hang a request; the outbox row stays and the relay retries.
 */
export class QueueProducer {
  private readonly queues = new Map<string, Queue>();
  private readonly jobs: Map<string, JobDefinition>;
  private readonly connection: QueueConnection;
  private readonly log: Logger;

  constructor(connection: QueueConnection, jobs: readonly JobDefinition[], log: Logger) {
    this.connection = connection;
    this.jobs = new Map(jobs.map((j) => [j.name, j]));
    this.log = log;
  }

  /** The names of the jobs this producer can enqueue (this release's). */
  get jobNames(): string[] {
    return [...this.jobs.keys()];
  }

  queue(name: QueueName | string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: { url: this.connection.url, enableOfflineQueue: false, maxRetriesPerRequest: 1 },
        prefix: this.connection.prefix,
      });
      queue.on('error', (err) => this.log.warn({ queue: name, err: err.message }, 'queue connection error'));
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** The outbox row id becomes the job id, so adding the same row twice is a no-op. */
  async enqueue(entry: Enqueueable): Promise<void> {
    const def = this.jobs.get(entry.name);
    if (!def) throw new NotEnqueueableError('unknown-job', `No job named "${entry.name}" is declared in this release`);
    const parsed = def.payload.safeParse(entry.payload);
    if (!parsed.success) throw new NotEnqueueableError('bad-payload', `The payload of ${entry.name} does not parse: ${parsed.error.message}`.slice(0, 2000));
    const adding = this.queue(entry.queue).add(entry.name, entry.payload, {
      jobId: entry.id,
      delay: entry.delayMs,
      attempts: def.retry.attempts,
      backoff: def.retry.backoff,
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    });
    // If the add lands after the timeout, the relay's later add of the same id is dropped.
    adding.catch(() => undefined);
    await withTimeout(adding, ENQUEUE_TIMEOUT_MS, `Redis did not accept job ${entry.name} in time`);
  }

  /** Where the job of this id is (`unknown` when Redis does not hold it); bounded like an enqueue. */
  async jobState(queue: string, id: string): Promise<string> {
    const reading = this.queue(queue).getJobState(id);
    reading.catch(() => undefined);
    return withTimeout(reading, ENQUEUE_TIMEOUT_MS, `Redis did not answer for job ${id} in time`);
  }

  /** Closes the queues; a connection that never came up is dropped rather than waited for. */
  async close(): Promise<void> {
    const queues = [...this.queues.values()];
    this.queues.clear();
    await Promise.all(
      queues.map((q) => withTimeout(q.close(), ENQUEUE_TIMEOUT_MS, 'queue close').catch(() => q.disconnect())),
    );
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
