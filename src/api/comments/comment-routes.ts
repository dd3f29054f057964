import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../domain/auth/actor.ts';
import type { BodyFormat, CommentBodyInput } from '../../domain/comments/comment-body.ts';
import { commentDetails } from '../../domain/comments/comment-details.ts';
import { commentRules, updateCommentAction } from '../../domain/comments/comment.policy.ts';
import { listReplies, listThreads } from '../../domain/comments/comment-queries.ts';
import type { CommentScope } from '../../domain/comments/comment-scope.ts';
import { replyResource, threadResource } from '../../domain/comments/load-comment.ts';
import { deleteReply, postReply, updateReply } from '../../domain/comments/replies.ts';
import { deleteThread, postThread, updateThread } from '../../domain/comments/threads.ts';
import { spaceRules, type ContentView } from '../../domain/content/content.policy.ts';
import type { Comment } from '../../domain/entities/comment.entity.ts';
import type { Resource } from '../../domain/policy/authorize.ts';
import type { ApiDeps } from '../context.ts';
import { Id, paged } from '../http/common.schema.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { z } from '../http/zod.ts';
import { presentReply, presentThread, type CommentContext } from './comments.presenter.ts';
import {
  CommentReplyWire,
  CommentWire,
  FormatQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  UpdateCommentBody,
  type WrittenBody,
} from './comments.schema.ts';

type Operation = 'list' | 'post' | 'get' | 'update' | 'delete' | 'listReplies' | 'postReply' | 'getReply' | 'updateReply' | 'deleteReply';

/**
 * Where a family of comment operations lives: a space's own discussion or a change
 * request's. Both families run the same routes; they differ in path, operation ids, the
 * loader of their scope and GitBook's reply-update body.
 */
export type CommentFamily = {
  /** The scope's path below /v1, e.g. `/spaces/{spaceId}`. */
  base: string;
  /** What the summaries call the scope: "space", "change request". */
  noun: string;
  params: z.ZodObject<z.ZodRawShape>;
  // The params schema and the loader are declared together in each family, so they agree;
  // the routes read only the loaded scope, never the params.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  scope: Resource<CommentScope, ContentView, any>;
  operationIds: Record<Operation, string>;
  updateReplyBody: z.ZodType<{ body?: WrittenBody | undefined; resolved?: boolean | undefined; addedReactions?: string[] | undefined; removedReactions?: string[] | undefined }>;
  /** Whether posting a reply takes `format` (GitBook documents it for change requests only). */
  postReplyFormat: boolean;
};

const ok = { description: 'The comment', schema: CommentWire };
const okReply = { description: 'The reply', schema: CommentReplyWire };
const deleted = { 205: { description: 'Deleted' }, 204: { description: 'There was no such comment' } };

/** The three body forms as the domain takes them. */
export function bodyOf(body: WrittenBody): CommentBodyInput {
  if (body.markdown !== undefined) return { markdown: body.markdown };
  if (body.document !== undefined) return { document: body.document };
  return {};
}

/** Answers to writes come in the format asked, or else the form the body is stored in. */
function formatAfterWrite(asked: BodyFormat | undefined, written: Comment): BodyFormat {
  return asked ?? (written.document != null ? 'document' : 'markdown');
}

async function context(em: EntityManager, deps: ApiDeps, scope: CommentScope, actor: Actor, format: BodyFormat, comments: Comment[], kind: 'threads' | 'replies'): Promise<CommentContext> {
  return { scope, actor, format, urls: deps.urls, details: await commentDetails(em, comments, kind) };
}

export function commentRoutes(f: CommentFamily): AnyRoute[] {
  const P = `${f.base}/comments`;
  const ThreadParams = f.params.extend({ commentId: Id });
  const ReplyParams = ThreadParams.extend({ commentReplyId: Id });
  const threads = threadResource(f.scope);
  const replies = replyResource(f.scope);
  const tags = ['comments'];

  return [
    defineRoute({
      method: 'get',
      path: P,
      operationId: f.operationIds.list,
      summary: `Comment threads of the ${f.noun}, newest first unless asked otherwise`,
      tags,
      auth: 'user',
      params: f.params,
      query: ListCommentsQuery,
      load: f.scope,
      authorize: { rules: spaceRules, action: 'view' },
      responses: { 200: { description: 'Comments', schema: paged(CommentWire) } },
      async handle({ em, query, actor, deps, subject: scope }) {
        const page = await listThreads(em, scope, query, query);
        const ctx = await context(em, deps, scope, actor, query.format, page.items, 'threads');
        return { status: 200, body: { ...page, items: page.items.map((c) => presentThread(c, ctx)) } };
      },
    }),
    defineRoute({
      method: 'post',
      path: P,
      operationId: f.operationIds.post,
      summary: `Open a comment thread in the ${f.noun}, optionally on a page, a node of it or a table cell`,
      tags,
      auth: 'user',
      params: f.params,
      body: PostCommentBody,
      load: f.scope,
      authorize: { rules: spaceRules, action: 'comment' },
      transactional: true,
      responses: { 200: ok },
      async handle({ em, body, actor, deps, subject: scope }) {
        const thread = await postThread(em, scope, actor.user, { ...body, body: bodyOf(body.body) }, deps.clock.now());
        const ctx = await context(em, deps, scope, actor, formatAfterWrite(undefined, thread), [thread], 'threads');
        return { status: 200, body: presentThread(thread, ctx) };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${P}/{commentId}`,
      operationId: f.operationIds.get,
      summary: `One comment thread of the ${f.noun}`,
      tags,
      auth: 'user',
      params: ThreadParams,
      query: FormatQuery,
      load: threads,
      authorize: { rules: commentRules, action: 'view' },
      responses: { 200: ok },
      async handle({ em, query, actor, deps, subject }) {
        const ctx = await context(em, deps, subject, actor, query.format, [subject.thread], 'threads');
        return { status: 200, body: presentThread(subject.thread, ctx) };
      },
    }),
    defineRoute({
      method: 'put',
      path: `${P}/{commentId}`,
      operationId: f.operationIds.update,
      summary: 'Edit a comment’s body, resolve or reopen its thread, add or remove the caller’s reactions',
      tags,
      auth: 'user',
      params: ThreadParams,
      body: UpdateCommentBody,
      load: threads,
      authorize: { rules: commentRules, action: updateCommentAction },
      transactional: true,
      responses: { 200: ok },
      async handle({ em, body, actor, deps, subject }) {
        const patch = { ...body, body: body.body && bodyOf(body.body) };
        await updateThread(em, subject, actor.user, patch, deps.clock.now());
        await em.populate(subject.thread, ['author', 'resolvedBy']);
        const ctx = await context(em, deps, subject, actor, formatAfterWrite(undefined, subject.thread), [subject.thread], 'threads');
        return { status: 200, body: presentThread(subject.thread, ctx) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${P}/{commentId}`,
      operationId: f.operationIds.delete,
      summary: 'Delete a comment thread with its replies',
      tags,
      auth: 'user',
      params: ThreadParams,
      load: threads,
      authorize: { rules: commentRules, action: 'delete' },
      ifMissing: 204,
      transactional: true,
      responses: deleted,
      async handle({ em, subject }) {
        return { status: (await deleteThread(em, subject)) ? 205 : 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${P}/{commentId}/replies`,
      operationId: f.operationIds.listReplies,
      summary: 'Replies of a comment thread, in the order they were posted',
      tags,
      auth: 'user',
      params: ThreadParams,
      query: ListRepliesQuery,
      load: threads,
      authorize: { rules: commentRules, action: 'view' },
      responses: { 200: { description: 'Replies', schema: paged(CommentReplyWire) } },
      async handle({ em, query, actor, deps, subject }) {
        const page = await listReplies(em, subject.thread, query);
        const ctx = await context(em, deps, subject, actor, query.format, page.items, 'replies');
        return { status: 200, body: { ...page, items: page.items.map((r) => presentReply(r, ctx)) } };
      },
    }),
    defineRoute({
      method: 'post',
      path: `${P}/{commentId}/replies`,
      operationId: f.operationIds.postReply,
      summary: 'Reply to a comment thread',
      tags,
      auth: 'user',
      params: ThreadParams,
      ...(f.postReplyFormat ? { query: FormatQuery.partial() } : {}),
      body: PostReplyBody,
      load: threads,
      authorize: { rules: commentRules, action: 'reply' },
      transactional: true,
      responses: { 200: okReply },
      async handle({ em, query, body, actor, deps, subject }) {
        const reply = await postReply(em, subject, actor.user, bodyOf(body.body), deps.clock.now());
        const asked = (query as { format?: BodyFormat } | undefined)?.format;
        const ctx = await context(em, deps, subject, actor, formatAfterWrite(asked, reply), [reply], 'replies');
        return { status: 200, body: presentReply(reply, ctx) };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${P}/{commentId}/replies/{commentReplyId}`,
      operationId: f.operationIds.getReply,
      summary: 'One reply of a comment thread',
      tags,
      auth: 'user',
      params: ReplyParams,
      query: FormatQuery,
      load: replies,
      authorize: { rules: commentRules, action: 'view' },
      responses: { 200: okReply },
      async handle({ em, query, actor, deps, subject }) {
        const ctx = await context(em, deps, subject, actor, query.format, [subject.reply], 'replies');
        return { status: 200, body: presentReply(subject.reply, ctx) };
      },
    }),
    defineRoute({
      method: 'put',
      path: `${P}/{commentId}/replies/{commentReplyId}`,
      operationId: f.operationIds.updateReply,
      summary: 'Edit a reply’s body, add or remove the caller’s reactions',
      tags,
      auth: 'user',
      params: ReplyParams,
      body: f.updateReplyBody,
      load: replies,
      authorize: { rules: commentRules, action: updateCommentAction },
      transactional: true,
      responses: { 200: okReply },
      async handle({ em, body, actor, deps, subject }) {
        await updateReply(em, subject, actor.user, { ...body, body: body.body && bodyOf(body.body) }, deps.clock.now());
        const ctx = await context(em, deps, subject, actor, formatAfterWrite(undefined, subject.reply), [subject.reply], 'replies');
        return { status: 200, body: presentReply(subject.reply, ctx) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${P}/{commentId}/replies/{commentReplyId}`,
      operationId: f.operationIds.deleteReply,
      summary: 'Delete a reply',
      tags,
      auth: 'user',
      params: ReplyParams,
      load: replies,
      authorize: { rules: commentRules, action: 'delete' },
      ifMissing: 204,
      transactional: true,
      responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such reply' } },
      async handle({ em, subject }) {
        return { status: (await deleteReply(em, subject)) ? 205 : 204 };
      },
    }),
  ] as AnyRoute[];
}
