import { Team } from '../../domain/entities/team.entity.ts';
import { getMember } from '../../domain/organizations/members.ts';
import { organizationResource, organizationRules, selfOr } from '../../domain/organizations/organization.policy.ts';
import { teamResource, teamRules } from '../../domain/organizations/team.policy.ts';
import {
  changeTeamMembers,
  createTeam,
  listMemberTeams,
  listTeamMembers,
  listTeams,
  removeTeamMember,
} from '../../domain/organizations/teams.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { presentMembers } from '../members/members.presenter.ts';
import { MemberParams, MemberTeamsQuery } from '../members/members.schema.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentTeam, presentTeams } from './teams.presenter.ts';
import {
  AddTeamMemberBody,
  CreateTeamBody,
  ListTeamsQuery,
  MemberTeamItem,
  TeamMemberItem,
  TeamMemberParams,
  TeamParams,
  TeamWire,
  UpdateTeamBody,
  UpdateTeamMembersBody,
} from './teams.schema.ts';

const tags = ['teams'];

export const teamsRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/teams',
    operationId: 'listTeamsInOrganizationById',
    summary: 'Teams of an organization',
    tags,
    params: OrgParams,
    query: ListTeamsQuery,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'listTeams' },
    responses: { 200: { description: 'Teams', schema: paged(TeamWire) } },
    async handle({ em, query, subject: org }) {
      const page = await listTeams(em, org.organization, query, query);
      return { status: 200, body: { ...page, items: await presentTeams(em, page.items, org) } };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/orgs/{organizationId}/teams',
    operationId: 'createOrganizationTeam',
    summary: 'Create a team',
    tags,
    params: OrgParams,
    body: CreateTeamBody,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'ownTeam' },
    responses: { 201: { description: 'The new team', schema: TeamWire } },
    async handle({ em, body, deps, subject: org }) {
      const team = await createTeam(em, org.organization, body);
      const location = deps.urls.location(`/orgs/${org.organization.id}/teams/${team.id}`);
      return { status: 201, body: await presentTeam(em, team, org), location };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/teams/{teamId}',
    operationId: 'getTeamInOrganizationById',
    summary: 'One team',
    tags,
    params: TeamParams,
    load: teamResource,
    authorize: { rules: teamRules, action: 'view' },
    responses: { 200: { description: 'The team', schema: TeamWire } },
    async handle({ em, subject: { org, team } }) {
      return { status: 200, body: await presentTeam(em, team, org) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{organizationId}/teams/{teamId}',
    operationId: 'updateTeamInOrganizationById',
    summary: 'Rename a team',
    tags,
    params: TeamParams,
    body: UpdateTeamBody,
    load: teamResource,
    authorize: { rules: teamRules, action: 'admin' },
    responses: { 200: { description: 'The team', schema: TeamWire } },
    async handle({ em, body, subject: { org, team } }) {
      if (body.title !== undefined) team.title = body.title;
      await em.flush();
      return { status: 200, body: await presentTeam(em, team, org) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{organizationId}/teams/{teamId}',
    operationId: 'removeTeamFromOrganizationById',
    summary: 'Delete a team',
    tags,
    params: TeamParams,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'ownTeam' },
    responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such team' } },
    async handle({ em, params, subject: org }) {
      const deleted = await em.nativeDelete(Team, { id: params.teamId, organization: org.organization });
      return { status: deleted > 0 ? 205 : 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    operationId: 'listTeamMembersInOrganizationById',
    summary: 'Members of a team',
    tags,
    params: TeamParams,
    query: PagingQuery,
    load: teamResource,
    authorize: { rules: teamRules, action: 'view' },
    responses: { 200: { description: 'Team members', schema: paged(TeamMemberItem) } },
    async handle({ em, query, deps, subject: { team } }) {
      const page = await listTeamMembers(em, team, query);
      const members = await presentMembers(em, page.items.map((tm) => tm.member), deps.urls);
      const items = page.items.map((tm, i) => ({
        organization: members[i]!,
        team: { role: tm.role },
        permissions: { view: true },
      }));
      return { status: 200, body: { ...page, items } };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    operationId: 'updateMembersInOrganizationTeam',
    summary: 'Add, remove and change roles of team members',
    tags,
    params: TeamParams,
    body: UpdateTeamMembersBody,
    load: teamResource,
    authorize: { rules: teamRules, action: 'admin' },
    responses: { 204: { description: 'Changed' } },
    async handle({ em, body, subject: { team } }) {
      await changeTeamMembers(em, team, body);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    operationId: 'addMemberToOrganizationTeamById',
    summary: 'Add one member to a team',
    tags,
    params: TeamMemberParams,
    body: AddTeamMemberBody,
    load: teamResource,
    authorize: { rules: teamRules, action: 'admin' },
    responses: { 204: { description: 'Added' } },
    async handle({ em, params, body, subject: { team } }) {
      const role = body?.role;
      await changeTeamMembers(em, team, {
        add: [params.userId],
        ...(role ? { memberships: { [params.userId]: { role } } } : {}),
      });
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    operationId: 'deleteMemberFromOrganizationTeamById',
    summary: 'Remove one member from a team',
    tags,
    params: TeamMemberParams,
    load: teamResource,
    authorize: { rules: teamRules, action: 'admin' },
    responses: { 205: { description: 'Removed' }, 204: { description: 'Was not in the team' } },
    async handle({ em, params, subject: { team } }) {
      return { status: (await removeTeamMember(em, team, params.userId)) ? 205 : 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/members/{userId}/teams',
    operationId: 'listTeamsForOrganizationMember',
    summary: 'Teams a member belongs to',
    tags: ['members'],
    params: MemberParams,
    query: MemberTeamsQuery,
    load: organizationResource,
    authorize: { rules: organizationRules, action: selfOr('listTeams') },
    responses: { 200: { description: 'Teams with the member’s role', schema: paged(MemberTeamItem) } },
    async handle({ em, params, query, subject: org }) {
      const member = await getMember(em, org.organization, params.userId);
      const page = await listMemberTeams(em, member, query, query);
      const teams = await presentTeams(em, page.items.map((tm) => tm.team), org);
      const items = page.items.map((tm, i) => ({ team: teams[i]!, member: { role: tm.role } }));
      return { status: 200, body: { ...page, items } };
    },
  }),
];
