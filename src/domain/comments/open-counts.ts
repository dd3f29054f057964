import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Open threads (the `comments` count of a space: "opened comments") of each space, among the
 * space's own comments. Counted from the rows at read time, so the figure is exact whatever
 * was posted, resolved or deleted concurrently.
 */
export async function openSpaceComments(em: EntityManager, spaceIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>(spaceIds.map((id) => [id, 0]));
  if (spaceIds.length === 0) return out;
  const rows = await em.execute<Array<{ space_id: string; open: string }>>(
    `select space_id, count(*) as open from comments
      where space_id in (?) and parent_id is null and status = 'open' group by space_id`,
    [spaceIds],
  );
  for (const row of rows) out.set(row.space_id, Number(row.open));
  return out;
}
