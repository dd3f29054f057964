import type { ChangeRequestReview } from '../../domain/entities/change-request-review.entity.ts';
import type { ChangeRequest } from '../../domain/entities/change-request.entity.ts';
import type { RequestedReviewer } from '../../domain/entities/requested-reviewer.entity.ts';
import type { CommentWire } from '../comments/comments.schema.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import { presentUser } from '../users/user.presenter.ts';
import type { RequestedReviewerWire, ReviewWire } from './reviews.schema.ts';

/**
 * A review (reviewer and requester populated), with its comment thread already presented
 * when it has one; outdated when the change request has moved on since.
 */
export function presentReview(review: ChangeRequestReview, changeRequest: ChangeRequest, urls: Urls, comment?: z.infer<typeof CommentWire>): z.infer<typeof ReviewWire> {
  const requestedBy = review.requestedBy?.getEntity();
  return {
    object: 'change-request-review',
    id: review.id,
    revision: review.revision,
    reviewer: presentUser(review.reviewer.getEntity(), urls),
    ...(requestedBy ? { requestedBy: presentUser(requestedBy, urls) } : {}),
    status: review.status,
    outdated: review.revision !== changeRequest.revision,
    ...(comment ? { comment } : {}),
    createdAt: review.createdAt.toISOString(),
    updatedAt: review.updatedAt.toISOString(),
    urls: { location: urls.location(`/spaces/${changeRequest.space.id}/change-requests/${changeRequest.id}/reviews/${review.id}`) },
  };
}

export function presentRequestedReviewer(row: RequestedReviewer, urls: Urls): z.infer<typeof RequestedReviewerWire> {
  return {
    object: 'change-request-requested-reviewer',
    kind: 'user',
    user: presentUser(row.user.getEntity(), urls),
    requestedBy: presentUser(row.requestedBy.getEntity(), urls),
    revision: row.revision,
    createdAt: row.requestedAt.toISOString(),
  };
}
