import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import type { Role } from '../shared/roles.ts';
import { Collection } from './collection.entity.ts';
import { Organization } from './organization.entity.ts';
import { Space } from './space.entity.ts';
import { Team } from './team.entity.ts';
import { User } from './user.entity.ts';

/**
 * An explicit grant of a role on a space or a collection (and everything inside it) to a
 * user or a team. Exactly one target and one grantee are set (checked in the database).
 */
export const ContentPermissionSchema = defineEntity({
  name: 'ContentPermission',
  tableName: 'content_permissions',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    space: () => p.manyToOne(Space).ref().nullable().deleteRule('cascade'),
    collection: () => p.manyToOne(Collection).ref().nullable().deleteRule('cascade'),
    user: () => p.manyToOne(User).ref().nullable().deleteRule('cascade'),
    team: () => p.manyToOne(Team).ref().nullable().deleteRule('cascade'),
    role: p.string().length(16).$type<Role>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [
    { properties: ['space', 'user'] },
    { properties: ['space', 'team'] },
    { properties: ['collection', 'user'] },
    { properties: ['collection', 'team'] },
  ],
  indexes: [{ properties: ['organization', 'user'] }, { properties: ['organization', 'team'] }],
  checks: [
    { name: 'content_permissions_one_target', expression: '(space_id is null) <> (collection_id is null)' },
    { name: 'content_permissions_one_grantee', expression: '(user_id is null) <> (team_id is null)' },
  ],
});

export class ContentPermission extends ContentPermissionSchema.class {}
ContentPermissionSchema.setClass(ContentPermission);
