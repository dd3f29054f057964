import type { Team } from '../entities/team.entity.ts';
import { authorize, rule, type Resource, type Rules } from '../policy/authorize.ts';
import type { OrgView } from './org-view.ts';
import { loadOrgView } from './org-view.ts';
import { organizationRules } from './organization.policy.ts';
import { getTeam, isTeamOwner } from './teams.ts';

/** A team as seen by a caller: their organization access and whether they own the team. */
export type TeamView = { org: OrgView; isOwner: boolean };

export const teamRules = {
  view: rule<TeamView>('member with an organization role (not a guest)', (t) => organizationRules.listTeams(t.org)),
  admin: rule<TeamView>('organization admin or owner of the team', (t) => organizationRules.admin(t.org) || t.isOwner),
} satisfies Rules<TeamView>;

export const TEAM_PERMISSION_KEYS = ['admin', 'view'] as const;

export type LoadedTeam = { org: OrgView; team: Team; access: TeamView };

/**
 * A team of an organization the caller belongs to. Guests may not look at teams at all,
 * so for them the answer is 403 before any team id is looked up (an id reveals nothing).
 */
export const teamResource: Resource<LoadedTeam, TeamView, { params: { organizationId: string; teamId: string } }> = {
  name: 'team',
  async load(em, actor, { params }) {
    const org = await loadOrgView(em, actor, params.organizationId);
    authorize(organizationRules, org, 'listTeams');
    const team = await getTeam(em, org.organization, params.teamId);
    return { org, team, access: { org, isOwner: await isTeamOwner(em, team, org.member) } };
  },
  view: (t) => t.access,
};
