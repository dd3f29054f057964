import type { EntityManager } from '@mikro-orm/postgresql';
import { assertNotDeleted } from '../content/spaces.ts';
import { Comment } from '../entities/comment.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { storedBody, type CommentBodyInput } from './comment-body.ts';
import { holdComment } from './comment-locks.ts';
import { editComment } from './edit-comment.ts';
import { resolution } from './threads.ts';
import type { LoadedReply, LoadedThread } from './load-comment.ts';
import type { ReactionChange } from './reactions.ts';

/** `resolved` (accepted by the change-request reply update, as GitBook's) resolves or reopens the reply's thread. */
export type ReplyPatch = ReactionChange & { body?: CommentBodyInput | undefined; resolved?: boolean | undefined };

/**
 * Adds a reply to a thread. The thread is held while the reply is written: a delete of the
 * thread at the same moment either waits and takes the reply with it, or wins and this
 * answers 404 — no reply outlives its thread.
 */
export async function postReply(em: EntityManager, loaded: LoadedThread, author: User, body: CommentBodyInput, now: Date): Promise<Comment> {
  assertNotDeleted(loaded.space);
  await holdComment(em, loaded.thread.id, 'Comment');
  const reply = em.create(Comment, { space: loaded.space, changeRequest: loaded.changeRequest, parent: loaded.thread, author, ...storedBody(body), postedAt: now });
  await em.flush();
  return reply;
}

/** Edits a reply's body (its author's right) and applies the caller's reactions. */
export async function updateReply(em: EntityManager, loaded: LoadedReply, caller: User, patch: ReplyPatch, now: Date): Promise<void> {
  assertNotDeleted(loaded.space);
  // The thread first, then the reply: the order a thread delete takes them in.
  const { resolved, ...edit } = patch;
  const row = resolution(resolved, caller, now);
  if (row) await editComment(em, loaded.thread.id, 'Comment', caller, { row }, now);
  await editComment(em, loaded.reply.id, 'Comment reply', caller, edit, now);
}

/** False when the reply was already gone. */
export async function deleteReply(em: EntityManager, loaded: LoadedReply): Promise<boolean> {
  assertNotDeleted(loaded.space);
  return (await em.nativeDelete(Comment, { id: loaded.reply.id, parent: loaded.thread.id })) > 0;
}
