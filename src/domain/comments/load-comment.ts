import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor.ts';
import type { ContentView } from '../content/content.policy.ts';
import { Comment } from '../entities/comment.entity.ts';
import type { Resource } from '../policy/authorize.ts';
import { notFound } from '../shared/errors.ts';
import type { CommentView } from './comment.policy.ts';
import type { CommentScope } from './comment-scope.ts';

/** A thread of a scope, with what the caller may do on it. */
export type LoadedThread = CommentScope & { thread: Comment; commentView: CommentView };
/** A reply in a thread; the view is the reply's (its author, not the thread's). */
export type LoadedReply = LoadedThread & { reply: Comment };

export function commentView(scope: { view: ContentView }, comment: Comment, actor: Actor): CommentView {
  return { ...scope.view, author: actor.kind === 'user' && comment.author.id === actor.user.id };
}

/** Scoping conditions: the space, and its change request or none (a space's comments are not its change requests'). */
export function inScope(scope: CommentScope) {
  return { space: scope.space.id, changeRequest: scope.changeRequest?.id ?? null };
}

export async function findThread(em: EntityManager, scope: CommentScope, commentId: string): Promise<Comment> {
  const thread = await em.findOne(Comment, { id: commentId, parent: null, ...inScope(scope) }, { populate: ['author', 'resolvedBy'] });
  if (!thread) throw notFound('Comment');
  return thread;
}

async function findReply(em: EntityManager, thread: Comment, replyId: string): Promise<Comment> {
  const reply = await em.findOne(Comment, { id: replyId, parent: thread.id }, { populate: ['author'] });
  if (!reply) throw notFound('Comment reply');
  return reply;
}

type ThreadInput = { params: { commentId: string } };
type ReplyInput = { params: { commentId: string; commentReplyId: string } };

/** The thread named by `commentId` in the scope `scopeResource` loads; 404 when it is not there. */
export function threadResource<I>(scopeResource: Resource<CommentScope, ContentView, I>): Resource<LoadedThread, CommentView, I & ThreadInput> {
  return {
    name: 'comment',
    async load(em, actor, input) {
      const scope = await scopeResource.load(em, actor, input);
      const thread = await findThread(em, scope, input.params.commentId);
      return { ...scope, thread, commentView: commentView(scope, thread, actor) };
    },
    view: (t) => t.commentView,
  };
}

/** The reply named by `commentReplyId` in its thread; 404 when either is not there. */
export function replyResource<I>(scopeResource: Resource<CommentScope, ContentView, I>): Resource<LoadedReply, CommentView, I & ReplyInput> {
  const threads = threadResource(scopeResource);
  return {
    name: 'comment reply',
    async load(em, actor, input) {
      const loaded = await threads.load(em, actor, input);
      const reply = await findReply(em, loaded.thread, input.params.commentReplyId);
      return { ...loaded, reply, commentView: commentView(loaded, reply, actor) };
    },
    view: (r) => r.commentView,
  };
}
