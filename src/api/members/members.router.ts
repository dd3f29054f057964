import { getMember, listMembers, recordPing, removeMember, setSsoMember, updateMemberRole } from '../../domain/organizations/members.ts';
import { organizationResource, organizationRules, selfOr } from '../../domain/organizations/organization.policy.ts';
import { paged } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentMembers, presentOneMember } from './members.presenter.ts';
import { ListMembersQuery, MemberParams, MemberWire, PingResponse, UpdateMemberBody } from './members.schema.ts';

const tags = ['members'];

export const membersRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/members',
    operationId: 'listMembersInOrganizationById',
    summary: 'Members of an organization',
    tags,
    params: OrgParams,
    query: ListMembersQuery,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'listMembers' },
    responses: { 200: { description: 'Members', schema: paged(MemberWire) } },
    async handle({ em, query, deps, subject: access }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: selfOr('listMembers') },
    responses: { 200: { description: 'The member', schema: MemberWire } },
    async handle({ em, params, deps, subject: access }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageMembers' },
    responses: { 200: { description: 'The member', schema: MemberWire } },
    async handle({ em, params, body, deps, subject: access }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: selfOr('manageMembers') },
    responses: { 204: { description: 'Removed, or was not a member' } },
    async handle({ em, params, subject: access }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'ping' },
    responses: { 200: { description: 'Recorded', schema: PingResponse } },
    async handle({ em, subject: access }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageSso' },
    responses: { 200: { description: 'The member', schema: MemberWire } },
    async handle({ em, params, deps, subject: access }) {
      const member = await setSsoMember(em, access.organization, params.userId);
      return { status: 200, body: await presentOneMember(em, member, deps.urls) };
    },
  }),
];
