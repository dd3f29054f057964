import type { EntityManager } from '@mikro-orm/postgresql';
import { Collection } from '../entities/collection.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { findPage, type PageRequest, type SortKey } from '../shared/paging.ts';
import { roleAtLeast, type RoleOrGuest } from '../shared/roles.ts';
import type { ContentAccess } from './content-access.ts';

/** Siblings' order, as moves persist it; the id breaks ties. */
const BY_POSITION: SortKey[] = [
  { key: 'position', direction: 'asc', type: 'string' },
  { key: 'id', direction: 'asc', type: 'string' },
];

const canRead = (role: RoleOrGuest) => role !== null && roleAtLeast(role, 'read');

/**
 * Spaces (not in the bin) the caller may read, optionally only those under one parent.
 * Access depends on collections and grants, so readable ids are worked out first and the
 * page is then cut by keyset over those ids: pages stay full and stable.
 */
export async function listReadableSpaces(em: EntityManager, access: ContentAccess, parentId: string | null | undefined, page: PageRequest) {
  const where: Record<string, unknown> = { organization: access.org.organization, deletedAt: null };
  if (parentId !== undefined) where.parent = parentId;
  const candidates = await em.find(Space, where, { fields: ['id', 'defaultLevel', 'parent'] });
  const readable = candidates.filter((s) => canRead(access.roleForSpace(s))).map((s) => s.id);
  return findPage(em, Space, { id: { $in: readable } }, BY_POSITION, page);
}

export async function listReadableCollections(em: EntityManager, access: ContentAccess, topLevelOnly: boolean, page: PageRequest) {
  const where: Record<string, unknown> = { organization: access.org.organization };
  if (topLevelOnly) where.parent = null;
  const candidates = await em.find(Collection, where, { fields: ['id', 'defaultLevel', 'parent'] });
  const readable = candidates.filter((c) => canRead(access.roleForCollection(c))).map((c) => c.id);
  return findPage(em, Collection, { id: { $in: readable } }, BY_POSITION, page);
}

/**
 * Spaces a member can read, each with the member's role on it (GET members/{userId}/spaces),
 * limited to spaces the viewer can read too, so the list reveals nothing hidden from them.
 */
export async function listSpacesWithRole(
  em: EntityManager,
  access: ContentAccess,
  viewer: ContentAccess,
  order: 'asc' | 'desc',
  page: PageRequest,
) {
  const candidates = await em.find(
    Space,
    { organization: access.org.organization, deletedAt: null },
    { fields: ['id', 'defaultLevel', 'parent'] },
  );
  const roles = new Map<string, RoleOrGuest>();
  for (const s of candidates) {
    const role = access.roleForSpace(s);
    if (canRead(role) && canRead(viewer.roleForSpace(s))) roles.set(s.id, role);
  }
  const result = await findPage(
    em,
    Space,
    { id: { $in: [...roles.keys()] } },
    [
      { key: 'createdAt', direction: order, type: 'date' },
      { key: 'id', direction: order, type: 'string' },
    ],
    page,
  );
  return { ...result, items: result.items.map((space) => ({ space, role: roles.get(space.id)! })) };
}
