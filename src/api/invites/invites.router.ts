import type { InviteLink } from '../../domain/entities/invite-link.entity.ts';
import type { Organization } from '../../domain/entities/organization.entity.ts';
import {
  createInviteLink,
  deleteInviteLink,
  getInviteLink,
  inviteUsers,
  joinWithInvite,
  listInviteLinks,
} from '../../domain/organizations/invites.ts';
import { loadOrgAccess } from '../../domain/organizations/org-access.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import {
  CreateInviteLinkBody,
  InviteLinkSchema,
  InviteParams,
  InviteUsersBody,
  InviteUsersResponse,
  UpdateInviteLinkBody,
} from './invites.schema.ts';

const tags = ['invites'];

/** `redundant`: the link grants no more than anyone joining by e-mail domain already gets. */
function presentInvite(invite: InviteLink, organization: Organization): z.infer<typeof InviteLinkSchema> {
  const redundant = organization.emailDomains.length > 0 && invite.role === organization.defaultRole;
  return { object: 'invite', id: invite.id, role: invite.role ?? null, redundant };
}

export const invitesRoutes = [
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/link-invites',
    operationId: 'createOrganizationInvite',
    summary: 'Create an invite link',
    tags,
    params: OrgParams,
    body: CreateInviteLinkBody,
    responses: { 201: { description: 'The invite link', schema: InviteLinkSchema } },
    async handle({ actor, em, params, body }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageInvites');
      const invite = await createInviteLink(em, org.organization, body.role, actor.user);
      return { status: 201, body: presentInvite(invite, org.organization) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/link-invites',
    operationId: 'listOrganizationInviteLinks',
    summary: 'Invite links of an organization',
    tags,
    params: OrgParams,
    query: PagingQuery,
    responses: { 200: { description: 'Invite links', schema: paged(InviteLinkSchema) } },
    async handle({ actor, em, params, query }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageInvites');
      const page = await listInviteLinks(em, org.organization, query);
      return { status: 200, body: { ...page, items: page.items.map((i) => presentInvite(i, org.organization)) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/link-invites/{inviteId}',
    operationId: 'getOrganizationInviteLink',
    summary: 'One invite link',
    tags,
    params: InviteParams,
    responses: { 200: { description: 'The invite link', schema: InviteLinkSchema } },
    async handle({ actor, em, params }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageInvites');
      const invite = await getInviteLink(em, org.organization, params.inviteId);
      return { status: 200, body: presentInvite(invite, org.organization) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{organizationId}/link-invites/{inviteId}',
    operationId: 'updateOrganizationInviteById',
    summary: 'Change the role an invite link grants',
    tags,
    params: InviteParams,
    body: UpdateInviteLinkBody,
    responses: { 200: { description: 'The invite link', schema: InviteLinkSchema } },
    async handle({ actor, em, params, body }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageInvites');
      const invite = await getInviteLink(em, org.organization, params.inviteId);
      invite.role = body.role;
      await em.flush();
      return { status: 200, body: presentInvite(invite, org.organization) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{organizationId}/link-invites/{inviteId}',
    operationId: 'deleteOrganizationInviteById',
    summary: 'Revoke an invite link',
    tags,
    params: InviteParams,
    responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such invite' } },
    async handle({ actor, em, params }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageInvites');
      return { status: (await deleteInviteLink(em, org.organization, params.inviteId)) ? 205 : 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/invites/{inviteId}',
    operationId: 'joinOrganizationWithInvite',
    summary: 'Join an organization through an invite link',
    tags,
    params: InviteParams,
    responses: { 200: { description: 'Joined', schema: z.object({}) } },
    async handle({ actor, em, params }) {
      await joinWithInvite(em, params.organizationId, params.inviteId, actor.user);
      return { status: 200, body: {} };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/invites',
    operationId: 'inviteUsersToOrganization',
    summary: 'Invite people by e-mail address',
    tags,
    params: OrgParams,
    body: InviteUsersBody,
    responses: { 200: { description: 'Who was added', schema: InviteUsersResponse } },
    async handle({ actor, em, params, body }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageMembers');
      return { status: 200, body: await inviteUsers(em, org.organization, body) };
    },
  }),
];
