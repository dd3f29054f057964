import type { EntityManager } from '@mikro-orm/postgresql';
import type { CommentBodyInput } from '../comments/comment-body.ts';
import type { CommentScope } from '../comments/comment-scope.ts';
import { postThread } from '../comments/threads.ts';
import { ChangeRequestReview, type ReviewStatus } from '../entities/change-request-review.entity.ts';
import type { ChangeRequest } from '../entities/change-request.entity.ts';
import { Comment } from '../entities/comment.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { byTime, findPage, type Page, type PageRequest } from '../shared/paging.ts';
import { ForbiddenError, notFound } from '../shared/errors.ts';
import { assertEditable } from './commit-change-request.ts';

export type ReviewInput = { status: ReviewStatus; comment?: CommentBodyInput | undefined };
/** A review with its comment thread, when it has one. */
export type ReviewWithComment = { review: ChangeRequestReview; comment: Comment | null };

const WITH_USERS = ['reviewer', 'requestedBy'] as const;

/**
 * Records a reviewer's verdict on the change request's current revision. Every submission
 * is kept (merge rules read each reviewer's latest); `requestedBy` is whoever asked this
 * reviewer, when someone did. Authors may not review their own change request (403), and
 * archived or merged ones take no more reviews (409).
 *
 * A comment (other than the empty body `{}`) opens a comment thread of the change request
 * in the same transaction, by the reviewer, naming the review: it then lives like any other
 * thread (listed, counted, replied to, resolved).
 */
export async function submitReview(em: EntityManager, scope: CommentScope & { changeRequest: ChangeRequest }, reviewer: User, input: ReviewInput, now: Date): Promise<ReviewWithComment> {
  const { changeRequest } = scope;
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
      revision: row.revision,
    });
    await tx.flush();
    const body = input.comment;
    const comment = body && (body.markdown !== undefined || body.document !== undefined) ? await postThread(tx, scope, reviewer, { body, review }, now) : null;
    await tx.populate(review, WITH_USERS);
    return { review, comment };
  });
}

/** A change request's reviews, newest first; `outdated` keeps only those given (or not) on an older revision. */
export async function listReviews(em: EntityManager, changeRequest: ChangeRequest, filter: { outdated?: boolean | undefined }, page: PageRequest): Promise<Page<ReviewWithComment>> {
  const revision = filter.outdated === undefined ? {} : { revision: filter.outdated ? { $ne: changeRequest.revision } : changeRequest.revision };
  const found = await findPage(em, ChangeRequestReview, { changeRequest: changeRequest.id, ...revision }, byTime('createdAt', 'desc'), page, { populate: WITH_USERS });
  return { ...found, items: await withComments(em, found.items) };
}

export async function findReview(em: EntityManager, changeRequest: ChangeRequest, reviewId: string): Promise<ReviewWithComment> {
  const review = await em.findOne(ChangeRequestReview, { id: reviewId, changeRequest: changeRequest.id }, { populate: WITH_USERS });
  if (!review) throw notFound('Review');
  return (await withComments(em, [review]))[0]!;
}

/** The reviews' comment threads, in one query for a whole page (a deleted thread leaves the review without comment). */
async function withComments(em: EntityManager, reviews: ChangeRequestReview[]): Promise<ReviewWithComment[]> {
  if (reviews.length === 0) return [];
  const threads = await em.find(Comment, { review: { $in: reviews.map((r) => r.id) }, parent: null }, { populate: ['author', 'resolvedBy'] });
  const byReview = new Map(threads.map((t) => [t.review!.id, t]));
  return reviews.map((review) => ({ review, comment: byReview.get(review.id) ?? null }));
}
