import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { OutboxEntry } from '../domain/entities/outbox-entry.entity.ts';
import { newId } from '../domain/shared/ids.ts';
import type { JobDefinition } from './define-job.ts';
import { dispatchRows, recordDispatch } from './dispatch.ts';
import type { QueueProducer } from './producer.ts';

/**
 * Records jobs in the outbox table with the change that needs them, and publishes them
 * once that change is committed (the fast path). Whatever publishing misses, the relay
 * in the workers picks up, and what Redis loses the reconciler enqueues again, so
 * accepted work is never lost.
 */
export class JobOutbox {
  private pending: string[] = [];
  private readonly producer: QueueProducer;
  private readonly log: Logger;

  constructor(producer: QueueProducer, log: Logger) {
    this.producer = producer;
    this.log = log;
  }

  /** Validates the payload now, so a bad one fails the request rather than the job. Flushed with `em`. */
  add<S extends z.ZodType>(em: EntityManager, job: JobDefinition<S>, payload: z.input<S>, opts: { delayMs?: number } = {}): OutboxEntry {
    const entry = recordJob(em, job, payload, opts);
    this.pending.push(entry.id);
    return entry;
  }

  get size(): number {
    return this.pending.length;
  }

  /**
   * After commit: enqueue the rows that really were committed and mark them enqueued. The
   * rows stay, as the record of the work, until their jobs have finished.
   */
  async publish(em: EntityManager): Promise<void> {
    const ids = this.pending.splice(0);
    if (ids.length === 0) return;
    const fresh = em.fork();
    const committed = await fresh.find(OutboxEntry, { id: { $in: ids } });
    const out = await dispatchRows(this.producer, committed);
    // Redis is not answering: the rest is left to the relay rather than waited on.
    if (out.error) this.log.warn({ err: out.error.message, left: out.left.length }, 'enqueue deferred to the outbox relay');
    await recordDispatch(fresh, out, new Date(), this.log);
  }
}

/**
 * Records a job in the outbox without publishing it after the commit: the relay enqueues
 * it within seconds. For code that holds no JobOutbox (final-failure hooks).
 */
export function recordJob<S extends z.ZodType>(em: EntityManager, job: JobDefinition<S>, payload: z.input<S>, opts: { delayMs?: number } = {}): OutboxEntry {
  const data = job.payload.parse(payload) as Record<string, unknown>;
  return em.create(OutboxEntry, { id: newId(), queue: job.queue, name: job.name, payload: data, delayMs: opts.delayMs ?? 0 });
}
