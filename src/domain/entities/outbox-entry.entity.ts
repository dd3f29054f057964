import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';

export type ParkCode = 'unknown-job' | 'bad-payload';

/**
 * A job promised by a committed transaction (no lost work), and its durable record until
 * the job has finished: written in the same transaction as the change that needs it,
 * marked `enqueuedAt` once in its queue, deleted when the job completed or failed for
 * good. The id is the queue's job id, so enqueueing the same row twice runs the job once,
 * and a job Redis no longer holds is enqueued again from its row (jobs/reconcile.ts).
 */
export const OutboxEntrySchema = defineEntity({
  name: 'OutboxEntry',
  tableName: 'job_outbox',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    queue: p.string().length(64),
    name: p.string().length(128),
    payload: p.json<Record<string, unknown>>(),
    /** Milliseconds the job waits in the queue before it may run. */
    delayMs: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** When the job was last known to be in its queue: set on enqueue, refreshed by the reconciler. */
    enqueuedAt: p.datetime().nullable(),
    /** A relay or reconciler handles the row until then; nobody else touches it meanwhile. */
    claimedUntil: p.datetime().nullable(),
    /** Set when the row cannot be enqueued (unknown job name, payload that no longer parses). */
    parkedAt: p.datetime().nullable(),
    /** Why, for code: a row parked for a job name a later release declares is taken up by that release's relay. */
    parkCode: p.string().length(32).$type<ParkCode>().nullable(),
    parkReason: p.string().length(2000).nullable(),
  },
  // Partial indexes, one per scan (see Migration20261123120000_outbox_ledger).
  indexes: [
    { name: 'job_outbox_relay_index', expression: 'create index "job_outbox_relay_index" on "job_outbox" ("created_at") where "enqueued_at" is null and "parked_at" is null' },
    { name: 'job_outbox_reconcile_index', expression: 'create index "job_outbox_reconcile_index" on "job_outbox" ("enqueued_at") where "enqueued_at" is not null and "parked_at" is null' },
    { name: 'job_outbox_parked_index', expression: 'create index "job_outbox_parked_index" on "job_outbox" ("parked_at") where "parked_at" is not null' },
  ],
});

export class OutboxEntry extends OutboxEntrySchema.class {}
OutboxEntrySchema.setClass(OutboxEntry);
