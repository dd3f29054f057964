import { defineEntity, p } from '@mikro-orm/core';
import { ChangeRequest } from './change-request.entity.ts';
import { User } from './user.entity.ts';

/** A user asked to review a change request (the `requestedReviewer` list filter; merge rules). */
export const RequestedReviewerSchema = defineEntity({
  name: 'RequestedReviewer',
  tableName: 'change_request_requested_reviewers',
  properties: {
    changeRequest: () => p.manyToOne(ChangeRequest).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(User).ref().primary(),
    requestedBy: () => p.manyToOne(User).ref(),
    requestedAt: p.datetime().onCreate(() => new Date()),
    /** The change request's revision when the review was (last) asked for. */
    revision: p.string().length(20),
  },
  indexes: [{ properties: ['user'] }],
});

export class RequestedReviewer extends RequestedReviewerSchema.class {}
RequestedReviewerSchema.setClass(RequestedReviewer);
