import { createCollection, deleteCollection, updateCollection } from '../../domain/content/collections.ts';
import { ContentAccess } from '../../domain/content/content-access.ts';
import { collectionRules } from '../../domain/content/content.policy.ts';
import { grantAccess } from '../../domain/content/grants.ts';
import { listReadableCollections, listReadableSpaces } from '../../domain/content/listing.ts';
import { loadCollection, targetCollection } from '../../domain/content/load-content.ts';
import { moveItem } from '../../domain/content/move.ts';
import { transferItem } from '../../domain/content/transfer.ts';
import { loadOrgAccess } from '../../domain/organizations/org-access.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { GrantBody, MoveBody, toPosition, TransferBody } from '../http/content.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentSpace } from '../spaces/spaces.presenter.ts';
import { SpaceSchema } from '../spaces/spaces.schema.ts';
import { presentCollection } from './collections.presenter.ts';
import {
  CollectionParams,
  CollectionSchema,
  CreateCollectionBody,
  ListCollectionsQuery,
  UpdateCollectionBody,
} from './collections.schema.ts';

const tags = ['collections'];
const ok = { 200: { description: 'The collection', schema: CollectionSchema } };

export const collectionsRoutes = [
  defineRoute({
    method: 'get',
    path: '/collections/{collectionId}',
    operationId: 'getCollectionById',
    summary: 'One collection',
    tags,
    params: CollectionParams,
    responses: ok,
    async handle({ actor, em, params, deps }) {
      const { collection, access } = await loadCollection(em, actor, params.collectionId);
      return { status: 200, body: presentCollection(collection, access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/collections/{collectionId}',
    operationId: 'updateCollectionById',
    summary: 'Change a collection',
    tags,
    params: CollectionParams,
    body: UpdateCollectionBody,
    responses: ok,
    async handle({ actor, em, params, body, deps }) {
      const { collection, access, view } = await loadCollection(em, actor, params.collectionId);
      authorize(collectionRules, view, 'update');
      await updateCollection(em, collection, body);
      return { status: 200, body: presentCollection(collection, access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/collections/{collectionId}',
    operationId: 'deleteCollectionById',
    summary: 'Delete a collection and its sub-collections; the spaces inside go to the bin',
    tags,
    params: CollectionParams,
    responses: { 204: { description: 'Deleted, or there was no such collection' } },
    async handle({ actor, em, params, deps }) {
      const loaded = await loadCollection(em, actor, params.collectionId).catch(() => null);
      if (!loaded) return { status: 204 };
      authorize(collectionRules, loaded.view, 'delete');
      await deleteCollection(em, loaded.collection, deps.clock);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/collections/{collectionId}/spaces',
    operationId: 'listSpacesInCollectionById',
    summary: 'Spaces directly inside a collection, in their persisted order',
    tags,
    params: CollectionParams,
    query: PagingQuery,
    responses: { 200: { description: 'Spaces', schema: paged(SpaceSchema) } },
    async handle({ actor, em, params, query, deps }) {
      const { collection, access } = await loadCollection(em, actor, params.collectionId);
      const page = await listReadableSpaces(em, access, collection.id, query);
      return { status: 200, body: { ...page, items: page.items.map((s) => presentSpace(s, access, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/collections/{collectionId}/move',
    operationId: 'moveCollection',
    summary: 'Move a collection to another parent and/or next to a sibling',
    tags,
    params: CollectionParams,
    body: MoveBody,
    responses: ok,
    async handle({ actor, em, params, body, deps }) {
      const { collection, access, view } = await loadCollection(em, actor, params.collectionId);
      authorize(collectionRules, view, 'move');
      await moveItem(em, access, collection, { parent: body.parent, position: toPosition(body.position) });
      return { status: 200, body: presentCollection(collection, access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/collections/{collectionId}/transfer',
    operationId: 'transferCollection',
    summary: 'Move a collection with everything in it to another organization',
    tags,
    params: CollectionParams,
    body: TransferBody,
    responses: ok,
    async handle({ actor, em, params, body, deps }) {
      const { collection, access } = await loadCollection(em, actor, params.collectionId);
      await transferItem(em, actor, access, collection, body);
      const targetAccess = await ContentAccess.load(em, await loadOrgAccess(em, actor, collection.organization.id));
      return { status: 200, body: presentCollection(collection, targetAccess, deps.urls) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/collections/{collectionId}/permissions',
    operationId: 'inviteToCollection',
    summary: 'Give users or teams a role on a collection and what it holds (null removes it)',
    tags,
    params: CollectionParams,
    body: GrantBody,
    responses: { 204: { description: 'Granted' } },
    async handle({ actor, em, params, body }) {
      const { collection, view } = await loadCollection(em, actor, params.collectionId);
      authorize(collectionRules, view, 'share');
      await grantAccess(em, { collection }, body);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/collections',
    operationId: 'listCollectionsInOrganizationById',
    summary: 'Collections of an organization (nested ones too unless nested=false)',
    tags,
    params: OrgParams,
    query: ListCollectionsQuery,
    responses: { 200: { description: 'Collections', schema: paged(CollectionSchema) } },
    async handle({ actor, em, params, query, deps }) {
      const access = await ContentAccess.load(em, await loadOrgAccess(em, actor, params.organizationId));
      const page = await listReadableCollections(em, access, !query.nested, query);
      return { status: 200, body: { ...page, items: page.items.map((c) => presentCollection(c, access, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/collections',
    operationId: 'createCollection',
    summary: 'Create a collection',
    tags,
    params: OrgParams,
    body: CreateCollectionBody,
    responses: { 201: { description: 'The new collection', schema: CollectionSchema } },
    async handle({ actor, em, params, body, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      const access = await ContentAccess.load(em, org);
      const parent = body?.parent ? await targetCollection(em, access, body.parent, 'body.parent') : null;
      if (!parent) authorize(organizationRules, org, 'createContent');
      const collection = await createCollection(em, access, { ...body, parent });
      const presented = presentCollection(collection, access, deps.urls);
      return { status: 201, body: presented, location: presented.urls.location };
    },
  }),
];
