import type { Space } from '../../domain/entities/space.entity.ts';
import type { ContentRoles } from '../../domain/content/content-roles.ts';
import { SPACE_PERMISSION_KEYS, spaceRules } from '../../domain/content/content.policy.ts';
import { spaceView } from '../../domain/content/load-content.ts';
import { permissionsOf } from '../../domain/policy/authorize.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import type { SpaceWire } from './spaces.schema.ts';

type SpaceBody = z.infer<typeof SpaceWire>;

export function presentSpace(space: Space, access: ContentRoles, urls: Urls): SpaceBody {
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
    // Comments and change requests are not built yet: these counts are truly zero.
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: permissionsOf(spaceRules, spaceView(access, space), SPACE_PERMISSION_KEYS),
  };
}
