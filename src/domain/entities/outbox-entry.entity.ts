import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';

/**
 * A job promised by a committed transaction (DESIGN.md "Jobs"). Written in the same
 * transaction as the change that needs it; deleted once the job is in its queue. The id
 * is the queue's job id, so enqueueing the same row twice runs the job once.
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
  },
  // The relay scans the oldest rows first.
  indexes: [{ properties: ['createdAt'] }],
});

export class OutboxEntry extends OutboxEntrySchema.class {}
OutboxEntrySchema.setClass(OutboxEntry);
