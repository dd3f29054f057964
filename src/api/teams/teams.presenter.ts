import type { EntityManager } from '@mikro-orm/postgresql';
import { TeamMembership } from '../../domain/entities/team-membership.entity.ts';
import type { Team } from '../../domain/entities/team.entity.ts';
import { memberCountsByTeam, spaceCountsByTeam } from '../../domain/organizations/counts.ts';
import type { OrgView } from '../../domain/organizations/org-view.ts';
import { TEAM_PERMISSION_KEYS, teamRules } from '../../domain/organizations/team.policy.ts';
import { permissionsOf } from '../../domain/policy/authorize.ts';
import type { z } from '../http/zod.ts';
import type { TeamWire } from './teams.schema.ts';

type TeamBody = z.infer<typeof TeamWire>;

/** Presents a page of teams with two grouped queries: member counts and the caller's ownerships. */
export async function presentTeams(em: EntityManager, teams: Team[], org: OrgView): Promise<TeamBody[]> {
  const ids = teams.map((t) => t.id);
  const [counts, spaces] = await Promise.all([memberCountsByTeam(em, ids), spaceCountsByTeam(em, org.organization.id, ids)]);
  const owned = org.member
    ? new Set((await em.find(TeamMembership, { team: { $in: ids }, member: org.member, role: 'owner' })).map((tm) => tm.team.id))
    : new Set<string>();
  return teams.map((team) => ({
    object: 'team',
    id: team.id,
    title: team.title,
    members: counts.get(team.id) ?? 0,
    // Spaces shared with the team (explicit grants).
    spaces: spaces.get(team.id) ?? 0,
    createdAt: team.createdAt.toISOString(),
    permissions: permissionsOf(teamRules, { org, isOwner: owned.has(team.id) }, TEAM_PERMISSION_KEYS),
  }));
}

export async function presentTeam(em: EntityManager, team: Team, org: OrgView): Promise<TeamBody> {
  const [body] = await presentTeams(em, [team], org);
  return body!;
}
