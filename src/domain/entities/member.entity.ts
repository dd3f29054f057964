import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import type { RoleOrGuest } from '../shared/roles.ts';
import { Organization } from './organization.entity.ts';
import { User } from './user.entity.ts';

/** A user's membership of an organization. `role` null is a guest. */
export const MemberSchema = defineEntity({
  name: 'Member',
  tableName: 'members',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    role: p.string().length(16).$type<RoleOrGuest>().nullable(),
    disabled: p.boolean().default(false),
    sso: p.boolean().default(false),
    joinedAt: p.datetime().onCreate(() => new Date()),
    lastSeenAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['organization', 'user'] }],
  // Keyset paging of the members list, for both sort keys.
  indexes: [
    { properties: ['organization', 'joinedAt', 'id'] },
    { properties: ['organization', 'lastSeenAt', 'id'] },
    { properties: ['user'] },
  ],
});

export class Member extends MemberSchema.class {}
MemberSchema.setClass(Member);
