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
import { organizationResource, organizationRules } from '../../domain/organizations/organization.policy.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import {
  CreateInviteLinkBody,
  InviteLinkWire,
  InviteParams,
  InviteUsersBody,
  InviteUsersResponse,
  UpdateInviteLinkBody,
} from './invites.schema.ts';

const tags = ['invites'];

/** `redundant`: the link grants no more than anyone joining by e-mail domain already gets. */
function presentInvite(invite: InviteLink, organization: Organization): z.infer<typeof InviteLinkWire> {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageInvites' },
    responses: { 201: { description: 'The invite link', schema: InviteLinkWire } },
    async handle({ actor, em, body, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageInvites' },
    responses: { 200: { description: 'Invite links', schema: paged(InviteLinkWire) } },
    async handle({ em, query, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageInvites' },
    responses: { 200: { description: 'The invite link', schema: InviteLinkWire } },
    async handle({ em, params, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageInvites' },
    responses: { 200: { description: 'The invite link', schema: InviteLinkWire } },
    async handle({ em, params, body, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageInvites' },
    responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such invite' } },
    async handle({ em, params, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageMembers' },
    responses: { 200: { description: 'Who was added', schema: InviteUsersResponse } },
    async handle({ em, body, subject: org }) {
      return { status: 200, body: await inviteUsers(em, org.organization, body) };
    },
  }),
];
