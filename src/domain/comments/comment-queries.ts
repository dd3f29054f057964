import type { EntityManager } from '@mikro-orm/postgresql';
import { Comment, type CommentStatus } from '../entities/comment.entity.ts';
import { User } from '../entities/user.entity.ts';
import { byTime, findPage, type Page, type PageRequest } from '../shared/paging.ts';
import type { CommentScope } from './comment-scope.ts';
import { inScope } from './load-comment.ts';

export type ThreadFilters = {
  status: CommentStatus | 'all';
  order: 'asc' | 'desc';
  targetPage?: string | undefined;
  authors?: string[] | undefined;
};

/** A scope's threads, newest first unless asked otherwise. */
export async function listThreads(em: EntityManager, scope: CommentScope, filters: ThreadFilters, page: PageRequest): Promise<Page<Comment>> {
  const where = {
    ...inScope(scope),
    parent: null,
    ...(filters.status === 'all' ? {} : { status: filters.status }),
    ...(filters.targetPage !== undefined ? { pageId: filters.targetPage } : {}),
    ...(filters.authors?.length ? { author: { $in: filters.authors } } : {}),
  };
  return findPage(em, Comment, where, byTime('postedAt', filters.order), page, { populate: ['author', 'resolvedBy'] });
}

/** A thread's replies in the order they were posted. */
export async function listReplies(em: EntityManager, thread: Comment, page: PageRequest): Promise<Page<Comment>> {
  return findPage(em, Comment, { parent: thread.id }, byTime('postedAt', 'asc'), page, { populate: ['author'] });
}

export type Replier = { user: User; count: number; updatedAt: Date };
export type ThreadStats = { replies: number; repliers: Replier[] };

type ReplierRow = { parent_id: string; author_id: string; count: string; updated_at: Date };

/**
 * How many replies each thread has and who wrote them (replies per author, latest first),
 * counted from the rows themselves in one query: exact under any number of concurrent replies.
 */
export async function threadStats(em: EntityManager, threadIds: string[]): Promise<Map<string, ThreadStats>> {
  const out = new Map<string, ThreadStats>(threadIds.map((id) => [id, { replies: 0, repliers: [] }]));
  if (threadIds.length === 0) return out;
  const rows = await em.execute<ReplierRow[]>(
    `select parent_id, author_id, count(*) as count, max(coalesce(edited_at, posted_at)) as updated_at
       from comments where parent_id in (?) group by parent_id, author_id order by updated_at desc, author_id`,
    [threadIds],
  );
  const users = new Map((await em.find(User, { id: { $in: [...new Set(rows.map((r) => r.author_id))] } })).map((u) => [u.id, u]));
  for (const row of rows) {
    const stats = out.get(row.parent_id)!;
    const count = Number(row.count);
    stats.replies += count;
    stats.repliers.push({ user: users.get(row.author_id)!, count, updatedAt: new Date(row.updated_at) });
  }
  return out;
}
