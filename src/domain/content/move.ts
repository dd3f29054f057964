import { ref } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Collection } from '../entities/collection.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { BadRequestError, ConflictError } from '../shared/errors.ts';
import type { ContentRoles } from './content-roles.ts';
import { targetCollection } from './load-content.ts';
import { placeItem, type Position } from './ordering.ts';
import { assertNotDeleted } from './spaces.ts';
import { isSelfOrAncestor, lockCollectionTree } from './tree-locks.ts';

export type MoveRequest = { parent?: string | null; position?: Position };

/**
 * Moves a space or collection to another parent (null: the organization root) and/or next
 * to a sibling. A move that changes nothing is a 409; a pointer that is not a sibling at
 * the destination is a 400; a collection cannot go inside itself or its descendants.
 *
 * One transaction: a collection's "not inside itself" check and its new parent are decided
 * under the organization's tree lock (two opposite moves at once would otherwise both pass
 * and make a cycle), and its position under the destination's order lock.
 */
export async function moveItem(em: EntityManager, access: ContentRoles, item: Space | Collection, request: MoveRequest) {
  const isSpace = item instanceof Space;
  if (isSpace) assertNotDeleted(item);
  const currentParentId = item.parent?.id ?? null;
  let parent: Collection | null = currentParentId ? await em.findOneOrFail(Collection, { id: currentParentId }) : null;
  if (request.parent !== undefined) {
    parent = request.parent === null ? null : await targetCollection(em, access, request.parent, 'parent');
  }
  const organizationId = item.organization.id;
  await em.transactional(async (tx) => {
    if (!isSpace && parent) {
      await lockCollectionTree(tx, organizationId);
      if (await isSelfOrAncestor(tx, parent.id, item.id)) throw new BadRequestError('parent: a collection cannot be moved inside itself');
    }
    const parentId = parent?.id ?? null;
    const sameParent = parentId === currentParentId;
    const placement = await placeItem(tx, organizationId, parentId, { type: isSpace ? 'space' : 'collection', id: item.id }, request.position, sameParent);
    if (sameParent && placement.unchanged) throw new ConflictError('The move would change nothing');
    item.parent = parent ? ref(parent) : null;
    item.position = placement.position;
    if (isSpace && !parent && item.visibility === 'in-collection') item.visibility = 'private';
  });
}
