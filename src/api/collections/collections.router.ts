import { createCollection, deleteCollection, updateCollection } from '../../domain/content/collections.ts';
import { ContentRoles } from '../../domain/content/content-roles.ts';
import { collectionRules, contentTargetRules } from '../../domain/content/content.policy.ts';
import { grantAccess } from '../../domain/content/grants.ts';
import { listReadableCollections, listReadableSpaces } from '../../domain/content/listing.ts';
import { collectionResource, contentTargetResource, orgContentResource } from '../../domain/content/load-content.ts';
import { moveItem } from '../../domain/content/move.ts';
import { transferItem } from '../../domain/content/transfer.ts';
import { loadOrgView } from '../../domain/organizations/org-view.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { GrantBody, MoveBody, toPosition, TransferBody } from '../http/content.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentSpaces } from '../spaces/spaces.presenter.ts';
import { SpaceWire } from '../spaces/spaces.schema.ts';
import { presentCollection } from './collections.presenter.ts';
import {
  CollectionParams,
  CollectionWire,
  CreateCollectionBody,
  ListCollectionsQuery,
  UpdateCollectionBody,
} from './collections.schema.ts';

const tags = ['collections'];
const ok = { 200: { description: 'The collection', schema: CollectionWire } };

export const collectionsRoutes = [
  defineRoute({
    method: 'get',
    path: '/collections/{collectionId}',
    operationId: 'getCollectionById',
    summary: 'One collection',
    tags,
    params: CollectionParams,
    load: collectionResource,
    authorize: { rules: collectionRules, action: 'view' },
    responses: ok,
    async handle({ deps, subject: { collection, access } }) {
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
    load: collectionResource,
    authorize: { rules: collectionRules, action: 'update' },
    responses: ok,
    async handle({ em, body, deps, subject: { collection, access } }) {
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
    load: collectionResource,
    authorize: { rules: collectionRules, action: 'delete' },
    ifMissing: 204,
    responses: { 204: { description: 'Deleted, or there was no such collection' } },
    async handle({ em, deps, subject: { collection } }) {
      await deleteCollection(em, collection, deps.clock);
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
    load: collectionResource,
    authorize: { rules: collectionRules, action: 'view' },
    responses: { 200: { description: 'Spaces', schema: paged(SpaceWire) } },
    async handle({ em, query, deps, subject: { collection, access } }) {
      const page = await listReadableSpaces(em, access, collection.id, query);
      return { status: 200, body: { ...page, items: await presentSpaces(em, page.items, access, deps.urls) } };
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
    load: collectionResource,
    authorize: { rules: collectionRules, action: 'move' },
    responses: ok,
    async handle({ em, body, deps, subject: { collection, access } }) {
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
    load: collectionResource,
    authorize: { rules: collectionRules, action: 'transfer' },
    responses: ok,
    async handle({ actor, em, body, deps, subject: { collection, access } }) {
      await transferItem(em, actor, access, collection, body);
      const targetAccess = await ContentRoles.load(em, await loadOrgView(em, actor, collection.organization.id));
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
    load: collectionResource,
    authorize: { rules: collectionRules, action: 'share' },
    responses: { 204: { description: 'Granted' } },
    async handle({ em, body, subject: { collection } }) {
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
    load: orgContentResource,
    authorize: { rules: organizationRules, action: 'view' },
    responses: { 200: { description: 'Collections', schema: paged(CollectionWire) } },
    async handle({ em, query, deps, subject: { access } }) {
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
    load: contentTargetResource,
    authorize: { rules: contentTargetRules, action: 'create' },
    responses: { 201: { description: 'The new collection', schema: CollectionWire } },
    async handle({ em, body, deps, subject: { access, parent } }) {
      const collection = await createCollection(em, access, { ...body, parent });
      const presented = presentCollection(collection, access, deps.urls);
      return { status: 201, body: presented, location: presented.urls.location };
    },
  }),
];
