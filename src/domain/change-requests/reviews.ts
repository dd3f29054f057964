import type { EntityManager } from '@mikro-orm/postgresql';
import { ChangeRequestReview, type ReviewStatus } from '../entities/change-request-review.entity.ts';
import type { ChangeRequest } from '../entities/change-request.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { byTime, findPage, type Page, type PageRequest } from '../shared/paging.ts';
import { ForbiddenError, notFound } from '../shared/errors.ts';
import { assertEditable } from './commit-change-request.ts';

export type ReviewInput = { status: ReviewStatus; comment?: Record<string, unknown> | undefined };

const WITH_USERS = ['reviewer', 'requestedBy'] as const;

/**
 * Records a reviewer's verdict on the change request's current revision. Every submission
 * is kept (merge rules read each reviewer's latest); `requestedBy` is whoever asked this
 * reviewer, when someone did. Authors may not review their own change request (403), and
 * archived or merged ones take no more reviews (409).
 */
export async function submitReview(em: EntityManager, changeRequest: ChangeRequest, reviewer: User, input: ReviewInput): Promise<ChangeRequestReview> {
  if (changeRequest.createdBy.id === reviewer.id) throw new ForbiddenError('The author of a change request may not review it');
  return em.transactional(async (tx) => {
    // The revision and status as committed now, not as the entity was loaded before.
    const rows = await tx.execute<{ revision: string; status: ChangeRequest['status']; requested_by_id: string | null }[]>(
      `select c.revision, c.status, r.requested_by_id from change_requests c
         left join change_request_requested_reviewers r on r.change_request_id = c.id and r.user_id = ?
       where c.id = ?`,
      [reviewer.id, changeRequest.id],
    );
    const row = rows[0];
    if (!row) throw notFound('Change request');
    assertEditable(row.status);
    const review = tx.create(ChangeRequestReview, {
      changeRequest: changeRequest.id,
      reviewer,
      requestedBy: row.requested_by_id,
      status: input.status,
      comment: input.comment ?? null,
      revision: row.revision,
    });
    await tx.flush();
    await tx.populate(review, WITH_USERS);
    return review;
  });
}

/** A change request's reviews, newest first; `outdated` keeps only those given (or not) on an older revision. */
export async function listReviews(em: EntityManager, changeRequest: ChangeRequest, filter: { outdated?: boolean | undefined }, page: PageRequest): Promise<Page<ChangeRequestReview>> {
  const revision = filter.outdated === undefined ? {} : { revision: filter.outdated ? { $ne: changeRequest.revision } : changeRequest.revision };
  return findPage(em, ChangeRequestReview, { changeRequest: changeRequest.id, ...revision }, byTime('createdAt', 'desc'), page, { populate: WITH_USERS });
}

export async function findReview(em: EntityManager, changeRequest: ChangeRequest, reviewId: string): Promise<ChangeRequestReview> {
  const review = await em.findOne(ChangeRequestReview, { id: reviewId, changeRequest: changeRequest.id }, { populate: WITH_USERS });
  if (!review) throw notFound('Review');
  return review;
}
