import type { EntityManager } from '@mikro-orm/postgresql';

/*
 * "Opened comments": threads whose status is open, replies not counted. A space's count is
 * of its own discussion (what its comment list shows), a change request's of its own.
 * Counted from the rows at read time, one grouped query for a whole page of spaces or
 * change requests, so the figures are exact whatever was posted, resolved or deleted.
 */

export async function openSpaceComments(em: EntityManager, spaceIds: string[]): Promise<Map<string, number>> {
  return openThreadCounts(em, 'space_id', spaceIds, 'and change_request_id is null');
}

export async function openChangeRequestComments(em: EntityManager, changeRequestIds: string[]): Promise<Map<string, number>> {
  return openThreadCounts(em, 'change_request_id', changeRequestIds, '');
}

async function openThreadCounts(em: EntityManager, key: 'space_id' | 'change_request_id', ids: string[], also: string) {
  const out = new Map<string, number>();
  if (ids.length === 0) return out;
  const rows = await em.execute<Array<{ id: string; open: string }>>(
    `select ${key} as id, count(*) as open from comments
      where ${key} in (?) and parent_id is null and status = 'open' ${also} group by ${key}`,
    [ids],
  );
  for (const row of rows) out.set(row.id, Number(row.open));
  return out;
}
