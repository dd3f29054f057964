import type { EntityManager } from '@mikro-orm/postgresql';
import { openSpaceComments } from '../comments/open-counts.ts';

/** The counts a Space body shows, computed from the rows they count so they cannot drift. */
export type SpaceCounts = { comments: number; changeRequests: number; changeRequestsOpen: number; changeRequestsDraft: number };

const ZERO: SpaceCounts = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };

/** Counts for many spaces in one query per kind (a page of a space list costs three queries). */
export async function loadSpaceCounts(em: EntityManager, spaceIds: string[]): Promise<Map<string, SpaceCounts>> {
  const out = new Map(spaceIds.map((id) => [id, { ...ZERO }]));
  if (spaceIds.length === 0) return out;
  const rows = await em.execute<{ space_id: string; total: string; open: string; draft: string }[]>(
    `select space_id, count(*) as total,
            count(*) filter (where status = 'open') as open,
            count(*) filter (where status = 'draft') as draft
       from change_requests where space_id in (?) group by space_id`,
    [spaceIds],
  );
  for (const r of rows) {
    const counts = out.get(r.space_id)!;
    counts.changeRequests = Number(r.total);
    counts.changeRequestsOpen = Number(r.open);
    counts.changeRequestsDraft = Number(r.draft);
  }
  for (const [spaceId, open] of await openSpaceComments(em, spaceIds)) out.get(spaceId)!.comments = open;
  return out;
}

export async function loadOneSpaceCounts(em: EntityManager, spaceId: string): Promise<SpaceCounts> {
  return (await loadSpaceCounts(em, [spaceId])).get(spaceId)!;
}
