import { ref } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor.ts';
import { Collection } from '../entities/collection.entity.ts';
import { ContentPermission } from '../entities/content-permission.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { loadOrgView } from '../organizations/org-view.ts';
import { organizationRules } from '../organizations/organization.policy.ts';
import { authorize } from '../policy/authorize.ts';
import { BadRequestError, ConflictError, PreconditionFailedError, whenNotFound } from '../shared/errors.ts';
import { ContentRoles } from './content-roles.ts';
import { targetCollection } from './load-content.ts';
import { endPosition } from './ordering.ts';
import { isSelfOrAncestor, lockCollectionTree, MAX_COLLECTION_DEPTH } from './tree-locks.ts';

export type TransferRequest = { organization: string; parent?: string | null };

/**
 * Moves a space, or a collection with everything inside it, to another organization
 * and/or into a collection there. The caller must administer both organizations (the
 * route checks the item's; the target, named in the request, is checked here). Grants
 * to users and teams of the old organization do not travel.
 */
export async function transferItem(em: EntityManager, actor: Actor, source: ContentRoles, item: Space | Collection, request: TransferRequest) {
  // The route has authorized the item's own side (`transfer`: admin of its organization).
  const target = await loadOrgView(em, actor, request.organization).catch(
    whenNotFound(() => {
      throw new BadRequestError(`organization: no organization "${request.organization}" that you belong to`);
    }),
  );
  authorize(organizationRules, target, 'admin');
  const isSpace = item instanceof Space;
  if (isSpace && item.deletedAt) throw new PreconditionFailedError('A deleted space cannot be transferred; restore it first');
  const targetAccess = target.organization.id === source.org.organization.id ? source : await ContentRoles.load(em, target);
  const parent = request.parent ? await targetCollection(em, targetAccess, request.parent, 'parent') : null;
  const sameOrg = target.organization.id === item.organization.id;
  const sameParent = request.parent === undefined || (parent?.id ?? null) === (item.parent?.id ?? null);
  if (sameOrg && sameParent) throw new ConflictError('The transfer would change nothing');

  await em.transactional(async (tx) => {
    if (!isSpace) {
      // Both trees, in a fixed order (no deadlock): the check and the subtree hold until commit.
      for (const orgId of [...new Set([item.organization.id, target.organization.id])].sort()) await lockCollectionTree(tx, orgId);
      if (parent && (await isSelfOrAncestor(tx, parent.id, item.id))) throw new BadRequestError('parent: a collection cannot be moved inside itself');
    }
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

/**
 * Every collection below `root` and every space (in the bin too) inside any of them. The
 * walk visits each collection once and stops at MAX_COLLECTION_DEPTH, so it ends on any
 * data, a cycle included.
 */
export async function subtreeOf(em: EntityManager, root: Collection): Promise<{ collections: string[]; spaces: string[] }> {
  const all = await em.find(Collection, { organization: root.organization }, { fields: ['id', 'parent'] });
  const children = new Map<string, string[]>();
  for (const c of all) {
    const parentId = c.parent?.id;
    if (parentId) children.set(parentId, [...(children.get(parentId) ?? []), c.id]);
  }
  const collections: string[] = [];
  const seen = new Set([root.id]);
  let level = [root.id];
  for (let depth = 0; level.length && depth < MAX_COLLECTION_DEPTH; depth++) {
    const next: string[] = [];
    for (const id of level) {
      for (const child of children.get(id) ?? []) {
        if (seen.has(child)) continue;
        seen.add(child);
        collections.push(child);
        next.push(child);
      }
    }
    level = next;
  }
  const spaces = await em.find(Space, { parent: { $in: [root.id, ...collections] } }, { fields: ['id'] });
  return { collections, spaces: spaces.map((s) => s.id) };
}
