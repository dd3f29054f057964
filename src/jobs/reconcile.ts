import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { dispatchRows, recordDispatch, type Dispatched } from './dispatch.ts';
import { claimRows, deleteRows, type OutboxRow } from './outbox-store.ts';
import type { QueueProducer } from './producer.ts';

export type ReconcileOptions = { graceMs: number; batchSize: number; leaseMs: number; ids?: readonly string[] };
export type ReconcileResult = { requeued: number; finished: number; parked: number };

/**
 * Compares enqueued outbox rows with what Redis holds, so nothing depends on Redis
 * persistence. Rows last seen in their queue more than `graceMs` ago are claimed (oldest
 * first) and their job looked up by id:
 * - gone (Redis restarted empty, or lost it): enqueued again — the row id is the job id,
 *   so this is harmless when another reconciler did it too;
 * - completed or failed for good: the worker died before removing the row; it goes now;
 * - still queued or running: the row is marked seen, so the next passes look at others.
 */
export async function reconcileOutbox(em: EntityManager, producer: QueueProducer, now: Date, log: Logger, opts: ReconcileOptions): Promise<ReconcileResult> {
  const fork = em.fork();
  const rows = await claimRows(fork, 'reconcile', { before: new Date(now.getTime() - opts.graceMs), now, leaseMs: opts.leaseMs, limit: opts.batchSize, ids: opts.ids });
  const seen: string[] = [];
  const finished: string[] = [];
  const missing: OutboxRow[] = [];
  let out: Dispatched = { enqueued: [], parked: [], left: [] };
  for (const [i, row] of rows.entries()) {
    let state: string;
    try {
      state = await producer.jobState(row.queue, row.id);
    } catch (err) {
      out = { ...out, left: [...missing, ...rows.slice(i)].map((r) => r.id), error: err as Error };
      break;
    }
    if (state === 'unknown') missing.push(row);
    else if (state === 'completed' || state === 'failed') finished.push(row.id);
    else seen.push(row.id);
  }
  if (!out.error) out = await dispatchRows(producer, missing);
  if (out.enqueued.length) log.warn({ jobs: out.enqueued.length }, 'outbox reconciler enqueued again jobs their queue no longer held');
  await recordDispatch(fork, { ...out, enqueued: [...out.enqueued, ...seen] }, now, log);
  await deleteRows(fork, finished);
  if (out.error) throw out.error;
  return { requeued: out.enqueued.length, finished: finished.length, parked: out.parked.length };
}
