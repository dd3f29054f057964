import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Member } from './member.entity.ts';
import { Team } from './team.entity.ts';

export type TeamRole = 'owner' | 'member';

/** A member's place in a team; owners may manage the team without being organization admins. */
export const TeamMembershipSchema = defineEntity({
  name: 'TeamMembership',
  tableName: 'team_memberships',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    member: () => p.manyToOne(Member).deleteRule('cascade'),
    role: p.string().length(8).$type<TeamRole>().default('member'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['team', 'member'] }],
  indexes: [{ properties: ['member'] }],
});

export class TeamMembership extends TeamMembershipSchema.class {}
TeamMembershipSchema.setClass(TeamMembership);
