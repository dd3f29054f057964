import type { EntityManager } from '@mikro-orm/postgresql';
import { generateKeyBetween } from 'fractional-indexing';
import { BadRequestError } from '../shared/errors.ts';
import { lockSiblingOrder } from './tree-locks.ts';

/** A space or collection pointer, as move bodies give them. */
export type ItemRef = { type: 'space'; id: string } | { type: 'collection'; id: string };
export type Position = { before?: ItemRef; after?: ItemRef };

type Sibling = { type: 'space' | 'collection'; id: string; position: string };

/**
 * Spaces and collections share one order among the siblings of a parent (null: the root).
 * Keys are fractional (fractional-indexing): putting an item between two others writes
 * only that item, never renumbers its siblings. Spaces in the bin are not siblings.
 *
 * Choosing a key reads the siblings and writes one: two writers at once would pick the same
 * key. So `endPosition` and `placeItem` run inside the caller's transaction, take the
 * parent's order lock first, and read the siblings from the database (never from entities
 * loaded before the lock); the lock is held until the new key is committed.
 */
export async function siblingsOf(tx: EntityManager, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const rows = await tx.execute<Array<{ type: 'space' | 'collection'; id: string; position: string }>>(
    `select 'space' as type, id, position from spaces
       where organization_id = ? and parent_id is not distinct from ? and deleted_at is null
     union all
     select 'collection' as type, id, position from collections
       where organization_id = ? and parent_id is not distinct from ?`,
    [organizationId, parentId, organizationId, parentId],
  );
  const all: Sibling[] = rows.map((r) => ({ type: r.type, id: r.id, position: r.position }));
  return all.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
}

/** A key after every current sibling: where new items go. Needs a transaction (see above). */
export async function endPosition(tx: EntityManager, organizationId: string, parentId: string | null): Promise<string> {
  await lockSiblingOrder(tx, organizationId, parentId);
  const siblings = await siblingsOf(tx, organizationId, parentId);
  return generateKeyBetween(siblings.at(-1)?.position ?? null, null);
}

export type Placement = { position: string; unchanged: boolean };

/**
 * Where `item` lands among `parentId`'s children: before/after a sibling, or last.
 * `unchanged` tells a move that would leave the item where it is (a no-op).
 */
export async function placeItem(
  em: EntityManager,
  organizationId: string,
  parentId: string | null,
  item: { type: 'space' | 'collection'; id: string },
  position: Position | undefined,
  sameParent: boolean,
): Promise<Placement> {
  await lockSiblingOrder(em, organizationId, parentId);
  const all = await siblingsOf(em, organizationId, parentId);
  const others = all.filter((s) => !(s.type === item.type && s.id === item.id));
  const currentIndex = all.findIndex((s) => s.type === item.type && s.id === item.id);
  const pointer = position?.after ?? position?.before;
  if (!pointer) {
    if (sameParent) return { position: all[currentIndex]?.position ?? '', unchanged: true };
    return { position: generateKeyBetween(others.at(-1)?.position ?? null, null), unchanged: false };
  }
  if (position?.after && position?.before) throw new BadRequestError('position: give either before or after, not both');
  if (pointer.type === item.type && pointer.id === item.id) throw new BadRequestError('position: an item cannot be placed next to itself');
  const index = others.findIndex((s) => s.type === pointer.type && s.id === pointer.id);
  if (index < 0) throw new BadRequestError(`position: ${pointer.type} "${pointer.id}" is not among the destination's items`);
  const [lo, hi] = position?.after ? [others[index], others[index + 1]] : [others[index - 1], others[index]];
  if (sameParent && currentIndex >= 0) {
    const neighbours = [all[currentIndex - 1], all[currentIndex + 1]];
    if (neighbours[0]?.id === lo?.id && neighbours[1]?.id === hi?.id) return { position: all[currentIndex]!.position, unchanged: true };
  }
  return { position: between(lo?.position ?? null, hi?.position ?? null), unchanged: false };
}

/**
 * Two items created at the same instant can share a key, leaving no room between them;
 * the moved item then goes just after both, which keeps every key valid.
 */
function between(lo: string | null, hi: string | null): string {
  if (lo !== null && hi !== null && lo >= hi) return generateKeyBetween(lo, null);
  return generateKeyBetween(lo, hi);
}
