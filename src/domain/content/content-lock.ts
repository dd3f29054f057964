import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Content is shared by hash, so a writer may reuse a node the sweep is about to find
 * unreachable. Writers hold this lock shared for their transaction; the sweep holds it
 * exclusively, so the two never overlap.
 */
const CONTENT_LOCK = 7_391_204_556;

export async function holdContentWriteLock(em: EntityManager): Promise<void> {
  await em.execute('select pg_advisory_xact_lock_shared(?)', [CONTENT_LOCK]);
}

export async function holdContentSweepLock(em: EntityManager): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(?)', [CONTENT_LOCK]);
}
