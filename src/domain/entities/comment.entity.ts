import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { ChangeRequestReview } from './change-request-review.entity.ts';
import { ChangeRequest } from './change-request.entity.ts';
import { Space } from './space.entity.ts';
import { User } from './user.entity.ts';

export type CommentStatus = 'open' | 'resolved';
export type TableCellTarget = { record: string; definition: string };
/** A rich-text document as the API validated it. */
export type CommentDocument = { object: 'document'; data: Record<string, unknown>; nodes: unknown[] };

/**
 * A thread's opening comment (`parent` null) or a reply in it (`parent` set). Both have an
 * author, a body and reactions; only threads have a target and a status. Every row names
 * its space and, in a change request's discussion, the change request, so either going
 * away takes its comments with it; replies and reactions go
 * with their thread (cascades), so a thread deleted while a reply is posted leaves nothing
 * behind.
 *
 * The body is stored in the form it was given: Markdown as text, exactly as sent, or a
 * JSON document; neither column set is the empty body. Reads convert to the asked format.
 */
export const CommentSchema = defineEntity({
  name: 'Comment',
  tableName: 'comments',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    space: () => p.manyToOne(Space).ref().deleteRule('cascade'),
    /** Set when the discussion is a change request's; a space's own comments have none. */
    changeRequest: () => p.manyToOne(ChangeRequest).ref().nullable().deleteRule('cascade'),
    /**
     * Set on the thread a reviewer opened with their review (`target.review`); at most one
     * per review. The thread is otherwise like any other in the change request.
     */
    review: () => p.manyToOne(ChangeRequestReview).ref().nullable().unique().deleteRule('set null'),
    parent: () => p.manyToOne(CommentSchema).ref().nullable().deleteRule('cascade'),
    author: () => p.manyToOne(User).ref().deleteRule('cascade'),
    markdown: p.text().nullable(),
    document: p.json<CommentDocument>().nullable(),
    /** Target (threads only): the revision it was posted on, and optionally a page, a node in it, a table cell. */
    revision: p.string().length(20).nullable(),
    pageId: p.string().length(20).nullable(),
    nodeId: p.string().length(100).nullable(),
    tableCell: p.json<TableCellTarget>().nullable(),
    status: p.string().length(8).$type<CommentStatus>().default('open'),
    resolvedAt: p.datetime().nullable(),
    resolvedBy: () => p.manyToOne(User).ref().nullable().deleteRule('set null'),
    postedAt: p.datetime().onCreate(() => new Date()),
    /** Set when the body changes (not on reactions or resolution). */
    editedAt: p.datetime().nullable(),
  },
  indexes: [
    { properties: ['space', 'postedAt', 'id'] },
    { properties: ['changeRequest', 'postedAt', 'id'] },
    { properties: ['parent', 'postedAt', 'id'] },
  ],
});

export class Comment extends CommentSchema.class {}
CommentSchema.setClass(Comment);
