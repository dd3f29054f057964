import { ref } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findInTree, loadRevision, loadTree } from '../content/revision-reader.ts';
import { assertNotDeleted } from '../content/spaces.ts';
import type { ChangeRequestReview } from '../entities/change-request-review.entity.ts';
import { Comment, type TableCellTarget } from '../entities/comment.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { BadRequestError } from '../shared/errors.ts';
import { storedBody, type CommentBodyInput } from './comment-body.ts';
import { scopeRevision, type CommentScope } from './comment-scope.ts';
import { editComment } from './edit-comment.ts';
import type { LoadedThread } from './load-comment.ts';
import type { ReactionChange } from './reactions.ts';

export type NewThread = {
  body: CommentBodyInput;
  page?: string | undefined;
  node?: string | undefined;
  tableCell?: TableCellTarget | undefined;
  /** The review this thread is the comment of: it is then posted on the reviewed revision. */
  review?: ChangeRequestReview | undefined;
};
export type ThreadPatch = ReactionChange & { body?: CommentBodyInput | undefined; resolved?: boolean | undefined };

/** Opens a thread on the scope's current revision; a target page must be one of that revision's pages. */
export async function postThread(em: EntityManager, scope: CommentScope, author: User, input: NewThread, now: Date): Promise<Comment> {
  assertNotDeleted(scope.space);
  const revision = input.review?.revision ?? scopeRevision(scope);
  if (input.page !== undefined) await assertPageIn(em, scope, revision, input.page);
  const thread = em.create(Comment, {
    space: scope.space,
    changeRequest: scope.changeRequest,
    author,
    ...storedBody(input.body),
    revision,
    pageId: input.page ?? null,
    nodeId: input.node ?? null,
    tableCell: input.tableCell ?? null,
    review: input.review ?? null,
    postedAt: now,
  });
  await em.flush();
  return thread;
}

async function assertPageIn(em: EntityManager, scope: CommentScope, revisionId: string, pageId: string) {
  const revision = await loadRevision(em, scope.space, revisionId);
  if (!findInTree(await loadTree(em, revision.pages), pageId)) throw new BadRequestError(`body.page: no page "${pageId}" in this content`);
}

/**
 * Edits, resolves or reopens a thread and applies the caller's reactions. Status changes
 * under the row lock, so concurrent resolves and reopens end in one of the two states with
 * its fields consistent (`resolvedAt`/`resolvedBy` set exactly when resolved); resolving a
 * resolved thread keeps who resolved it first.
 */
export async function updateThread(em: EntityManager, loaded: LoadedThread, caller: User, patch: ThreadPatch, now: Date): Promise<void> {
  assertNotDeleted(loaded.space);
  await editComment(em, loaded.thread.id, 'Comment', caller, { ...patch, row: resolution(patch.resolved, caller, now) }, now);
}

/** The change `resolved` asks of a thread's row: none when it already is in that state. */
export function resolution(resolved: boolean | undefined, caller: User, now: Date): ((locked: Comment) => void) | undefined {
  if (resolved === undefined) return undefined;
  return (locked) => {
    if (resolved === (locked.status === 'resolved')) return;
    locked.status = resolved ? 'resolved' : 'open';
    locked.resolvedAt = resolved ? now : null;
    locked.resolvedBy = resolved ? ref(caller) : null;
  };
}

/** Deletes a thread with its replies and reactions (cascades). False when it was already gone. */
export async function deleteThread(em: EntityManager, loaded: LoadedThread): Promise<boolean> {
  assertNotDeleted(loaded.space);
  return (await em.nativeDelete(Comment, { id: loaded.thread.id, parent: null })) > 0;
}
