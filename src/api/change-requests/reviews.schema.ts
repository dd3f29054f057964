import { REVIEW_STATUSES } from '../../domain/entities/change-request-review.entity.ts';
import { CommentBodyInput, CommentWire } from '../comments/comments.schema.ts';
import { Id, PagingQuery, QueryBoolean, RichTextDocument } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';
import { UserWire } from '../users/user.presenter.ts';
import { ChangeRequestParams } from './page-edits.schema.ts';

export const ReviewParams = ChangeRequestParams.extend({ reviewId: Id });
export const RequestedReviewerParams = ChangeRequestParams.extend({ userId: Id });

const ReviewStatus = z.enum(REVIEW_STATUSES).meta({ id: 'ChangeRequestReviewStatus' });

export const SubmitReviewBody = z.object({
  status: ReviewStatus,
  comment: CommentBodyInput.optional().openapi({
    description: 'Opens a comment thread of the change request by the reviewer, shown as the review’s `comment` (`{}` opens none)',
  }),
});

export const ReviewsQuery = PagingQuery.extend({
  outdated: QueryBoolean.optional().openapi({ description: 'true: only reviews of an older revision; false: only of the current one' }),
  format: z.enum(['document', 'markdown']).optional().openapi({ description: 'Format of the review comments’ bodies; by default the form each was written in' }),
});

export const ReviewQuery = z.object({ format: ReviewsQuery.shape.format });

export const RequestReviewersBody = z.object({
  users: z.array(Id).min(1).max(100).openapi({ description: 'User ids: members of the organization who can read the space, not the author' }),
  subject: z.string().trim().max(100).optional().openapi({ description: 'Also sets the change request’s subject' }),
  description: RichTextDocument.optional().openapi({ description: 'Also sets the change request’s description' }),
});

export const ReviewWire = z
  .object({
    object: z.literal('change-request-review'),
    id: z.string(),
    revision: z.string(),
    reviewer: UserWire,
    requestedBy: UserWire.optional(),
    status: ReviewStatus,
    outdated: z.boolean().openapi({ description: 'Given on an older revision than the change request’s current one' }),
    comment: CommentWire.optional().openapi({ description: 'The comment thread posted with the review, when there was one and it still exists' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'ChangeRequestReview' });

export const RequestedReviewerWire = z
  .object({
    object: z.literal('change-request-requested-reviewer'),
    kind: z.literal('user'),
    user: UserWire,
    requestedBy: UserWire,
    revision: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'ChangeRequestRequestedReviewer' });

export const RequestReviewersResponse = z.object({ users: z.array(RequestedReviewerWire) });
