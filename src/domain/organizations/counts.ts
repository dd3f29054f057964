import type { EntityManager } from '@mikro-orm/postgresql';
import { TeamMembership } from '../entities/team-membership.entity.ts';

/**
 * Counts shown on members and teams, computed in one grouped query per page rather than
 * cached on the rows, so they are always true after a membership change.
 */
export async function teamCountsByMember(em: EntityManager, memberIds: string[]): Promise<Map<string, number>> {
  return groupCount(em, 'member', memberIds);
}

export async function memberCountsByTeam(em: EntityManager, teamIds: string[]): Promise<Map<string, number>> {
  return groupCount(em, 'team', teamIds);
}

async function groupCount(em: EntityManager, key: 'member' | 'team', ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const rows = await em
    .createQueryBuilder(TeamMembership, 'tm')
    .select([key, 'count(*) as n'])
    .where({ [key]: { $in: ids } })
    .groupBy(key)
    .execute<{ member?: string; team?: string; n: string }[]>('all', false);
  for (const row of rows) counts.set(String(row[`${key}_id` as 'member'] ?? row[key]), Number(row.n));
  return counts;
}
