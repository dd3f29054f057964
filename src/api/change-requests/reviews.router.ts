import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../domain/auth/actor.ts';
import { changeRequestRules } from '../../domain/change-requests/change-request.policy.ts';
import { changeRequestResource, type LoadedChangeRequest } from '../../domain/change-requests/load-change-request.ts';
import { listRequestedReviewers, removeRequestedReviewer, requestReviewers } from '../../domain/change-requests/requested-reviewers.ts';
import { findReview, listReviews, submitReview, type ReviewWithComment } from '../../domain/change-requests/reviews.ts';
import type { BodyFormat } from '../../domain/comments/comment-body.ts';
import { commentDetails } from '../../domain/comments/comment-details.ts';
import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { pageOfList } from '../../domain/shared/paging.ts';
import { bodyOf } from '../comments/comment-routes.ts';
import { presentThread } from '../comments/comments.presenter.ts';
import type { ApiDeps } from '../context.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { ChangeRequestParams } from './page-edits.schema.ts';
import { presentRequestedReviewer, presentReview } from './reviews.presenter.ts';
import {
  RequestedReviewerParams,
  RequestedReviewerWire,
  RequestReviewersBody,
  RequestReviewersResponse,
  ReviewParams,
  ReviewQuery,
  ReviewsQuery,
  ReviewWire,
  SubmitReviewBody,
} from './reviews.schema.ts';

const tags = ['change-requests'];

/**
 * Reviews with their comment threads as the comment operations present them (reactions,
 * replies, the caller's permissions), fetched for all at once. Bodies come in the asked
 * format, or else in the form each was written in.
 */
async function presentReviews(em: EntityManager, deps: ApiDeps, scope: LoadedChangeRequest, actor: Actor, format: BodyFormat | undefined, rows: ReviewWithComment[]) {
  const comments = rows.flatMap((r) => (r.comment ? [r.comment] : []));
  const ctx = { scope, actor, urls: deps.urls, details: await commentDetails(em, comments, 'threads') };
  return rows.map(({ review, comment }) => {
    const presented = comment ? presentThread(comment, { ...ctx, format: format ?? (comment.document != null ? 'document' : 'markdown') }) : undefined;
    return presentReview(review, scope.changeRequest, deps.urls, presented);
  });
}
const base = '/spaces/{spaceId}/change-requests/{changeRequestId}';

export const reviewRoutes = [
  defineRoute({
    method: 'post',
    path: `${base}/reviews`,
    operationId: 'submitChangeRequestReview',
    summary: 'Approve a change request or request changes to it. Its author may not review it (403); an archived or merged one takes no reviews (409).',
    tags,
    params: ChangeRequestParams,
    body: SubmitReviewBody,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'review' },
    responses: { 201: { description: 'The review', schema: ReviewWire } },
    async handle({ em, deps, actor, body, subject }) {
      assertNotDeleted(subject.space);
      const submitted = await submitReview(em, subject, actor.user, { status: body.status, comment: body.comment && bodyOf(body.comment) }, deps.clock.now());
      const [presented] = await presentReviews(em, deps, subject, actor, undefined, [submitted]);
      return { status: 201, body: presented!, location: presented!.urls.location };
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/reviews`,
    operationId: 'getReviewsByChangeRequestId',
    summary: 'The reviews of a change request, newest first',
    tags,
    params: ChangeRequestParams,
    query: ReviewsQuery,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'view' },
    responses: { 200: { description: 'Reviews', schema: paged(ReviewWire) } },
    async handle({ em, deps, actor, query, subject }) {
      const page = await listReviews(em, subject.changeRequest, { outdated: query.outdated }, query);
      return { status: 200, body: { ...page, items: await presentReviews(em, deps, subject, actor, query.format, page.items) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/reviews/{reviewId}`,
    operationId: 'getChangeRequestReviewById',
    summary: 'One review of a change request',
    tags,
    params: ReviewParams,
    query: ReviewQuery,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'view' },
    responses: { 200: { description: 'The review', schema: ReviewWire } },
    async handle({ em, deps, actor, params, query, subject }) {
      const [presented] = await presentReviews(em, deps, subject, actor, query.format, [await findReview(em, subject.changeRequest, params.reviewId)]);
      return { status: 200, body: presented! };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${base}/requested-reviewers`,
    operationId: 'requestReviewersForChangeRequest',
    summary: 'Ask users to review a change request (asking again renews the request); optionally set its subject and description',
    tags,
    params: ChangeRequestParams,
    body: RequestReviewersBody,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'update' },
    transactional: true,
    responses: { 200: { description: 'The requests made', schema: RequestReviewersResponse } },
    async handle({ em, deps, actor, body, subject: { space, changeRequest } }) {
      assertNotDeleted(space);
      const rows = await requestReviewers(em, space, changeRequest, actor.user, body.users);
      if (body.subject !== undefined) changeRequest.subject = body.subject;
      if (body.description !== undefined) changeRequest.description = body.description;
      await em.flush();
      return { status: 200, body: { users: rows.map((r) => presentRequestedReviewer(r, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/requested-reviewers`,
    operationId: 'getRequestedReviewersByChangeRequestId',
    summary: 'The users asked to review a change request',
    tags,
    params: ChangeRequestParams,
    query: PagingQuery,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'view' },
    responses: { 200: { description: 'Requested reviewers', schema: paged(RequestedReviewerWire) } },
    async handle({ em, deps, query, subject: { changeRequest } }) {
      const page = pageOfList(await listRequestedReviewers(em, changeRequest), (r) => r.user.id, query);
      return { status: 200, body: { ...page, items: page.items.map((r) => presentRequestedReviewer(r, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/requested-reviewers/{userId}`,
    operationId: 'removeRequestedReviewerFromChangeRequest',
    summary: 'Withdraw the request to one user to review a change request (205); 204 when there was none',
    tags,
    params: RequestedReviewerParams,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'update' },
    responses: { 205: { description: 'Withdrawn' }, 204: { description: 'The user had not been asked' } },
    async handle({ em, params, subject: { changeRequest } }) {
      return { status: (await removeRequestedReviewer(em, changeRequest, params.userId)) ? 205 : 204 };
    },
  }),
];
