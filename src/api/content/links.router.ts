import { changeRequestRules } from '../../domain/change-requests/change-request.policy.ts';
import { changeRequestResource } from '../../domain/change-requests/load-change-request.ts';
import type { ChangeRequest } from '../../domain/entities/change-request.entity.ts';
import { presentMergedFrom, presentOneChangeRequest } from '../change-requests/change-requests.presenter.ts';
import { ChangeRequestParams } from '../change-requests/change-requests.schema.ts';
import { loadOneSpaceCounts } from '../../domain/content/space-counts.ts';
import { spaceRules } from '../../domain/content/content.policy.ts';
import { resolveLinks, targetKey, type ResolvedLink } from '../../domain/content/links.ts';
import { spaceResource, type LoadedSpace } from '../../domain/content/load-content.ts';
import { findInTree } from '../../domain/content/revision-reader.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../../domain/shared/errors.ts';
import { Id, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { pageOfList } from '../../domain/shared/paging.ts';
import { readRevision } from './read-content.ts';
import { linkItems, pageLocation, whereOf, type VersionOf, type Where } from './links.presenter.ts';
import { BacklinksResponse, LinksQuery, LinksResponse } from './links.schema.ts';

const tags = ['content'];

function linksPage(links: ResolvedLink[], where: Where, query: z.infer<typeof LinksQuery>) {
  const all = linkItems(links, where, targetKey);
  const stats = { total: all.length, broken: { total: all.filter((i) => i.body.status === 'broken').length } };
  const filtered = query.status ? all.filter((i) => i.body.status === query.status) : all;
  const page = pageOfList(filtered, (i) => i.key, query);
  return { ...page, stats, items: page.items.map((i) => i.body) };
}

/** The pages these links come from, each once, as a page of locations. */
function backlinks(from: ResolvedLink[], where: Where, query: z.infer<typeof PagingQuery>) {
  const page = pageOfList([...new Set(from.map((l) => l.from))], (id) => id, query);
  return { ...page, items: page.items.map((id) => pageLocation(where, id)) };
}

/**
 * The links of a space's current content, or of a change request's when one is given;
 * their locations name that version (`versionContext`).
 */
async function revisionLinks(em: Parameters<typeof readRevision>[0], space: LoadedSpace, deps: ApiDeps, changeRequest?: ChangeRequest) {
  const r = await readRevision(em, space, changeRequest?.revision);
  const [tree, files] = [await r.tree(), await r.files()];
  const links = await resolveLinks(em, tree, files, deps.config.appUrl);
  const version: VersionOf = changeRequest
    ? { type: 'changeRequest', changeRequest: await presentOneChangeRequest(em, changeRequest, deps.urls) }
    : { type: 'revision', mergedFrom: await presentMergedFrom(em, r.revision, deps.urls) };
  return { tree, files, links, where: whereOf(r, tree, files, deps, await loadOneSpaceCounts(em, r.space.id), version) };
}

/** The links, for a page that must be in the content read (404 otherwise). */
async function pageLinks(em: Parameters<typeof readRevision>[0], space: LoadedSpace, params: { pageId: string }, deps: ApiDeps, changeRequest?: ChangeRequest) {
  const found = await revisionLinks(em, space, deps, changeRequest);
  if (!findInTree(found.tree, params.pageId)) throw notFound('Page');
  return found;
}

/** Links into one page from other pages. */
const linksToPage = (pageId: string) => (l: ResolvedLink) => (l.target.kind === 'page' || l.target.kind === 'anchor') && l.target.page === pageId && l.from !== pageId;

/** Links to (or showing) one file; 404 when the content has no such file. */
function linksToFile(found: Awaited<ReturnType<typeof revisionLinks>>, fileId: string) {
  if (!found.files.some((f) => f.fileId === fileId)) throw notFound('File');
  return found.links.filter((l) => l.target.kind === 'file' && l.target.file === fileId);
}

export const linksRoutes = [
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/links',
    operationId: 'listSpaceLinks',
    summary: 'Every link in the space’s current content, with its status',
    tags,
    params: z.object({ spaceId: Id }),
    query: LinksQuery,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'view' },
    responses: { 200: { description: 'Links', schema: LinksResponse } },
    async handle({ em, params, query, deps, subject }) {
      const { links, where } = await revisionLinks(em, subject, deps);
      return { status: 200, body: linksPage(links, where, query) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/content/page/{pageId}/links',
    operationId: 'listPageLinksInSpace',
    summary: 'The links of one page',
    tags,
    params: z.object({ spaceId: Id, pageId: Id }),
    query: LinksQuery,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'view' },
    responses: { 200: { description: 'Links', schema: LinksResponse } },
    async handle({ em, params, query, deps, subject }) {
      const { links, where } = await pageLinks(em, subject, params, deps);
      return { status: 200, body: linksPage(links.filter((l) => l.from === params.pageId), where, query) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/content/page/{pageId}/backlinks',
    operationId: 'listSpacePageBacklinks',
    summary: 'Pages that link to a page',
    tags,
    params: z.object({ spaceId: Id, pageId: Id }),
    query: PagingQuery,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'view' },
    responses: { 200: { description: 'Pages linking here', schema: BacklinksResponse } },
    async handle({ em, params, query, deps, subject }) {
      const { links, where } = await pageLinks(em, subject, params, deps);
      return { status: 200, body: backlinks(links.filter(linksToPage(params.pageId)), where, query) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/content/files/{fileId}/backlinks',
    operationId: 'listSpaceFileBacklinks',
    summary: 'Pages that link to (or show) a file',
    tags,
    params: z.object({ spaceId: Id, fileId: Id }),
    query: PagingQuery,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'view' },
    responses: { 200: { description: 'Pages linking here', schema: BacklinksResponse } },
    async handle({ em, params, query, deps, subject }) {
      const found = await revisionLinks(em, subject, deps);
      return { status: 200, body: backlinks(linksToFile(found, params.fileId), found.where, query) };
    },
  }),
  // The same reads on a change request's content.
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links',
    operationId: 'listPageLinksInChangeRequest',
    summary: 'The links of one page of a change request',
    tags,
    params: ChangeRequestParams.extend({ pageId: Id }),
    query: PagingQuery,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'view' },
    responses: { 200: { description: 'Links', schema: LinksResponse } },
    async handle({ em, params, query, deps, subject }) {
      const { links, where } = await pageLinks(em, subject, params, deps, subject.changeRequest);
      return { status: 200, body: linksPage(links.filter((l) => l.from === params.pageId), where, query) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks',
    operationId: 'listChangeRequestPageBacklinks',
    summary: 'Pages of a change request that link to one of its pages',
    tags,
    params: ChangeRequestParams.extend({ pageId: Id }),
    query: PagingQuery,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'view' },
    responses: { 200: { description: 'Pages linking here', schema: BacklinksResponse } },
    async handle({ em, params, query, deps, subject }) {
      const { links, where } = await pageLinks(em, subject, params, deps, subject.changeRequest);
      return { status: 200, body: backlinks(links.filter(linksToPage(params.pageId)), where, query) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks',
    operationId: 'listChangeRequestFileBacklinks',
    summary: 'Pages of a change request that link to (or show) a file',
    tags,
    params: ChangeRequestParams.extend({ fileId: Id }),
    query: PagingQuery,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'view' },
    responses: { 200: { description: 'Pages linking here', schema: BacklinksResponse } },
    async handle({ em, params, query, deps, subject }) {
      const found = await revisionLinks(em, subject, deps, subject.changeRequest);
      return { status: 200, body: backlinks(linksToFile(found, params.fileId), found.where, query) };
    },
  }),
];
