import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Counts shown on members and teams, computed in one grouped query per page rather than
 * cached on the rows, so they are always true after a membership change.
 */
export async function teamCountsByMember(em: EntityManager, memberIds: string[]): Promise<Map<string, number>> {
  return groupCount(em, 'member', memberIds);
}

/**
 * Spaces of one organization shared directly with each user (explicit grants), for
 * members' `spaces` counts. A user belongs to several organizations: grants elsewhere are
 * none of this one's business.
 */
export async function spaceCountsByUser(em: EntityManager, organizationId: string, userIds: string[]): Promise<Map<string, number>> {
  return grantCount(em, organizationId, 'user_id', userIds);
}

export async function spaceCountsByTeam(em: EntityManager, organizationId: string, teamIds: string[]): Promise<Map<string, number>> {
  return grantCount(em, organizationId, 'team_id', teamIds);
}

async function grantCount(em: EntityManager, organizationId: string, column: 'user_id' | 'team_id', ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const rows = await em
    .getConnection()
    .execute<{ id: string; n: number }[]>(
      `select g.${column} as id, count(distinct g.space_id)::int as n from content_permissions g
       join spaces s on s.id = g.space_id and s.deleted_at is null
       where g.organization_id = ? and g.${column} in (?) group by g.${column}`,
      [organizationId, ids],
    );
  for (const row of rows) counts.set(row.id, row.n);
  return counts;
}

export async function memberCountsByTeam(em: EntityManager, teamIds: string[]): Promise<Map<string, number>> {
  return groupCount(em, 'team', teamIds);
}

async function groupCount(em: EntityManager, key: 'member' | 'team', ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  // The column is picked from two fixed names, never from input.
  const column = key === 'member' ? 'member_id' : 'team_id';
  const rows = await em
    .getConnection()
    .execute<{ id: string; n: number }[]>(
      `select ${column} as id, count(*)::int as n from team_memberships where ${column} in (?) group by ${column}`,
      [ids],
    );
  for (const row of rows) counts.set(row.id, row.n);
  return counts;
}
