import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../domain/auth/actor.ts';
import { Team } from '../../domain/entities/team.entity.ts';
import { getMember } from '../../domain/organizations/members.ts';
import { loadOrgAccess } from '../../domain/organizations/org-access.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import { teamRules } from '../../domain/organizations/team.policy.ts';
import {
  changeTeamMembers,
  createTeam,
  getTeam,
  isTeamOwner,
  listMemberTeams,
  listTeamMembers,
  listTeams,
  removeTeamMember,
} from '../../domain/organizations/teams.ts';
import { authorize } from '../../domain/policy/authorize.ts';
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
  TeamSchema,
  UpdateTeamBody,
  UpdateTeamMembersBody,
} from './teams.schema.ts';

const tags = ['teams'];

/** Loads a team of an organization the caller belongs to, with what the caller may do to it. */
async function loadTeam(em: EntityManager, actor: Actor, organizationId: string, teamId: string) {
  const org = await loadOrgAccess(em, actor, organizationId);
  authorize(organizationRules, org, 'listTeams');
  const team = await getTeam(em, org.organization, teamId);
  return { org, team, access: { org, isOwner: await isTeamOwner(em, team, org.member) } };
}

export const teamsRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/teams',
    operationId: 'listTeamsInOrganizationById',
    summary: 'Teams of an organization',
    tags,
    params: OrgParams,
    query: ListTeamsQuery,
    responses: { 200: { description: 'Teams', schema: paged(TeamSchema) } },
    async handle({ actor, em, params, query }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'listTeams');
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
    responses: { 201: { description: 'The new team', schema: TeamSchema } },
    async handle({ actor, em, params, body, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'ownTeam');
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
    responses: { 200: { description: 'The team', schema: TeamSchema } },
    async handle({ actor, em, params }) {
      const { org, team } = await loadTeam(em, actor, params.organizationId, params.teamId);
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
    responses: { 200: { description: 'The team', schema: TeamSchema } },
    async handle({ actor, em, params, body }) {
      const { org, team, access } = await loadTeam(em, actor, params.organizationId, params.teamId);
      authorize(teamRules, access, 'admin');
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
    responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such team' } },
    async handle({ actor, em, params }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'ownTeam');
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
    responses: { 200: { description: 'Team members', schema: paged(TeamMemberItem) } },
    async handle({ actor, em, params, query, deps }) {
      const { team } = await loadTeam(em, actor, params.organizationId, params.teamId);
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
    responses: { 204: { description: 'Changed' } },
    async handle({ actor, em, params, body }) {
      const { team, access } = await loadTeam(em, actor, params.organizationId, params.teamId);
      authorize(teamRules, access, 'admin');
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
    responses: { 204: { description: 'Added' } },
    async handle({ actor, em, params, body }) {
      const { team, access } = await loadTeam(em, actor, params.organizationId, params.teamId);
      authorize(teamRules, access, 'admin');
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
    responses: { 205: { description: 'Removed' }, 204: { description: 'Was not in the team' } },
    async handle({ actor, em, params }) {
      const { team, access } = await loadTeam(em, actor, params.organizationId, params.teamId);
      authorize(teamRules, access, 'admin');
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
    responses: { 200: { description: 'Teams with the member’s role', schema: paged(MemberTeamItem) } },
    async handle({ actor, em, params, query }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      const self = actor.kind === 'user' && actor.user.id === params.userId;
      if (!self) authorize(organizationRules, org, 'listTeams');
      const member = await getMember(em, org.organization, params.userId);
      const page = await listMemberTeams(em, member, query, query);
      const teams = await presentTeams(em, page.items.map((tm) => tm.team), org);
      const items = page.items.map((tm, i) => ({ team: teams[i]!, member: { role: tm.role } }));
      return { status: 200, body: { ...page, items } };
    },
  }),
];
