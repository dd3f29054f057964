import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Locks that make the content tree's read-check-write steps atomic. Each is a transaction
 * advisory lock taken through `em.execute` on the transaction's own EntityManager, so it
 * runs on the transaction's connection and is released at its commit or rollback.
 * Lock order, to never deadlock: the tree lock before an order lock.
 */

/** Held while a collection changes parent: the "not inside itself" check and the write. */
export async function lockCollectionTree(tx: EntityManager, organizationId: string): Promise<void> {
  await advisoryLock(tx, `content-tree:${organizationId}`);
}

/** Held while a position among one parent's children is chosen and written. */
export async function lockSiblingOrder(tx: EntityManager, organizationId: string, parentId: string | null): Promise<void> {
  await advisoryLock(tx, `content-order:${organizationId}:${parentId ?? ''}`);
}

async function advisoryLock(tx: EntityManager, name: string): Promise<void> {
  // Outside a transaction the lock would be released at once, protecting nothing.
  if (!tx.isInTransaction()) throw new Error(`The ${name.split(':')[0]} lock needs a transaction`);
  await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [name]);
}

/** Deepest chain of collections any walk follows: a bound even on corrupted data. */
export const MAX_COLLECTION_DEPTH = 256;

/**
 * True when `ancestorId` is `collectionId` or one of its ancestors, read from the database
 * (not from entities loaded earlier, which may be stale). UNION drops repeated rows and the
 * depth is bounded, so a cycle already in the data still ends the walk.
 */
export async function isSelfOrAncestor(tx: EntityManager, collectionId: string, ancestorId: string): Promise<boolean> {
  const rows = await tx.execute<Array<{ found: boolean }>>(
    `with recursive up(id, parent_id, depth) as (
       select id, parent_id, 0 from collections where id = ?
       union
       select c.id, c.parent_id, up.depth + 1 from collections c join up on c.id = up.parent_id where up.depth < ?
     )
     select exists(select 1 from up where id = ?) as found`,
    [collectionId, MAX_COLLECTION_DEPTH, ancestorId],
  );
  return rows[0]?.found === true;
}
