import type { EntityManager } from '@mikro-orm/postgresql';
import type { Comment } from '../entities/comment.entity.ts';
import { threadStats, type ThreadStats } from './comment-queries.ts';
import { reactionsOf, type ReactionSummary } from './reactions.ts';

/** What a presented comment shows beyond its row: reactions, and for threads their replies. Two queries for a whole page. */
export type CommentDetails = { reactions: Map<string, ReactionSummary[]>; stats: Map<string, ThreadStats> };

export async function commentDetails(em: EntityManager, comments: Comment[], kind: 'threads' | 'replies'): Promise<CommentDetails> {
  const ids = comments.map((c) => c.id);
  const [reactions, stats] = await Promise.all([reactionsOf(em, ids), kind === 'threads' ? threadStats(em, ids) : new Map<string, ThreadStats>()]);
  return { reactions, stats };
}
