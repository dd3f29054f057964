import { Id, RoleOrGuest } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';

export const InviteLinkWire = z
  .object({ object: z.literal('invite'), id: z.string(), role: RoleOrGuest, redundant: z.boolean() })
  .meta({ id: 'OrganizationInviteLink' });

export const InviteParams = z.object({ organizationId: Id, inviteId: Id });

export const CreateInviteLinkBody = z.object({ role: RoleOrGuest });
export const UpdateInviteLinkBody = z.object({ role: RoleOrGuest });

export const InviteUsersBody = z.object({
  emails: z
    .array(z.union([z.email().max(320), z.object({ email: z.email().max(320), role: RoleOrGuest })]))
    .min(1)
    .max(100),
  role: RoleOrGuest.optional(),
  sso: z.boolean().optional(),
});

export const InviteUsersResponse = z.object({ users: z.array(z.string()), invited: z.number().int() });
