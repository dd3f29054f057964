import type { EntityManager } from '@mikro-orm/postgresql';
import { ContentPermission } from '../entities/content-permission.entity.ts';
import type { Collection } from '../entities/collection.entity.ts';
import type { Organization } from '../entities/organization.entity.ts';
import { Revision } from '../entities/revision.entity.ts';
import { Space, type SpaceMergeRules, type SpaceVisibility } from '../entities/space.entity.ts';
import { newId } from '../shared/ids.ts';
import { BadRequestError, PreconditionFailedError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { DefaultLevel } from '../shared/roles.ts';
import type { ContentRoles } from './content-roles.ts';
import { endPosition, placeItem } from './ordering.ts';

export type NewSpace = {
  title?: string;
  emoji?: string;
  parent?: Collection | null;
  language?: string;
  editMode?: 'live' | 'locked';
};

/** A new space with an empty first revision, placed after its siblings (under their order lock). */
export async function createSpace(em: EntityManager, access: ContentRoles, input: NewSpace): Promise<Space> {
  return createSpaceIn(em, access.org.organization, input);
}

/** `createSpace` for writers that act for nobody in particular (a translation run making its result space). */
export async function createSpaceIn(em: EntityManager, organization: Organization, input: NewSpace): Promise<Space> {
  const parent = input.parent ?? null;
  const revisionId = newId();
  return em.transactional(async (tx) => {
    const space = tx.create(Space, {
      organization,
      parent,
      title: input.title ?? 'Untitled',
      emoji: input.emoji ?? null,
      language: input.language ?? null,
      editMode: input.editMode ?? 'live',
      visibility: parent ? 'in-collection' : 'private',
      position: await endPosition(tx, organization.id, parent?.id ?? null),
      revision: revisionId,
    });
    tx.create(Revision, { id: revisionId, space, parents: [], type: 'edits' });
    return space;
  });
}

export type SpacePatch = {
  title?: string;
  emoji?: string | null;
  icon?: string | null;
  editMode?: 'live' | 'locked';
  defaultLevel?: DefaultLevel;
  language?: string | null;
  mergeRules?: SpaceMergeRules;
  visibility?: SpaceVisibility;
};

export async function updateSpace(em: EntityManager, space: Space, patch: SpacePatch) {
  assertNotDeleted(space);
  if (patch.visibility === 'in-collection' && !space.parent) {
    throw new BadRequestError('visibility: in-collection is only for spaces inside a collection');
  }
  if (patch.title !== undefined) space.title = patch.title;
  if (patch.emoji !== undefined) space.emoji = patch.emoji;
  if (patch.icon !== undefined) space.iconURL = patch.icon;
  // An emoji and an icon are alternatives: setting one clears the other.
  if (patch.emoji) space.iconURL = null;
  if (patch.icon) space.emoji = null;
  if (patch.editMode !== undefined) space.editMode = patch.editMode;
  if (patch.defaultLevel !== undefined) space.defaultLevel = patch.defaultLevel;
  if (patch.language !== undefined) space.language = patch.language;
  if (patch.mergeRules !== undefined) space.mergeRules = patch.mergeRules;
  if (patch.visibility !== undefined) space.visibility = patch.visibility;
  await em.flush();
}

/** Moves the space to the bin. Returns false when it was already there. */
export async function softDeleteSpace(em: EntityManager, space: Space, clock: Clock): Promise<boolean> {
  if (space.deletedAt) return false;
  space.deletedAt = clock.now();
  await em.flush();
  return true;
}

/** Takes a space out of the bin while the retention window lasts, at the end of its siblings. */
export async function restoreSpace(em: EntityManager, space: Space, clock: Clock, retentionMs: number) {
  if (!space.deletedAt) return;
  if (clock.now().getTime() - space.deletedAt.getTime() > retentionMs) {
    throw new PreconditionFailedError('The space was deleted too long ago to be restored');
  }
  await em.transactional(async (tx) => {
    space.deletedAt = null;
    space.position = await endPosition(tx, space.organization.id, space.parent?.id ?? null);
  });
}

/**
 * Copies a space: its settings, its explicit grants, and its content by reference (a new
 * revision whose parent is the original's current one), right after the original.
 */
export async function duplicateSpace(em: EntityManager, space: Space): Promise<Space> {
  assertNotDeleted(space);
  return em.transactional(async (tx) => {
    const id = newId();
    const revisionId = newId();
    const after = { after: { type: 'space' as const, id: space.id } };
    const placement = await placeItem(tx, space.organization.id, space.parent?.id ?? null, { type: 'space', id }, after, false);
    const copy = tx.create(Space, {
      id,
      organization: space.organization,
      parent: space.parent,
      title: `${space.title} (copy)`.slice(0, 50),
      emoji: space.emoji,
      iconURL: space.iconURL,
      visibility: space.visibility,
      editMode: space.editMode,
      defaultLevel: space.defaultLevel,
      mergeRules: space.mergeRules,
      language: space.language,
      position: placement.position,
      revision: revisionId,
    });
    // The copy's first revision names the same page and file hashes: nothing is copied.
    const original = await tx.findOneOrFail(Revision, { id: space.revision });
    tx.create(Revision, {
      id: revisionId,
      space: copy,
      parents: [space.revision],
      type: 'edits',
      pages: original.pages,
      files: original.files,
      variables: original.variables,
    });
    const grants = await tx.find(ContentPermission, { space });
    for (const g of grants) {
      tx.create(ContentPermission, { organization: g.organization, space: copy, user: g.user, team: g.team, role: g.role });
    }
    return copy;
  });
}

/** A space in the bin must be restored before anything else changes it. */
export function assertNotDeleted(space: Space) {
  if (space.deletedAt) throw new PreconditionFailedError('The space is deleted; restore it first');
}
