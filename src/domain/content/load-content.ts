import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor.ts';
import { Collection } from '../entities/collection.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { loadOrgView, type OrgView } from '../organizations/org-view.ts';
import { organizationRules } from '../organizations/organization.policy.ts';
import { authorize, type Resource } from '../policy/authorize.ts';
import { BadRequestError, notFound, NotFoundError } from '../shared/errors.ts';
import { ContentRoles } from './content-roles.ts';
import { collectionRules, spaceRules, type ContentTargetView, type ContentView } from './content.policy.ts';

export type LoadedSpace = { space: Space; access: ContentRoles; view: ContentView };
export type LoadedCollection = { collection: Collection; access: ContentRoles; view: ContentView };
export type LoadedOrgContent = { org: OrgView; access: ContentRoles };
export type ContentTarget = LoadedOrgContent & { parent: Collection | null; view: ContentTargetView };

export function spaceView(access: ContentRoles, space: Pick<Space, 'id' | 'defaultLevel' | 'parent' | 'editMode' | 'deletedAt'>): ContentView {
  return {
    role: access.roleForSpace(space),
    locked: space.editMode === 'locked',
    deleted: space.deletedAt !== null,
    orgAdmin: organizationRules.admin(access.org),
  };
}

export function collectionView(access: ContentRoles, collection: Pick<Collection, 'id' | 'defaultLevel' | 'parent'>): ContentView {
  return { role: access.roleForCollection(collection), orgAdmin: organizationRules.admin(access.org) };
}

/** The organization of a content item: not being a member of it reads as the item missing. */
async function orgOf(em: EntityManager, actor: Actor, organizationId: string, what: string): Promise<OrgView> {
  try {
    return await loadOrgView(em, actor, organizationId);
  } catch (err) {
    if (err instanceof NotFoundError) throw notFound(what);
    throw err;
  }
}

/**
 * A space the caller may at least read. Not a member of its organization, or no read
 * access: the same 404 as for a space that does not exist.
 */
export async function loadSpace(em: EntityManager, actor: Actor, spaceId: string): Promise<LoadedSpace> {
  const space = await em.findOne(Space, { id: spaceId });
  if (!space) throw notFound('Space');
  const access = await ContentRoles.load(em, await orgOf(em, actor, space.organization.id, 'Space'));
  const view = spaceView(access, space);
  if (!spaceRules.view(view)) throw notFound('Space');
  return { space, access, view };
}

export async function loadCollection(em: EntityManager, actor: Actor, collectionId: string): Promise<LoadedCollection> {
  const collection = await em.findOne(Collection, { id: collectionId });
  if (!collection) throw notFound('Collection');
  const access = await ContentRoles.load(em, await orgOf(em, actor, collection.organization.id, 'Collection'));
  const view = collectionView(access, collection);
  if (!collectionRules.view(view)) throw notFound('Collection');
  return { collection, access, view };
}

/** The space named by the path (`spaceId`), for routes that act on one space. */
export const spaceResource: Resource<LoadedSpace, ContentView, { params: { spaceId: string } }> = {
  name: 'space',
  load: (em, actor, { params }) => loadSpace(em, actor, params.spaceId),
  view: (s) => s.view,
};

export const collectionResource: Resource<LoadedCollection, ContentView, { params: { collectionId: string } }> = {
  name: 'collection',
  load: (em, actor, { params }) => loadCollection(em, actor, params.collectionId),
  view: (c) => c.view,
};

/** An organization with what the caller may do on each of its spaces and collections. */
export const orgContentResource: Resource<LoadedOrgContent, OrgView, { params: { organizationId: string } }> = {
  name: 'organization',
  async load(em, actor, { params }) {
    const org = await loadOrgView(em, actor, params.organizationId);
    return { org, access: await ContentRoles.load(em, org) };
  },
  view: (o) => o.org,
};

/** Where new content goes (`body.parent`, or the root): an unknown or unreadable parent is a 400. */
export const contentTargetResource: Resource<ContentTarget, ContentTargetView, { params: { organizationId: string }; body: { parent?: string | undefined } | undefined }> = {
  name: 'organization or parent collection',
  async load(em, actor, input) {
    const { org, access } = await orgContentResource.load(em, actor, input);
    const parent = input.body?.parent ? await findTargetCollection(em, access, input.body.parent, 'body.parent') : null;
    const view = { parent: parent ? collectionView(access, parent) : null, orgCreate: organizationRules.createContent(org) };
    return { org, access, parent, view };
  },
  view: (t) => t.view,
};

async function findTargetCollection(em: EntityManager, access: ContentRoles, collectionId: string, field: string) {
  const collection = await em.findOne(Collection, { id: collectionId, organization: access.org.organization });
  if (!collection || !collectionRules.view(collectionView(access, collection))) {
    throw new BadRequestError(`${field}: no collection "${collectionId}" in this organization`);
  }
  return collection;
}

/** A collection of the organization that the caller may add content to (for `parent` fields of moves): 400 otherwise. */
export async function targetCollection(em: EntityManager, access: ContentRoles, collectionId: string, field: string) {
  const collection = await findTargetCollection(em, access, collectionId, field);
  authorize(collectionRules, collectionView(access, collection), 'create');
  return collection;
}
