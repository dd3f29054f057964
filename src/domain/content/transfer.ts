import { ref } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor.ts';
import { Collection } from '../entities/collection.entity.ts';
import { ContentPermission } from '../entities/content-permission.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { loadOrgAccess } from '../organizations/org-access.ts';
import { organizationRules } from '../organizations/organization.policy.ts';
import { authorize } from '../policy/authorize.ts';
import { BadRequestError, ConflictError, PreconditionFailedError } from '../shared/errors.ts';
import { ContentAccess } from './content-access.ts';
import { targetCollection } from './load-content.ts';
import { endPosition } from './ordering.ts';

export type TransferRequest = { organization: string; parent?: string | null };

/**
 * Moves a space, or a collection with everything inside it, to another organization
 * and/or into a collection there. The caller must administer both organizations. Grants
 * to users and teams of the old organization do not travel.
 */
export async function transferItem(em: EntityManager, actor: Actor, source: ContentAccess, item: Space | Collection, request: TransferRequest) {
  authorize(organizationRules, source.org, 'admin');
  const target = await loadOrgAccess(em, actor, request.organization).catch(() => {
    throw new BadRequestError(`organization: no organization "${request.organization}" that you belong to`);
  });
  authorize(organizationRules, target, 'admin');
  const isSpace = item instanceof Space;
  if (isSpace && item.deletedAt) throw new PreconditionFailedError('A deleted space cannot be transferred; restore it first');
  const targetAccess = target.organization.id === source.org.organization.id ? source : await ContentAccess.load(em, target);
  const parent = request.parent ? await targetCollection(em, targetAccess, request.parent, 'parent') : null;
  if (!isSpace && parent && (await isInside(em, parent, item.id))) {
    throw new BadRequestError('parent: a collection cannot be moved inside itself');
  }
  const sameOrg = target.organization.id === item.organization.id;
  const sameParent = request.parent === undefined || (parent?.id ?? null) === (item.parent?.id ?? null);
  if (sameOrg && sameParent) throw new ConflictError('The transfer would change nothing');

  await em.transactional(async (tx) => {
    // Worked out before anything moves: it is found through the item's current organization.
    const subtree = isSpace ? { spaces: [item.id], collections: [] } : await subtreeOf(tx, item);
    item.organization = ref(target.organization);
    if (request.parent !== undefined || !sameOrg) item.parent = parent ? ref(parent) : null;
    item.position = await endPosition(tx, target.organization.id, parent?.id ?? null);
    if (isSpace && !item.parent && item.visibility === 'in-collection') item.visibility = 'private';
    if (sameOrg) return;
    await tx.nativeUpdate(Collection, { id: { $in: subtree.collections } }, { organization: target.organization.id });
    await tx.nativeUpdate(Space, { id: { $in: subtree.spaces } }, { organization: target.organization.id });
    await tx.nativeDelete(ContentPermission, { $or: [{ space: { $in: subtree.spaces } }, { collection: { $in: [...subtree.collections, ...(isSpace ? [] : [item.id])] } }] });
  });
}

/** Every collection below `root` and every space (in the bin too) inside any of them. */
export async function subtreeOf(em: EntityManager, root: Collection): Promise<{ collections: string[]; spaces: string[] }> {
  const all = await em.find(Collection, { organization: root.organization }, { fields: ['id', 'parent'] });
  const children = new Map<string, string[]>();
  for (const c of all) {
    const parentId = c.parent?.id;
    if (parentId) children.set(parentId, [...(children.get(parentId) ?? []), c.id]);
  }
  const collections: string[] = [];
  const queue = [root.id];
  while (queue.length) {
    const id = queue.shift()!;
    for (const child of children.get(id) ?? []) {
      collections.push(child);
      queue.push(child);
    }
  }
  const spaces = await em.find(Space, { parent: { $in: [root.id, ...collections] } }, { fields: ['id'] });
  return { collections, spaces: spaces.map((s) => s.id) };
}

async function isInside(em: EntityManager, candidate: Collection, ancestorId: string): Promise<boolean> {
  let cursor: Collection | null = candidate;
  const seen = new Set<string>();
  while (cursor && !seen.has(cursor.id)) {
    if (cursor.id === ancestorId) return true;
    seen.add(cursor.id);
    cursor = cursor.parent ? await em.findOne(Collection, { id: cursor.parent.id }) : null;
  }
  return false;
}
