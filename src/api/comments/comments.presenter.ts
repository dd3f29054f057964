import { bodyIn, type BodyFormat } from '../../domain/comments/comment-body.ts';
import type { CommentDetails } from '../../domain/comments/comment-details.ts';
import { COMMENT_PERMISSION_KEYS, commentRules } from '../../domain/comments/comment.policy.ts';
import type { CommentScope } from '../../domain/comments/comment-scope.ts';
import { commentView } from '../../domain/comments/load-comment.ts';
import type { Actor } from '../../domain/auth/actor.ts';
import type { Comment } from '../../domain/entities/comment.entity.ts';
import { permissionsOf } from '../../domain/policy/authorize.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import { presentUser } from '../users/user.presenter.ts';
import type { CommentReplyWire, CommentWire } from './comments.schema.ts';

/** Who is looking, in which body format, and the page's reactions and reply counts. */
export type CommentContext = { scope: CommentScope; actor: Actor; format: BodyFormat; urls: Urls; details: CommentDetails };

export function presentThread(thread: Comment, ctx: CommentContext): z.infer<typeof CommentWire> {
  const stats = ctx.details.stats.get(thread.id) ?? { replies: 0, repliers: [] };
  const base = {
    object: 'comment' as const,
    ...posted(thread, ctx, threadPath(ctx.scope, thread.id)),
    replies: stats.replies,
    repliers: stats.repliers.map((r) => ({ updatedAt: r.updatedAt.toISOString(), count: r.count, user: presentUser(r.user, ctx.urls) })),
    target: {
      space: ctx.scope.space.id,
      // Threads always record the revision they were posted on.
      revision: thread.revision ?? ctx.scope.space.revision,
      ...(ctx.scope.changeRequest ? { changeRequest: ctx.scope.changeRequest.id } : {}),
      ...(thread.review ? { review: thread.review.id } : {}),
      ...(thread.pageId ? { page: { id: thread.pageId } } : {}),
      ...(thread.nodeId ? { node: { id: thread.nodeId } } : {}),
      ...(thread.tableCell ? { tableCell: thread.tableCell } : {}),
    },
  };
  if (thread.status === 'resolved' && thread.resolvedAt && thread.resolvedBy) {
    return { ...base, status: 'resolved', resolvedAt: thread.resolvedAt.toISOString(), resolvedBy: presentUser(thread.resolvedBy.getEntity(), ctx.urls) };
  }
  return { ...base, status: 'open' };
}

export function presentReply(reply: Comment, ctx: CommentContext): z.infer<typeof CommentReplyWire> {
  return { object: 'comment-reply', ...posted(reply, ctx, `${threadPath(ctx.scope, reply.parent!.id)}/replies/${reply.id}`) };
}

/** Fields threads and replies share. */
function posted(comment: Comment, ctx: CommentContext, path: string) {
  return {
    id: comment.id,
    postedBy: presentUser(comment.author.getEntity(), ctx.urls),
    postedAt: comment.postedAt.toISOString(),
    ...(comment.editedAt ? { editedAt: comment.editedAt.toISOString() } : {}),
    reactions: (ctx.details.reactions.get(comment.id) ?? []).map((r) => ({
      emoji: r.emoji,
      count: r.users.length,
      users: r.users.map((u) => ({ user: presentUser(u.user, ctx.urls), reactedAt: u.reactedAt.toISOString() })),
    })),
    body: bodyIn(comment, ctx.format),
    urls: { location: ctx.urls.location(path) },
    permissions: permissionsOf(commentRules, commentView(ctx.scope, comment, ctx.actor), COMMENT_PERMISSION_KEYS),
  };
}

function threadPath(scope: CommentScope, threadId: string): string {
  const base = scope.changeRequest ? `/spaces/${scope.space.id}/change-requests/${scope.changeRequest.id}` : `/spaces/${scope.space.id}`;
  return `${base}/comments/${threadId}`;
}
