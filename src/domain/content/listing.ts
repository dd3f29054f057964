import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Collection } from '../entities/collection.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { findPage, type PageRequest, type SortKey } from '../shared/paging.ts';
import type { ContentRoles } from './content-roles.ts';
import { readableWhere } from './readable.ts';

/** Siblings' order, as moves persist it; the id breaks ties. */
const BY_POSITION: SortKey[] = [
  { key: 'position', direction: 'asc', type: 'string' },
  { key: 'id', direction: 'asc', type: 'string' },
];

/**
 * Spaces (not in the bin) the caller may read, optionally only those under one parent.
 * Readability is a SQL condition (see readable.ts), so the page is cut by keyset in the
 * database whatever the number of spaces; pages stay full and stable.
 */
export async function listReadableSpaces(em: EntityManager, access: ContentRoles, parentId: string | null | undefined, page: PageRequest) {
  const where: Record<string, unknown> = { organization: access.org.organization, deletedAt: null, ...(await readableWhere(em, access, 'space')) };
  if (parentId !== undefined) where.parent = parentId;
  return findPage(em, Space, where as FilterQuery<Space>, BY_POSITION, page);
}

export async function listReadableCollections(em: EntityManager, access: ContentRoles, topLevelOnly: boolean, page: PageRequest) {
  const where: Record<string, unknown> = { organization: access.org.organization, ...(await readableWhere(em, access, 'collection')) };
  if (topLevelOnly) where.parent = null;
  return findPage(em, Collection, where as FilterQuery<Collection>, BY_POSITION, page);
}

/** Ids and titles of every space (not in the bin) the caller may read: what an organization-wide search covers. */
export async function readableSpaceTitles(em: EntityManager, access: ContentRoles): Promise<Map<string, string>> {
  const where = { organization: access.org.organization, deletedAt: null, ...(await readableWhere(em, access, 'space')) };
  const spaces = await em.find(Space, where, { fields: ['id', 'title'] });
  return new Map(spaces.map((s) => [s.id, s.title]));
}

/**
 * Spaces a member can read, each with the member's role on it (GET members/{userId}/spaces),
 * limited to spaces the viewer can read too, so the list reveals nothing hidden from them.
 */
export async function listSpacesWithRole(
  em: EntityManager,
  access: ContentRoles,
  viewer: ContentRoles,
  order: 'asc' | 'desc',
  page: PageRequest,
) {
  const where = {
    organization: access.org.organization,
    deletedAt: null,
    $and: [await readableWhere(em, access, 'space'), await readableWhere(em, viewer, 'space')],
  };
  const result = await findPage(
    em,
    Space,
    where as FilterQuery<Space>,
    [
      { key: 'createdAt', direction: order, type: 'date' },
      { key: 'id', direction: order, type: 'string' },
    ],
    page,
  );
  return { ...result, items: result.items.map((space) => ({ space, role: access.roleForSpace(space) })) };
}
