import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { changeRequestRules } from '../../domain/change-requests/change-request.policy.ts';
import { listOrganizationChangeRequests, listSpaceChangeRequests } from '../../domain/change-requests/list-change-requests.ts';
import { changeRequestResource } from '../../domain/change-requests/load-change-request.ts';
import { openChangeRequest } from '../../domain/change-requests/open-change-request.ts';
import { clusterOfOrganization, patchChangeRequest } from '../../domain/change-requests/patch-change-request.ts';
import { spaceRules } from '../../domain/content/content.policy.ts';
import { orgContentResource, spaceResource } from '../../domain/content/load-content.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import { Id, paged } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentChangeRequests, presentOneChangeRequest } from './change-requests.presenter.ts';
import { ChangeRequestParams, ChangeRequestWire, CreateChangeRequestBody, ListChangeRequestsQuery, UpdateChangeRequestBody } from './change-requests.schema.ts';

const tags = ['change-requests'];
const one = { 200: { description: 'The change request', schema: ChangeRequestWire } };
const list = { 200: { description: 'Change requests, most recently updated first', schema: paged(ChangeRequestWire) } };

export const changeRequestsRoutes = [
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/change-requests',
    operationId: 'listChangeRequestsForSpace',
    summary: 'The space’s change requests with a status (default open), optionally filtered',
    tags,
    params: z.object({ spaceId: Id }),
    query: ListChangeRequestsQuery,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'view' },
    responses: list,
    async handle({ em, query, deps, subject: { space } }) {
      const page = await listSpaceChangeRequests(em, space.id, query, query);
      return { status: 200, body: { ...page, items: await presentChangeRequests(em, page.items, deps.urls) } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/spaces/{spaceId}/change-requests',
    operationId: 'createChangeRequest',
    summary: 'Open a change request on the space’s current content (numbered next in the space)',
    tags,
    params: z.object({ spaceId: Id }),
    body: CreateChangeRequestBody,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'edit' },
    responses: { 201: { description: 'The new change request', schema: ChangeRequestWire } },
    async handle({ em, actor, body = {}, deps, subject: { space } }) {
      assertNotDeleted(space);
      const cluster = body.conversationsIssuesCluster
        ? await clusterOfOrganization(em, space.organization.id, body.conversationsIssuesCluster, 'body.conversationsIssuesCluster')
        : null;
      const opened = await openChangeRequest(em, space, actor.user, { subject: body.subject, description: body.description ?? null, status: body.status, cluster });
      const presented = await presentOneChangeRequest(em, opened, deps.urls);
      return { status: 201, body: presented, location: presented.urls.location };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
    operationId: 'getChangeRequestById',
    summary: 'One change request, by id or by number',
    tags,
    params: ChangeRequestParams,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'view' },
    responses: one,
    async handle({ em, deps, subject: { changeRequest } }) {
      return { status: 200, body: await presentOneChangeRequest(em, changeRequest, deps.urls) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
    operationId: 'updateChangeRequestById',
    summary: 'Change a change request’s subject, description, status (draft, open, archived) or linked issue cluster',
    tags,
    params: ChangeRequestParams,
    body: UpdateChangeRequestBody,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'update' },
    responses: one,
    async handle({ em, body, deps, subject: { space, changeRequest } }) {
      assertNotDeleted(space);
      const { conversationsIssuesCluster: clusterId, ...rest } = body;
      const cluster = typeof clusterId === 'string' ? await clusterOfOrganization(em, space.organization.id, clusterId, 'body.conversationsIssuesCluster') : clusterId;
      await patchChangeRequest(em, changeRequest, { ...rest, cluster });
      return { status: 200, body: await presentOneChangeRequest(em, changeRequest, deps.urls) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/change-requests',
    operationId: 'listChangeRequestsForOrganization',
    summary: 'Change requests of every space of the organization the caller can read',
    tags,
    params: OrgParams,
    query: ListChangeRequestsQuery,
    load: orgContentResource,
    authorize: { rules: organizationRules, action: 'view' },
    responses: list,
    async handle({ em, query, deps, subject: { access } }) {
      const page = await listOrganizationChangeRequests(em, access, query, query);
      return { status: 200, body: { ...page, items: await presentChangeRequests(em, page.items, deps.urls) } };
    },
  }),
];
