import type { EntityManager } from '@mikro-orm/postgresql';
import { Member } from '../entities/member.entity.ts';
import type { Organization } from '../entities/organization.entity.ts';
import { TeamMembership, type TeamRole } from '../entities/team-membership.entity.ts';
import { Team } from '../entities/team.entity.ts';
import { BadRequestError, notFound } from '../shared/errors.ts';
import { byTime, findPage, type PageRequest } from '../shared/paging.ts';
import { escapeLike } from './members.ts';

export async function listTeams(
  em: EntityManager,
  organization: Organization,
  filters: { title?: string; owner?: string },
  page: PageRequest,
) {
  const where: Record<string, unknown> = { organization };
  if (filters.title) where.title = { $ilike: `%${escapeLike(filters.title)}%` };
  if (filters.owner) {
    // "Teams that member can manage": all of them for an admin, else the ones they own.
    const owner = await em.findOne(Member, { organization, user: filters.owner, disabled: false });
    if (!owner) return { items: [], count: 0 };
    if (owner.role !== 'admin') where.id = { $in: await ownedTeamIds(em, owner) };
  }
  return findPage(em, Team, where, byTime('createdAt', 'desc'), page);
}

export async function getTeam(em: EntityManager, organization: Organization, teamId: string): Promise<Team> {
  const team = await em.findOne(Team, { id: teamId, organization });
  if (!team) throw notFound('Team');
  return team;
}

export async function createTeam(em: EntityManager, organization: Organization, input: { title: string; members?: string[] }) {
  const members = await resolveMembers(em, organization, input.members ?? []);
  const team = em.create(Team, { organization, title: input.title });
  for (const member of members) em.create(TeamMembership, { team, member, role: 'member' });
  await em.flush();
  return team;
}

export type TeamMembersChange = { add?: string[]; remove?: string[]; memberships?: Record<string, { role: TeamRole }> };

/** Adds, removes and re-roles team members in one transaction; unknown users are a 400 and change nothing. */
export async function changeTeamMembers(em: EntityManager, team: Team, change: TeamMembersChange) {
  const organization = team.organization.getEntity();
  const roleChanges = Object.entries(change.memberships ?? {});
  const toAdd = await resolveMembers(em, organization, [...(change.add ?? []), ...roleChanges.map(([id]) => id)]);
  const toRemove = await resolveMembers(em, organization, change.remove ?? []);
  const byUser = new Map(toAdd.map((m) => [m.user.id, m]));
  const existing = await em.find(TeamMembership, { team, member: { $in: [...toAdd, ...toRemove] } });
  const existingByMember = new Map(existing.map((tm) => [tm.member.id, tm]));

  for (const member of byUser.values()) {
    const role = change.memberships?.[member.user.id]?.role;
    const current = existingByMember.get(member.id);
    if (current) {
      if (role) current.role = role;
    } else if (change.add?.includes(member.user.id) || role) {
      em.create(TeamMembership, { team, member, role: role ?? 'member' });
    }
  }
  for (const member of toRemove) {
    const current = existingByMember.get(member.id);
    if (current) em.remove(current);
  }
  await em.flush();
}

export async function removeTeamMember(em: EntityManager, team: Team, userId: string): Promise<boolean> {
  const membership = await em.findOne(TeamMembership, { team, member: { user: userId } });
  if (!membership) return false;
  await em.remove(membership).flush();
  return true;
}

export async function listTeamMembers(em: EntityManager, team: Team, page: PageRequest) {
  return findPage(
    em,
    TeamMembership,
    { team },
    byTime('createdAt', 'asc'),
    page,
    { populate: ['member', 'member.user'] },
  );
}

/** Teams a member belongs to, with their role in each, for GET members/{userId}/teams. */
export async function listMemberTeams(em: EntityManager, member: Member, filters: { title?: string }, page: PageRequest) {
  const where: Record<string, unknown> = { member };
  if (filters.title) where.team = { title: { $ilike: `%${escapeLike(filters.title)}%` } };
  return findPage(
    em,
    TeamMembership,
    where,
    byTime('createdAt', 'desc'),
    page,
    { populate: ['team'] },
  );
}

export async function isTeamOwner(em: EntityManager, team: Team, member: Member | null): Promise<boolean> {
  if (!member) return false;
  return (await em.count(TeamMembership, { team, member, role: 'owner' })) > 0;
}

async function ownedTeamIds(em: EntityManager, member: Member): Promise<string[]> {
  const owned = await em.find(TeamMembership, { member, role: 'owner' }, { fields: ['team'] });
  return owned.map((tm) => tm.team.id);
}

/** Maps user ids to this organization's members; any id that is not one is a 400 naming it. */
async function resolveMembers(em: EntityManager, organization: Organization, userIds: string[]): Promise<Member[]> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return [];
  const members = await em.find(Member, { organization, user: { $in: unique }, disabled: false }, { populate: ['user'] });
  const found = new Set(members.map((m) => m.user.id));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw new BadRequestError(`members: not members of this organization: ${missing.join(', ')}`);
  return members;
}
