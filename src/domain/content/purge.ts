import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Space } from '../entities/space.entity.ts';
import type { Clock } from '../shared/clock.ts';

export type PurgeResult = { purged: number; batches: number };

/**
 * Permanently deletes spaces that have been in the bin longer than `retentionMs`, one
 * bounded batch per transaction. Everything a space owns (revisions, grants, and what
 * later families add) hangs off it with ON DELETE CASCADE, so each space goes in full or
 * not at all: a worker killed mid-purge leaves committed batches done and the rest for
 * the retry. SKIP LOCKED lets two purges run side by side without waiting on each other.
 */
export async function purgeDeletedSpaces(
  em: EntityManager,
  clock: Clock,
  opts: { retentionMs: number; batchSize: number; onBatch?: (purged: number) => Promise<void> },
): Promise<PurgeResult> {
  const cutoff = new Date(clock.now().getTime() - opts.retentionMs);
  let purged = 0;
  let batches = 0;
  for (;;) {
    const count = await em.fork().transactional(async (tx) => {
      const due = await tx.find(
        Space,
        { deletedAt: { $lt: cutoff } },
        { fields: ['id'], orderBy: { deletedAt: 'asc' }, limit: opts.batchSize, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      if (due.length === 0) return 0;
      return tx.nativeDelete(Space, { id: { $in: due.map((s) => s.id) } });
    });
    if (count === 0) return { purged, batches };
    purged += count;
    batches += 1;
    await opts.onBatch?.(purged);
  }
}
