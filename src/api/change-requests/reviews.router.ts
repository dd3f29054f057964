import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { changeRequestRules } from '../../domain/change-requests/change-request.policy.ts';
import { changeRequestResource } from '../../domain/change-requests/load-change-request.ts';
import { listRequestedReviewers, removeRequestedReviewer, requestReviewers } from '../../domain/change-requests/requested-reviewers.ts';
import { findReview, listReviews, submitReview } from '../../domain/change-requests/reviews.ts';
import { pageOfList } from '../../domain/shared/paging.ts';
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
    async handle({ em, deps, actor, body, subject: { space, changeRequest } }) {
      assertNotDeleted(space);
      const review = await submitReview(em, changeRequest, actor.user, body);
      const presented = presentReview(review, changeRequest, deps.urls);
      return { status: 201, body: presented, location: presented.urls.location };
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
    async handle({ em, deps, query, subject: { changeRequest } }) {
      const page = await listReviews(em, changeRequest, { outdated: query.outdated }, query);
      return { status: 200, body: { ...page, items: page.items.map((r) => presentReview(r, changeRequest, deps.urls)) } };
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
    async handle({ em, deps, params, subject: { changeRequest } }) {
      return { status: 200, body: presentReview(await findReview(em, changeRequest, params.reviewId), changeRequest, deps.urls) };
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
