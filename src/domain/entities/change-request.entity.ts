import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { IssueCluster } from './issue-cluster.entity.ts';
import { Space } from './space.entity.ts';
import { User } from './user.entity.ts';

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

/**
 * Proposed edits to a space, on their own revision chain. `revisionInitial` is the space's
 * revision when it was opened; `revisionMergedAncestor` the main revision its content is
 * based on (moved by each update from main): the common ancestor of a three-way merge.
 * `number` counts per space (the space's `changeRequestSeq`), never reused.
 */
export const ChangeRequestSchema = defineEntity({
  name: 'ChangeRequest',
  tableName: 'change_requests',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    space: () => p.manyToOne(Space).ref().deleteRule('cascade'),
    number: p.integer(),
    status: p.string().length(16).$type<ChangeRequestStatus>().default('draft'),
    subject: p.string().length(100).default(''),
    /** Rich-text document (JSONDocument), kept as given. */
    description: p.json<Record<string, unknown>>().nullable(),
    createdBy: () => p.manyToOne(User).ref(),
    /** The change request's current revision (the head of its chain). */
    revision: p.string().length(20),
    revisionInitial: p.string().length(20),
    revisionMergedAncestor: p.string().length(20),
    revisionMerged: p.string().length(20).nullable(),
    mergedBy: () => p.manyToOne(User).ref().nullable(),
    mergedAt: p.datetime().nullable(),
    /** The issue cluster this change request addresses (beyond GitBook's bodies). */
    cluster: () => p.manyToOne(IssueCluster).ref().nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    /**
     * Stored to the millisecond: lists page by (updatedAt, id) with tokens that carry
     * milliseconds, so a value written by SQL `now()` (microseconds) must not sort apart
     * from its own token.
     */
    updatedAt: p.datetime().length(3).onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['space', 'number'] }],
  indexes: [{ properties: ['space', 'status', 'updatedAt', 'id'] }, { properties: ['cluster', 'status'] }],
});

export class ChangeRequest extends ChangeRequestSchema.class {}
ChangeRequestSchema.setClass(ChangeRequest);
