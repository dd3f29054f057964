import type { EntityManager } from '@mikro-orm/postgresql';
import { CommentReaction } from '../entities/comment-reaction.entity.ts';
import type { User } from '../entities/user.entity.ts';

export type ReactionChange = { addedReactions?: string[] | undefined; removedReactions?: string[] | undefined };
export type ReactionSummary = { emoji: string; users: Array<{ user: User; reactedAt: Date }> };

/**
 * The caller's reactions added and removed: one row per user and emoji, so adding one twice
 * (or twenty users at once) counts each user once. The caller holds the comment (holdComment).
 */
export async function applyReactions(em: EntityManager, commentId: string, user: User, change: ReactionChange, now: Date): Promise<void> {
  const added = [...new Set(change.addedReactions ?? [])];
  const removed = [...new Set(change.removedReactions ?? [])];
  if (added.length) {
    const rows = added.map((emoji) => ({ comment: commentId, user: user.id, emoji, reactedAt: now }));
    await em.createQueryBuilder(CommentReaction).insert(rows).onConflict(['comment', 'user', 'emoji']).ignore().execute();
  }
  if (removed.length) await em.nativeDelete(CommentReaction, { comment: commentId, user: user.id, emoji: { $in: removed } });
}

/** Reactions of each comment, grouped by emoji in the order they were first used; users in the order they reacted. */
export async function reactionsOf(em: EntityManager, commentIds: string[]): Promise<Map<string, ReactionSummary[]>> {
  const out = new Map<string, ReactionSummary[]>();
  if (commentIds.length === 0) return out;
  const rows = await em.find(
    CommentReaction,
    { comment: { $in: commentIds } },
    { populate: ['user'], orderBy: { reactedAt: 'asc', user: 'asc', emoji: 'asc' } },
  );
  for (const row of rows) {
    const list = out.get(row.comment.id) ?? [];
    let summary = list.find((s) => s.emoji === row.emoji);
    if (!summary) list.push((summary = { emoji: row.emoji, users: [] }));
    summary.users.push({ user: row.user.getEntity(), reactedAt: row.reactedAt });
    out.set(row.comment.id, list);
  }
  return out;
}
