import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { dispatchRows, recordDispatch } from './dispatch.ts';
import { claimRows, unparkDeclared } from './outbox-store.ts';
import type { QueueProducer } from './producer.ts';

export type RelayOptions = { graceMs: number; batchSize: number; leaseMs: number; ids?: readonly string[] };
export type RelayResult = { enqueued: number; parked: number };

/**
 * Enqueues outbox rows that the fast path left behind (Redis was down, the process died).
 * Rows younger than `graceMs` are left to the fast path. Rows are claimed first (a short
 * lease, no lock held while Redis is called), so any number of relays share the table; the
 * row id as job id makes a double enqueue harmless. A Redis failure ends the pass with the
 * rest of the batch released for the next one, and is thrown. Rows parked for a job name
 * this release declares are taken up again first (see unparkDeclared).
 */
export async function relayOutbox(em: EntityManager, producer: QueueProducer, now: Date, log: Logger, opts: RelayOptions): Promise<RelayResult> {
  const fork = em.fork();
  const unparked = await unparkDeclared(fork, producer.jobNames, opts.ids);
  if (unparked) log.info({ rows: unparked }, 'outbox rows parked for a job name this release declares go back to the relay');
  const rows = await claimRows(fork, 'relay', { before: new Date(now.getTime() - opts.graceMs), now, leaseMs: opts.leaseMs, limit: opts.batchSize, ids: opts.ids });
  const out = await dispatchRows(producer, rows);
  await recordDispatch(fork, out, now, log);
  if (out.error) throw out.error;
  return { enqueued: out.enqueued.length, parked: out.parked.length };
}
