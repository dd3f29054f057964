import { ref } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Collection } from '../entities/collection.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { BadRequestError, ConflictError } from '../shared/errors.ts';
import type { ContentAccess } from './content-access.ts';
import { targetCollection } from './load-content.ts';
import { placeItem, type Position } from './ordering.ts';
import { assertNotDeleted } from './spaces.ts';

export type MoveRequest = { parent?: string | null; position?: Position };

/**
 * Moves a space or collection to another parent (null: the organization root) and/or next
 * to a sibling. A move that changes nothing is a 409; a pointer that is not a sibling at
 * the destination is a 400; a collection cannot go inside itself or its descendants.
 */
export async function moveItem(em: EntityManager, access: ContentAccess, item: Space | Collection, request: MoveRequest) {
  const isSpace = item instanceof Space;
  if (isSpace) assertNotDeleted(item);
  const currentParentId = item.parent?.id ?? null;
  let parent: Collection | null = currentParentId ? await em.findOneOrFail(Collection, { id: currentParentId }) : null;
  if (request.parent !== undefined) {
    parent = request.parent === null ? null : await targetCollection(em, access, request.parent, 'parent');
  }
  if (!isSpace && parent) await assertNotInside(em, item, parent);
  const parentId = parent?.id ?? null;
  const sameParent = parentId === currentParentId;
  const placement = await placeItem(
    em,
    item.organization.id,
    parentId,
    { type: isSpace ? 'space' : 'collection', id: item.id },
    request.position,
    sameParent,
  );
  if (sameParent && placement.unchanged) throw new ConflictError('The move would change nothing');
  item.parent = parent ? ref(parent) : null;
  item.position = placement.position;
  if (isSpace && !parent && item.visibility === 'in-collection') item.visibility = 'private';
  await em.flush();
}

async function assertNotInside(em: EntityManager, collection: Collection, target: Collection) {
  let cursor: Collection | null = target;
  const seen = new Set<string>();
  while (cursor && !seen.has(cursor.id)) {
    if (cursor.id === collection.id) throw new BadRequestError('parent: a collection cannot be moved inside itself');
    seen.add(cursor.id);
    cursor = cursor.parent ? await em.findOne(Collection, { id: cursor.parent.id }) : null;
  }
}
