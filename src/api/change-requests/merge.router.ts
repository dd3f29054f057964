import { changeRequestRules } from '../../domain/change-requests/change-request.policy.ts';
import { changeRequestResource } from '../../domain/change-requests/load-change-request.ts';
import { mergeChangeRequest } from '../../domain/change-requests/merge-change-request.ts';
import { judgeMergeability } from '../../domain/change-requests/mergeability.ts';
import { updateChangeRequest } from '../../domain/change-requests/update-change-request.ts';
import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { contentChangeRecorder } from '../../jobs/content-changed.ts';
import { defineRoute } from '../http/route.ts';
import { ChangeRequestMergeability, ChangeRequestPathParams, MergeChangeRequestResult, UpdateChangeRequestResult } from './merge.schema.ts';

const BASE = '/spaces/{spaceId}/change-requests/{changeRequestId}';

export const mergeRoutes = [
  defineRoute({
    method: 'post',
    path: `${BASE}/update`,
    operationId: 'updateChangeRequest',
    summary: 'Merge the space’s current content into the change request (three-way)',
    tags: ['change-requests'],
    params: ChangeRequestPathParams,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'edit' },
    responses: { 200: { description: 'Updated, already up to date, or conflicts (nothing changed)', schema: UpdateChangeRequestResult } },
    async handle({ em, subject: { space, changeRequest } }) {
      assertNotDeleted(space);
      const outcome = await updateChangeRequest(em, space, changeRequest);
      return { status: 200, body: { conflicts: [], ...outcome } };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${BASE}/merge`,
    operationId: 'mergeChangeRequest',
    summary: 'Merge the change request into the space’s content (three-way)',
    tags: ['change-requests'],
    params: ChangeRequestPathParams,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'merge' },
    // The merge commit and its search re-index are recorded together.
    transactional: true,
    responses: {
      200: { description: 'Merged, or conflicts (nothing changed)', schema: MergeChangeRequestResult },
    },
    async handle({ em, actor, outbox, subject: { space, changeRequest } }) {
      assertNotDeleted(space);
      const outcome = await mergeChangeRequest(em, space, changeRequest.id, actor.user, contentChangeRecorder(outbox));
      return { status: 200, body: { conflicts: [], ...outcome } };
    },
  }),
  defineRoute({
    method: 'get',
    path: `${BASE}/mergeability`,
    operationId: 'getChangeRequestMergeability',
    summary: 'Whether merging the change request now would succeed: conflicts, unmet merge rules (a dry run)',
    tags: ['change-requests'],
    params: ChangeRequestPathParams,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'view' },
    responses: { 200: { description: 'The dry run’s verdict', schema: ChangeRequestMergeability } },
    async handle({ em, actor, subject: { space, changeRequest } }) {
      return { status: 200, body: await judgeMergeability(em, space, changeRequest.id, actor.user) };
    },
  }),
];
