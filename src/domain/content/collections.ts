import type { EntityManager } from '@mikro-orm/postgresql';
import { Collection } from '../entities/collection.entity.ts';
import { Space } from '../entities/space.entity.ts';
import type { Clock } from '../shared/clock.ts';
import type { DefaultLevel } from '../shared/roles.ts';
import type { ContentRoles } from './content-roles.ts';
import { endPosition } from './ordering.ts';
import { subtreeOf } from './transfer.ts';

export async function createCollection(
  em: EntityManager,
  access: ContentRoles,
  input: { title?: string; description?: string; parent?: Collection | null },
): Promise<Collection> {
  const organization = access.org.organization;
  const parent = input.parent ?? null;
  // The key is chosen and written under the siblings' order lock: one transaction.
  return em.transactional(async (tx) =>
    tx.create(Collection, {
      organization,
      parent,
      title: input.title ?? 'Untitled',
      description: input.description ?? null,
      position: await endPosition(tx, organization.id, parent?.id ?? null),
    }),
  );
}

export async function updateCollection(
  em: EntityManager,
  collection: Collection,
  patch: { title?: string; description?: string | null; defaultLevel?: DefaultLevel },
) {
  if (patch.title !== undefined) collection.title = patch.title;
  if (patch.description !== undefined) collection.description = patch.description;
  if (patch.defaultLevel !== undefined) collection.defaultLevel = patch.defaultLevel;
  await em.flush();
}

/**
 * Deletes a collection with its sub-collections; every space inside goes to the bin
 * (restorable for the retention window, at the organization root since its collection is
 * gone). One transaction: nothing is left pointing at a parent that no longer exists.
 */
export async function deleteCollection(em: EntityManager, collection: Collection, clock: Clock): Promise<void> {
  await em.transactional(async (tx) => {
    const subtree = await subtreeOf(tx, collection);
    await tx.nativeUpdate(Space, { id: { $in: subtree.spaces }, deletedAt: null }, { deletedAt: clock.now() });
    // Sub-collections cascade in the database; spaces' parent is set to null there.
    await tx.nativeDelete(Collection, { id: collection.id });
  });
}
