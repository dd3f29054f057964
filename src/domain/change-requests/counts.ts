import type { EntityManager } from '@mikro-orm/postgresql';
import { openChangeRequestComments } from '../comments/open-counts.ts';

/** The counts a ChangeRequest body shows, computed from the rows they count. */
export type ChangeRequestCounts = { comments: number };

/** Counts for many change requests at once (a page of a list costs one query per kind). */
export async function loadChangeRequestCounts(em: EntityManager, ids: string[]): Promise<Map<string, ChangeRequestCounts>> {
  const comments = await openChangeRequestComments(em, ids);
  return new Map(ids.map((id) => [id, { comments: comments.get(id) ?? 0 }]));
}
