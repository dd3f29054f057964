import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParkCode } from '../domain/entities/outbox-entry.entity.ts';
import type { Logger } from 'pino';
import { markEnqueued, parkRow, releaseClaims } from './outbox-store.ts';
import { NotEnqueueableError, type Enqueueable, type QueueProducer } from './producer.ts';

export type Dispatched = {
  enqueued: string[];
  parked: Array<{ id: string; name: string; code: ParkCode; reason: string }>;
  /** Rows not tried because Redis stopped answering (`error`). */
  left: string[];
  error?: Error;
};

/**
 * Enqueues rows one by one. A row that can never be enqueued is parked and the next one
 * tried: it must not block the rows behind it. A Redis failure stops the pass instead, as
 * every row behind would wait on it too.
 */
export async function dispatchRows(producer: QueueProducer, rows: readonly Enqueueable[]): Promise<Dispatched> {
  const out: Dispatched = { enqueued: [], parked: [], left: [] };
  for (const [i, row] of rows.entries()) {
    try {
      await producer.enqueue(row);
      out.enqueued.push(row.id);
    } catch (err) {
      if (err instanceof NotEnqueueableError) {
        out.parked.push({ id: row.id, name: row.name, code: err.code, reason: err.message });
        continue;
      }
      out.left = rows.slice(i).map((r) => r.id);
      out.error = err as Error;
      break;
    }
  }
  return out;
}

/** Writes what a dispatch did back to the rows. */
export async function recordDispatch(em: EntityManager, out: Dispatched, now: Date, log: Logger): Promise<void> {
  await markEnqueued(em, out.enqueued, now);
  for (const p of out.parked) {
    log.error({ id: p.id, job: p.name, reason: p.reason }, 'outbox row parked: it cannot be enqueued (bin/vellum outbox:parked)');
    await parkRow(em, p.id, p.code, p.reason, now);
  }
  await releaseClaims(em, out.left);
}
