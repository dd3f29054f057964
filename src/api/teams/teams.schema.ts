import { Id, PagingQuery } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';
import { MemberWire } from '../members/members.schema.ts';

export const TeamWire = z
  .object({
    object: z.literal('team'),
    id: z.string(),
    title: z.string(),
    members: z.number().int(),
    spaces: z.number().int(),
    createdAt: z.string(),
    permissions: z.object({ admin: z.boolean(), view: z.boolean() }),
  })
  .meta({ id: 'Team' });

const Title = z.string().trim().min(1).max(64);
const TeamRole = z.enum(['owner', 'member']);

export const TeamParams = z.object({ organizationId: Id, teamId: Id });
export const TeamMemberParams = TeamParams.extend({ userId: Id });

export const ListTeamsQuery = PagingQuery.extend({
  owner: Id.optional().openapi({ description: 'User id: only teams that member can manage' }),
  title: z.string().trim().min(1).max(64).optional(),
});

export const CreateTeamBody = z.object({ title: Title, members: z.array(Id).max(1000).optional() });
export const UpdateTeamBody = z.object({ title: Title.optional() });

export const UpdateTeamMembersBody = z
  .object({
    add: z.array(Id).max(1000).optional(),
    remove: z.array(Id).max(1000).optional(),
    memberships: z.record(Id, z.object({ role: TeamRole })).optional(),
  })
  .refine((b) => b.add || b.remove || b.memberships, { message: 'give at least one of add, remove or memberships' });

export const AddTeamMemberBody = z.object({ role: TeamRole.optional() }).optional();

export const TeamMemberItem = z.object({
  organization: MemberWire,
  team: z.object({ role: TeamRole }),
  permissions: z.object({ view: z.boolean() }),
});

export const MemberTeamItem = z.object({ team: TeamWire, member: z.object({ role: TeamRole }) });
