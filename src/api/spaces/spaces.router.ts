import { ContentRoles } from '../../domain/content/content-roles.ts';
import { contentTargetRules, spaceRules, updateSpaceAction } from '../../domain/content/content.policy.ts';
import { grantAccess } from '../../domain/content/grants.ts';
import { listReadableSpaces, listSpacesWithRole } from '../../domain/content/listing.ts';
import { contentTargetResource, orgContentResource, spaceResource } from '../../domain/content/load-content.ts';
import { moveItem } from '../../domain/content/move.ts';
import { createSpace, duplicateSpace, restoreSpace, softDeleteSpace, updateSpace } from '../../domain/content/spaces.ts';
import { transferItem } from '../../domain/content/transfer.ts';
import { Member } from '../../domain/entities/member.entity.ts';
import { recordContentChange } from '../../jobs/content-changed.ts';
import { getMember } from '../../domain/organizations/members.ts';
import { loadOrgView } from '../../domain/organizations/org-view.ts';
import { organizationResource, organizationRules, selfOr } from '../../domain/organizations/organization.policy.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { GrantBody, MoveBody, toPosition, TransferBody } from '../http/content.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { MemberParams } from '../members/members.schema.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentOneSpace, presentSpaces } from './spaces.presenter.ts';
import { CreateSpaceBody, MemberSpaceItem, MemberSpacesQuery, SpaceParams, SpaceWire, UpdateSpaceBody } from './spaces.schema.ts';

const tags = ['spaces'];
const DAY_MS = 24 * 3600 * 1000;
const ok = { 200: { description: 'The space', schema: SpaceWire } };

export const spacesRoutes = [
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}',
    operationId: 'getSpaceById',
    summary: 'One space (also while it is in the bin)',
    tags,
    params: SpaceParams,
    query: z.object({ shareKey: z.string().max(256).optional() }),
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'view' },
    responses: ok,
    async handle({ em, subject: { space, access }, deps }) {
      return { status: 200, body: await presentOneSpace(em, space, access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/spaces/{spaceId}',
    operationId: 'updateSpaceById',
    summary: 'Change a space',
    tags,
    params: SpaceParams,
    body: UpdateSpaceBody,
    load: spaceResource,
    authorize: { rules: spaceRules, action: updateSpaceAction },
    responses: ok,
    async handle({ em, body, deps, subject: { space, access } }) {
      await updateSpace(em, space, body);
      return { status: 200, body: await presentOneSpace(em, space, access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/spaces/{spaceId}',
    operationId: 'deleteSpaceById',
    summary: 'Move a space to the bin (restorable for the retention window)',
    tags,
    params: SpaceParams,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'delete' },
    ifMissing: 204,
    responses: { 204: { description: 'In the bin, or there was no such space' } },
    async handle({ em, deps, subject: { space } }) {
      await softDeleteSpace(em, space, deps.clock);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/spaces/{spaceId}/restore',
    operationId: 'restoreSpace',
    summary: 'Take a space out of the bin',
    tags,
    params: SpaceParams,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'delete' },
    responses: ok,
    async handle({ em, deps, subject: { space, access } }) {
      await restoreSpace(em, space, deps.clock, deps.config.spaceRetentionDays * DAY_MS);
      return { status: 200, body: await presentOneSpace(em, space, access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/spaces/{spaceId}/duplicate',
    operationId: 'duplicateSpace',
    summary: 'Copy a space with its content',
    tags,
    params: SpaceParams,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'duplicate' },
    transactional: true,
    responses: { 201: { description: 'The copy', schema: SpaceWire } },
    async handle({ em, deps, outbox, subject: { space, access } }) {
      // The copy shares the content but not the search index: it is built with the copy.
      const copy = await duplicateSpace(em, space);
      recordContentChange(em, outbox, copy);
      const body = await presentOneSpace(em, copy, access, deps.urls);
      return { status: 201, body, location: body.urls.location };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/spaces/{spaceId}/move',
    operationId: 'moveSpace',
    summary: 'Move a space to another collection and/or next to a sibling',
    tags,
    params: SpaceParams,
    body: MoveBody,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'move' },
    responses: ok,
    async handle({ em, body, deps, subject: { space, access } }) {
      await moveItem(em, access, space, { parent: body.parent, position: toPosition(body.position) });
      return { status: 200, body: await presentOneSpace(em, space, access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/spaces/{spaceId}/transfer',
    operationId: 'transferSpace',
    summary: 'Move a space to another organization and/or into a collection',
    tags,
    params: SpaceParams,
    body: TransferBody,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'transfer' },
    responses: ok,
    async handle({ actor, em, body, deps, subject: { space, access } }) {
      await transferItem(em, actor, access, space, body);
      const targetAccess = await ContentRoles.load(em, await loadOrgView(em, actor, space.organization.id));
      return { status: 200, body: await presentOneSpace(em, space, targetAccess, deps.urls) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/spaces/{spaceId}/permissions',
    operationId: 'inviteToSpace',
    summary: 'Give users or teams a role on a space (null removes it)',
    tags,
    params: SpaceParams,
    body: GrantBody,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'share' },
    responses: { 204: { description: 'Granted' } },
    async handle({ em, body, subject: { space } }) {
      await grantAccess(em, { space }, body);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/spaces',
    operationId: 'listSpacesInOrganizationById',
    summary: 'Spaces of an organization the caller can read, in their persisted order',
    tags,
    params: OrgParams,
    query: PagingQuery,
    load: orgContentResource,
    authorize: { rules: organizationRules, action: 'view' },
    responses: { 200: { description: 'Spaces', schema: paged(SpaceWire) } },
    async handle({ em, query, deps, subject: { access } }) {
      const page = await listReadableSpaces(em, access, undefined, query);
      return { status: 200, body: { ...page, items: await presentSpaces(em, page.items, access, deps.urls) } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/spaces',
    operationId: 'createSpace',
    summary: 'Create a space at the organization root or in a collection',
    tags,
    params: OrgParams,
    body: CreateSpaceBody,
    load: contentTargetResource,
    authorize: { rules: contentTargetRules, action: 'create' },
    responses: { 201: { description: 'The new space', schema: SpaceWire } },
    async handle({ em, body, deps, subject: { access, parent } }) {
      const space = await createSpace(em, access, { ...body, parent });
      const presented = await presentOneSpace(em, space, access, deps.urls);
      return { status: 201, body: presented, location: presented.urls.location };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/members/{userId}/spaces',
    operationId: 'listSpacesForOrganizationMember',
    summary: 'Spaces a member can read, with their role on each',
    tags: ['members'],
    params: MemberParams,
    query: MemberSpacesQuery,
    load: organizationResource,
    authorize: { rules: organizationRules, action: selfOr('listMembers') },
    responses: { 200: { description: 'Spaces with the member’s role', schema: paged(MemberSpaceItem) } },
    async handle({ em, params, query, deps, subject: org }) {
      const member: Member = await getMember(em, org.organization, params.userId);
      const theirs = await ContentRoles.load(em, { actor: { kind: 'user', user: member.user }, organization: org.organization, member });
      const mine = await ContentRoles.load(em, org);
      const page = await listSpacesWithRole(em, theirs, mine, query.order, query);
      const spaces = await presentSpaces(em, page.items.map((i) => i.space), mine, deps.urls);
      const items = page.items.map(({ role }, i) => ({ permission: role, space: spaces[i]! }));
      return { status: 200, body: { ...page, items } };
    },
  }),
];
