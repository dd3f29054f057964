import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEntry } from '../domain/entities/outbox-entry.entity.ts';
import type { QueueProducer } from './producer.ts';

export type RelayOptions = { graceMs: number; batchSize: number };

/**
 * Enqueues outbox rows that the fast path left behind (Redis was down, the process died).
 * Rows younger than `graceMs` are left to the fast path. SKIP LOCKED lets any number of
 * relays share the table; the row id as job id makes a double enqueue harmless.
 * Returns how many rows it moved; a Redis failure rolls the batch back for the next pass.
 */
export async function relayOutbox(em: EntityManager, producer: QueueProducer, now: Date, opts: RelayOptions): Promise<number> {
  return em.fork().transactional(async (tx) => {
    const rows = await tx.find(
      OutboxEntry,
      { createdAt: { $lt: new Date(now.getTime() - opts.graceMs) } },
      { orderBy: { createdAt: 'asc' }, limit: opts.batchSize, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    for (const row of rows) await producer.enqueue(row);
    if (rows.length) await tx.nativeDelete(OutboxEntry, { id: { $in: rows.map((r) => r.id) } });
    return rows.length;
  });
}
