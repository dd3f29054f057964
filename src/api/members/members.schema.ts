import { ROLES } from '../../domain/shared/roles.ts';
import { Id, Order, PagingQuery, RoleOrGuest } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';
import { UserWire } from '../users/user.presenter.ts';

export const MemberWire = z
  .object({
    object: z.literal('member'),
    id: z.string(),
    role: RoleOrGuest,
    user: UserWire,
    disabled: z.boolean(),
    joinedAt: z.string(),
    lastSeenAt: z.string().optional(),
    sso: z.boolean(),
    spaces: z.number().int(),
    teams: z.number().int(),
  })
  .meta({ id: 'Member' });

export const MemberParams = z.object({ organizationId: Id, userId: Id });

export const ListMembersQuery = PagingQuery.extend({
  order: Order,
  role: z.enum([...ROLES, 'guest']).optional(),
  search: z.string().trim().min(1).max(256).optional(),
  sort: z.enum(['joinedAt', 'lastSeenAt']).default('joinedAt'),
});

export const UpdateMemberBody = z.object({ role: RoleOrGuest.optional() });

export const PingResponse = z.object({ docsVisitorClaims: z.string().optional() });

export const MemberTeamsQuery = PagingQuery.extend({ title: z.string().trim().min(1).max(64).optional() });
