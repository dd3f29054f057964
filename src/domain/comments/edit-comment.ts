import type { EntityManager } from '@mikro-orm/postgresql';
import type { Comment } from '../entities/comment.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { storedBody, type CommentBodyInput } from './comment-body.ts';
import { holdComment, lockComment } from './comment-locks.ts';
import { applyReactions, type ReactionChange } from './reactions.ts';

export type CommentEdit = ReactionChange & {
  body?: CommentBodyInput | undefined;
  /** Further changes to the row itself (a thread's status), made under its lock. */
  row?: ((locked: Comment) => void) | undefined;
};

/**
 * One update of a thread or reply, in the route's transaction: changes to the row under its
 * lock (or, for reactions alone, the row held against deletion), then the caller's reactions.
 */
export async function editComment(em: EntityManager, commentId: string, what: string, caller: User, edit: CommentEdit, now: Date): Promise<void> {
  if (edit.body !== undefined || edit.row) {
    const locked = await lockComment(em, commentId, what);
    if (edit.body !== undefined) Object.assign(locked, storedBody(edit.body), { editedAt: now });
    edit.row?.(locked);
    await em.flush();
  } else {
    await holdComment(em, commentId, what);
  }
  await applyReactions(em, commentId, caller, edit, now);
}
