import type { EntityManager } from '@mikro-orm/postgresql';
import { Collection } from '../entities/collection.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { ROLES, type DefaultLevel } from '../shared/roles.ts';
import type { ContentRoles } from './content-roles.ts';
import { collectionRules, spaceRules } from './content.policy.ts';
import { collectionView, spaceView } from './load-content.ts';

type Where = Record<string, unknown>;
type Kind = 'space' | 'collection';

const LEVELS: DefaultLevel[] = [...ROLES, 'inherit', null];
/** A parent id no collection has (ids are base62): stands for "a parent this organization does not list". */
const UNLISTED = '~unlisted';

/**
 * The SQL condition "the caller may read this item", built by asking the policy, not by
 * restating it. Without a grant of its own, whether an item is readable depends only on its
 * parent collection and its default level; collections are few, so the policy is asked once
 * per (parent, level) class, and items with grants (also few) are asked one by one. The
 * condition's size grows with collections and grants, never with the number of spaces.
 */
export async function readableWhere(em: EntityManager, access: ContentRoles, kind: Kind): Promise<Where> {
  const readable = (item: { id: string; defaultLevel: DefaultLevel; parent: { id: string } | null }) =>
    kind === 'space'
      ? spaceRules.view(spaceView(access, { ...item, editMode: 'live', deletedAt: null } as unknown as Parameters<typeof spaceView>[1]))
      : collectionRules.view(collectionView(access, item as unknown as Parameters<typeof collectionView>[1]));

  const collectionIds = access.collectionIds();
  const parents: Array<string | null> = [null, ...collectionIds, UNLISTED];
  const classes: Where[] = [];
  let everything = true;
  for (const level of LEVELS) {
    // The empty id holds no grant: this asks about the class alone.
    const ok = parents.filter((p) => readable({ id: '', defaultLevel: level, parent: p === null ? null : { id: p } }));
    if (ok.length !== parents.length) everything = false;
    if (ok.length === 0) continue;
    const parentIn: Where[] = [];
    if (ok.includes(null)) parentIn.push({ parent: null });
    const listed = ok.filter((p): p is string => p !== null && p !== UNLISTED);
    if (listed.length) parentIn.push({ parent: { $in: listed } });
    if (ok.includes(UNLISTED)) parentIn.push({ parent: { $nin: collectionIds.length ? collectionIds : [UNLISTED] } });
    classes.push({ defaultLevel: level, $or: parentIn });
  }

  const granted = access.grantedIds(kind);
  const entity = kind === 'space' ? Space : Collection;
  const grantedItems = granted.length
    ? await em.find(entity as typeof Space, { id: { $in: granted } }, { fields: ['id', 'defaultLevel', 'parent'] })
    : [];
  const grantedReadable = grantedItems
    .filter((i) => readable({ id: i.id, defaultLevel: i.defaultLevel ?? null, parent: i.parent ? { id: i.parent.id } : null }))
    .map((i) => i.id);

  if (everything) return {};
  const byClass: Where = classes.length ? { $or: classes } : { id: { $in: [] } };
  const withoutGrant: Where = granted.length ? { $and: [{ id: { $nin: granted } }, byClass] } : byClass;
  return grantedReadable.length ? { $or: [{ id: { $in: grantedReadable } }, withoutGrant] } : withoutGrant;
}
