import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor.ts';
import { Collection } from '../entities/collection.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { loadOrgAccess } from '../organizations/org-access.ts';
import { authorize } from '../policy/authorize.ts';
import { BadRequestError, notFound } from '../shared/errors.ts';
import { ContentAccess } from './content-access.ts';
import { collectionRules, spaceRules, type ContentView } from './content.policy.ts';

export type LoadedSpace = { space: Space; access: ContentAccess; view: ContentView };
export type LoadedCollection = { collection: Collection; access: ContentAccess; view: ContentView };

export function spaceView(access: ContentAccess, space: Space): ContentView {
  return { role: access.roleForSpace(space), locked: space.editMode === 'locked', deleted: space.deletedAt !== null };
}

/**
 * A space the caller may at least read. Not a member of its organization, or no read
 * access: the same 404 as for a space that does not exist.
 */
export async function loadSpace(em: EntityManager, actor: Actor, spaceId: string): Promise<LoadedSpace> {
  const space = await em.findOne(Space, { id: spaceId });
  if (!space) throw notFound('Space');
  const org = await loadOrgAccess(em, actor, space.organization.id).catch(() => {
    throw notFound('Space');
  });
  const access = await ContentAccess.load(em, org);
  const view = spaceView(access, space);
  if (!spaceRules.view(view)) throw notFound('Space');
  return { space, access, view };
}

export async function loadCollection(em: EntityManager, actor: Actor, collectionId: string): Promise<LoadedCollection> {
  const collection = await em.findOne(Collection, { id: collectionId });
  if (!collection) throw notFound('Collection');
  const org = await loadOrgAccess(em, actor, collection.organization.id).catch(() => {
    throw notFound('Collection');
  });
  const access = await ContentAccess.load(em, org);
  const view: ContentView = { role: access.roleForCollection(collection) };
  if (!collectionRules.view(view)) throw notFound('Collection');
  return { collection, access, view };
}

/** A collection of the organization that the caller may add content to (for `parent` fields): 400 otherwise. */
export async function targetCollection(em: EntityManager, access: ContentAccess, collectionId: string, field: string) {
  const collection = await em.findOne(Collection, { id: collectionId, organization: access.org.organization });
  const view: ContentView = { role: collection ? access.roleForCollection(collection) : null };
  if (!collection || !collectionRules.view(view)) {
    throw new BadRequestError(`${field}: no collection "${collectionId}" in this organization`);
  }
  authorize(collectionRules, view, 'create');
  return collection;
}
