import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import type { RoleOrGuest } from '../shared/roles.ts';
import { Organization } from './organization.entity.ts';
import { User } from './user.entity.ts';

/** A shareable link that lets whoever holds its id join the organization with `role`. */
export const InviteLinkSchema = defineEntity({
  name: 'InviteLink',
  tableName: 'invite_links',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    role: p.string().length(16).$type<RoleOrGuest>().nullable(),
    createdBy: () => p.manyToOne(User).ref().nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});

export class InviteLink extends InviteLinkSchema.class {}
InviteLinkSchema.setClass(InviteLink);
