import { ContentAccess } from '../../domain/content/content-access.ts';
import { collectionRules, spaceRules } from '../../domain/content/content.policy.ts';
import { grantAccess } from '../../domain/content/grants.ts';
import { listReadableSpaces, listSpacesWithRole } from '../../domain/content/listing.ts';
import { loadSpace, targetCollection } from '../../domain/content/load-content.ts';
import { moveItem } from '../../domain/content/move.ts';
import { createSpace, duplicateSpace, restoreSpace, softDeleteSpace, updateSpace } from '../../domain/content/spaces.ts';
import { transferItem } from '../../domain/content/transfer.ts';
import { Member } from '../../domain/entities/member.entity.ts';
import { recordContentChange } from '../../jobs/content-changed.ts';
import { getMember } from '../../domain/organizations/members.ts';
import { loadOrgAccess } from '../../domain/organizations/org-access.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import { BadRequestError } from '../../domain/shared/errors.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { GrantBody, MoveBody, toPosition, TransferBody } from '../http/content.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { MemberParams } from '../members/members.schema.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentSpace } from './spaces.presenter.ts';
import { CreateSpaceBody, MemberSpaceItem, MemberSpacesQuery, SpaceParams, SpaceSchema, UpdateSpaceBody } from './spaces.schema.ts';

const tags = ['spaces'];
const DAY_MS = 24 * 3600 * 1000;
const ok = { 200: { description: 'The space', schema: SpaceSchema } };

export const spacesRoutes = [
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}',
    operationId: 'getSpaceById',
    summary: 'One space (also while it is in the bin)',
    tags,
    params: SpaceParams,
    query: z.object({ shareKey: z.string().max(256).optional() }),
    responses: ok,
    async handle({ actor, em, params, deps }) {
      const { space, access } = await loadSpace(em, actor, params.spaceId);
      return { status: 200, body: presentSpace(space, access, deps.urls) };
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
    responses: ok,
    async handle({ actor, em, params, body, deps }) {
      const { space, access, view } = await loadSpace(em, actor, params.spaceId);
      // Who may see and change the space is an admin's decision; the rest an editor's.
      const adminOnly = body.defaultLevel !== undefined || body.visibility !== undefined || body.mergeRules !== undefined || body.editMode !== undefined;
      authorize(spaceRules, view, adminOnly ? 'admin' : 'update');
      await updateSpace(em, space, body);
      return { status: 200, body: presentSpace(space, access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/spaces/{spaceId}',
    operationId: 'deleteSpaceById',
    summary: 'Move a space to the bin (restorable for the retention window)',
    tags,
    params: SpaceParams,
    responses: { 204: { description: 'In the bin, or there was no such space' } },
    async handle({ actor, em, params, deps }) {
      const loaded = await loadSpace(em, actor, params.spaceId).catch(() => null);
      if (!loaded) return { status: 204 };
      authorize(spaceRules, loaded.view, 'delete');
      await softDeleteSpace(em, loaded.space, deps.clock);
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
    responses: ok,
    async handle({ actor, em, params, deps }) {
      const { space, access, view } = await loadSpace(em, actor, params.spaceId);
      authorize(spaceRules, view, 'delete');
      await restoreSpace(em, space, deps.clock, deps.config.spaceRetentionDays * DAY_MS);
      return { status: 200, body: presentSpace(space, access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/spaces/{spaceId}/duplicate',
    operationId: 'duplicateSpace',
    summary: 'Copy a space with its content',
    tags,
    params: SpaceParams,
    responses: { 201: { description: 'The copy', schema: SpaceSchema } },
    async handle({ actor, em, params, deps, outbox }) {
      const { space, access, view } = await loadSpace(em, actor, params.spaceId);
      authorize(spaceRules, view, 'duplicate');
      // The copy shares the content but not the search index: it is built with the copy.
      const copy = await em.transactional(async (tx) => {
        const made = await duplicateSpace(tx, space);
        recordContentChange(tx, outbox, made);
        return made;
      });
      const body = presentSpace(copy, access, deps.urls);
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
    responses: ok,
    async handle({ actor, em, params, body, deps }) {
      const { space, access, view } = await loadSpace(em, actor, params.spaceId);
      authorize(spaceRules, view, 'move');
      await moveItem(em, access, space, { parent: body.parent, position: toPosition(body.position) });
      return { status: 200, body: presentSpace(space, access, deps.urls) };
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
    responses: ok,
    async handle({ actor, em, params, body, deps }) {
      const { space, access } = await loadSpace(em, actor, params.spaceId);
      await transferItem(em, actor, access, space, body);
      const targetAccess = await ContentAccess.load(em, await loadOrgAccess(em, actor, space.organization.id));
      return { status: 200, body: presentSpace(space, targetAccess, deps.urls) };
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
    responses: { 204: { description: 'Granted' } },
    async handle({ actor, em, params, body }) {
      const { space, view } = await loadSpace(em, actor, params.spaceId);
      authorize(spaceRules, view, 'share');
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
    responses: { 200: { description: 'Spaces', schema: paged(SpaceSchema) } },
    async handle({ actor, em, params, query, deps }) {
      const access = await ContentAccess.load(em, await loadOrgAccess(em, actor, params.organizationId));
      const page = await listReadableSpaces(em, access, undefined, query);
      return { status: 200, body: { ...page, items: page.items.map((s) => presentSpace(s, access, deps.urls)) } };
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
    responses: { 201: { description: 'The new space', schema: SpaceSchema } },
    async handle({ actor, em, params, body, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      const access = await ContentAccess.load(em, org);
      if (body?.template !== undefined || body?.computedSource !== undefined) {
        throw new BadRequestError('body: templates and computed sources are not supported yet; create an empty space');
      }
      const parent = body?.parent ? await targetCollection(em, access, body.parent, 'body.parent') : null;
      if (!parent) authorize(organizationRules, org, 'createContent');
      else authorize(collectionRules, { role: access.roleForCollection(parent) }, 'create');
      const space = await createSpace(em, access, { ...body, parent });
      const presented = presentSpace(space, access, deps.urls);
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
    responses: { 200: { description: 'Spaces with the member’s role', schema: paged(MemberSpaceItem) } },
    async handle({ actor, em, params, query, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      const self = actor.kind === 'user' && actor.user.id === params.userId;
      if (!self) authorize(organizationRules, org, 'listMembers');
      const member: Member = await getMember(em, org.organization, params.userId);
      const theirs = await ContentAccess.load(em, { actor: { kind: 'user', user: member.user }, organization: org.organization, member });
      const mine = await ContentAccess.load(em, org);
      const page = await listSpacesWithRole(em, theirs, mine, query.order, query);
      const items = page.items.map(({ space, role }) => ({ permission: role, space: presentSpace(space, mine, deps.urls) }));
      return { status: 200, body: { ...page, items } };
    },
  }),
];
