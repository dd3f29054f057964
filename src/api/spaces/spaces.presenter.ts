import type { EntityManager } from '@mikro-orm/postgresql';
import type { Space } from '../../domain/entities/space.entity.ts';
import { loadSpaceCounts, type SpaceCounts } from '../../domain/content/space-counts.ts';
import type { ContentRoles } from '../../domain/content/content-roles.ts';
import { SPACE_PERMISSION_KEYS, spaceRules } from '../../domain/content/content.policy.ts';
import { spaceView } from '../../domain/content/load-content.ts';
import { permissionsOf } from '../../domain/policy/authorize.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import type { SpaceWire } from './spaces.schema.ts';

type SpaceBody = z.infer<typeof SpaceWire>;

export function presentSpace(space: Space, access: ContentRoles, urls: Urls, counts: SpaceCounts): SpaceBody {
  return {
    object: 'space',
    id: space.id,
    title: space.title,
    emoji: space.emoji ?? '',
    visibility: space.visibility,
    createdAt: space.createdAt.toISOString(),
    updatedAt: space.updatedAt.toISOString(),
    ...(space.deletedAt ? { deletedAt: space.deletedAt.toISOString() } : {}),
    editMode: space.editMode,
    mergeRules: space.mergeRules as SpaceBody['mergeRules'],
    urls: {
      location: urls.location(`/spaces/${space.id}`),
      app: urls.appLink(`/s/${space.id}`),
      ...(space.iconURL ? { icon: space.iconURL } : {}),
    },
    organization: space.organization.id,
    ...(space.parent ? { parent: space.parent.id } : {}),
    ...(space.language ? { language: space.language as SpaceBody['language'] } : {}),
    revision: space.revision,
    defaultLevel: space.defaultLevel ?? null,
    ...counts,
    permissions: permissionsOf(spaceRules, spaceView(access, space), SPACE_PERMISSION_KEYS),
  };
}

/** Spaces with their counts, loaded for all of them at once. */
export async function presentSpaces(em: EntityManager, spaces: Space[], access: ContentRoles, urls: Urls): Promise<SpaceBody[]> {
  const counts = await loadSpaceCounts(em, spaces.map((s) => s.id));
  return spaces.map((s) => presentSpace(s, access, urls, counts.get(s.id)!));
}

export async function presentOneSpace(em: EntityManager, space: Space, access: ContentRoles, urls: Urls): Promise<SpaceBody> {
  return (await presentSpaces(em, [space], access, urls))[0]!;
}
