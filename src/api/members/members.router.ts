import { getMember, listMembers, recordPing, removeMember, setSsoMember, updateMemberRole } from '../../domain/organizations/members.ts';
import { loadOrgAccess, type OrgAccess } from '../../domain/organizations/org-access.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import { paged } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentMembers, presentOneMember } from './members.presenter.ts';
import { ListMembersQuery, MemberParams, MemberSchema, PingResponse, UpdateMemberBody } from './members.schema.ts';

const tags = ['members'];

/** Members may always read and leave their own membership; anything else needs the rule. */
function isSelf(access: OrgAccess, userId: string): boolean {
  return access.actor.kind === 'user' && access.actor.user.id === userId;
}

export const membersRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/members',
    operationId: 'listMembersInOrganizationById',
    summary: 'Members of an organization',
    tags,
    params: OrgParams,
    query: ListMembersQuery,
    responses: { 200: { description: 'Members', schema: paged(MemberSchema) } },
    async handle({ actor, em, params, query, deps }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, access, 'listMembers');
      const page = await listMembers(em, access.organization, query, query);
      return { status: 200, body: { ...page, items: await presentMembers(em, page.items, deps.urls) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/members/{userId}',
    operationId: 'getMemberInOrganizationById',
    summary: 'One member',
    tags,
    params: MemberParams,
    responses: { 200: { description: 'The member', schema: MemberSchema } },
    async handle({ actor, em, params, deps }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
      if (!isSelf(access, params.userId)) authorize(organizationRules, access, 'listMembers');
      const member = await getMember(em, access.organization, params.userId);
      return { status: 200, body: await presentOneMember(em, member, deps.urls) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{organizationId}/members/{userId}',
    operationId: 'updateMemberInOrganizationById',
    summary: 'Change a member’s role',
    tags,
    params: MemberParams,
    body: UpdateMemberBody,
    responses: { 200: { description: 'The member', schema: MemberSchema } },
    async handle({ actor, em, params, body, deps }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, access, 'manageMembers');
      const member =
        body.role === undefined
          ? await getMember(em, access.organization, params.userId)
          : await updateMemberRole(em, access.organization, params.userId, body.role);
      return { status: 200, body: await presentOneMember(em, member, deps.urls) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{organizationId}/members/{userId}',
    operationId: 'removeMemberFromOrganizationById',
    summary: 'Remove a member (or leave the organization)',
    tags,
    params: MemberParams,
    responses: { 204: { description: 'Removed, or was not a member' } },
    async handle({ actor, em, params }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
      if (!isSelf(access, params.userId)) authorize(organizationRules, access, 'manageMembers');
      await removeMember(em, access.organization, params.userId);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/ping',
    operationId: 'updateOrganizationMemberLastSeenAt',
    summary: 'Record that the caller was active in the organization',
    tags,
    params: OrgParams,
    responses: { 200: { description: 'Recorded', schema: PingResponse } },
    async handle({ actor, em, params }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, access, 'ping');
      await recordPing(em, access);
      // Visitor claims exist only for visitor-auth sites, which are not built yet.
      return { status: 200, body: {} };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/members/{userId}/sso',
    operationId: 'setUserAsSSOMemberForOrganization',
    summary: 'Make a member sign in through the organization’s SAML provider',
    tags,
    params: MemberParams,
    responses: { 200: { description: 'The member', schema: MemberSchema } },
    async handle({ actor, em, params, deps }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, access, 'manageSso');
      const member = await setSsoMember(em, access.organization, params.userId);
      return { status: 200, body: await presentOneMember(em, member, deps.urls) };
    },
  }),
];
