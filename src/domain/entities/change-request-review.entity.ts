import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { ChangeRequest } from './change-request.entity.ts';
import { User } from './user.entity.ts';

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * A reviewer's verdict on a change request at one of its revisions. Every submission is
 * kept; merge rules read each reviewer's latest. A review of an older revision than the
 * change request's current one is `outdated`. A review's comment is a comment thread of
 * the change request that names the review (`Comment.review`).
 */
export const ChangeRequestReviewSchema = defineEntity({
  name: 'ChangeRequestReview',
  tableName: 'change_request_reviews',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    changeRequest: () => p.manyToOne(ChangeRequest).ref().deleteRule('cascade'),
    reviewer: () => p.manyToOne(User).ref(),
    /** Who asked this reviewer, when they had been asked. */
    requestedBy: () => p.manyToOne(User).ref().nullable(),
    status: p.string().length(24).$type<ReviewStatus>(),
    /** The change request's revision the review was given on. */
    revision: p.string().length(20),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['changeRequest', 'createdAt', 'id'] }],
});

export class ChangeRequestReview extends ChangeRequestReviewSchema.class {}
ChangeRequestReviewSchema.setClass(ChangeRequestReview);
