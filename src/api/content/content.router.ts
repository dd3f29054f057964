import { findInTree, loadBody } from '../../domain/content/revision-reader.ts';
import { evaluate } from '../../domain/content/variables.ts';
import { markdownToDocument } from '../../domain/content/markdown/document.ts';
import { loadChangeRequest } from '../../domain/change-requests/load-change-request.ts';
import { spaceRules, type ContentView } from '../../domain/content/content.policy.ts';
import { loadSpace, type LoadedSpace } from '../../domain/content/load-content.ts';
import type { Resource } from '../../domain/policy/authorize.ts';
import { notFound } from '../../domain/shared/errors.ts';
import { presentMergedFrom } from '../change-requests/change-requests.presenter.ts';
import { Id, paged } from '../http/common.schema.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { presentFile, presentPage, presentRevision } from './content.presenter.ts';
import { ContentQuery, FileWire, FilesQuery, PageQuery, PageWire, PagesResponse, RevisionWire } from './content.schema.ts';
import { pageOfList } from '../../domain/shared/paging.ts';
import { fileContext, readRevision } from './read-content.ts';

/** The current content has only {spaceId}; a revision read by id adds {revisionId}, a change request's {changeRequestId}. */
type SourceShape = { spaceId: typeof Id; revisionId?: typeof Id; changeRequestId?: typeof Id };
/** Path parameters as loaders get them; each source's own schema has validated (and required) its names. */
type SourceParams = { spaceId: string } & Record<string, unknown>;
const param = (params: SourceParams, name: 'revisionId' | 'changeRequestId') => params[name] as string;

/** A space and which of its revisions is read (undefined: its current one). */
type RevisionSubject = LoadedSpace & { revisionId: string | undefined };

type Source = {
  /** Path of the revision, relative to /v1, with {spaceId} (and {revisionId} or {changeRequestId}). */
  base: string;
  /** Exactly the parameters of `base`: the OpenAPI document declares each path's own, all required. */
  params: z.ZodObject<SourceShape>;
  /** Loads what the path names (404 when the caller may not read it) and picks the revision. */
  load: Resource<RevisionSubject, ContentView, { params: SourceParams }>;
  ids: { revision: string; pages: string; files: string; file: string; page: string };
  what: string;
};

/**
 * The five reads of a revision (itself, its pages, its files, one file, one page), made
 * once for every place a revision is read from: the space's current content, any
 * revision by id, and a change request's (its current revision).
 */
function revisionReads(source: Source): AnyRoute[] {
  const tags = ['content'];
  const pageParams = source.params.extend({ pageId: Id });
  const fileParams = source.params.extend({ fileId: Id });
  // Built apart from the return statement so each route infers its own types.
  const routes = [
    defineRoute({
      method: 'get',
      path: source.base,
      operationId: source.ids.revision,
      summary: `The ${source.what}`,
      tags,
      auth: 'user',
      load: source.load,
      authorize: { rules: spaceRules, action: 'view' },
      params: source.params,
      query: ContentQuery,
      responses: { 200: { description: 'The revision', schema: RevisionWire } },
      async handle({ em, params, query, deps, subject }) {
        const r = await readRevision(em, subject, subject.revisionId);
        const ctx = { spaceId: r.space.id, urls: deps.urls, metadata: query.metadata, files: fileContext(deps, query.metadata) };
        const mergedFrom = await presentMergedFrom(em, r.revision, deps.urls);
        return { status: 200, body: presentRevision(r.revision, await r.tree(), await r.files(), ctx, mergedFrom) };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${source.base}/pages`,
      operationId: source.ids.pages,
      summary: `The page tree of the ${source.what}`,
      tags,
      auth: 'user',
      load: source.load,
      authorize: { rules: spaceRules, action: 'view' },
      params: source.params,
      query: ContentQuery,
      responses: { 200: { description: 'Pages', schema: PagesResponse } },
      async handle({ em, params, query, deps, subject }) {
        const r = await readRevision(em, subject, subject.revisionId);
        const ctx = { spaceId: r.space.id, urls: deps.urls, metadata: query.metadata };
        return { status: 200, body: { pages: (await r.tree()).map((p) => presentPage(p, ctx)) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${source.base}/files`,
      operationId: source.ids.files,
      summary: `The files of the ${source.what}`,
      tags,
      auth: 'user',
      load: source.load,
      authorize: { rules: spaceRules, action: 'view' },
      params: source.params,
      query: FilesQuery,
      responses: { 200: { description: 'Files', schema: paged(FileWire) } },
      async handle({ em, params, query, deps, subject }) {
        const r = await readRevision(em, subject, subject.revisionId);
        const page = pageOfList(await r.files(), (f) => f.fileId, query);
        const ctx = fileContext(deps, query.metadata);
        return { status: 200, body: { ...page, items: page.items.map((f) => presentFile(f, ctx)) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${source.base}/files/{fileId}`,
      operationId: source.ids.file,
      summary: `One file of the ${source.what}`,
      tags,
      auth: 'user',
      load: source.load,
      authorize: { rules: spaceRules, action: 'view' },
      params: fileParams,
      query: ContentQuery,
      responses: { 200: { description: 'The file', schema: FileWire } },
      async handle({ em, params, query, deps, subject }) {
        const r = await readRevision(em, subject, subject.revisionId);
        const file = (await r.files()).find((f) => f.fileId === params.fileId);
        if (!file) throw notFound('File');
        return { status: 200, body: presentFile(file, fileContext(deps, query.metadata)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${source.base}/page/{pageId}`,
      operationId: source.ids.page,
      summary: `One page of the ${source.what}, with its text`,
      tags,
      auth: 'user',
      load: source.load,
      authorize: { rules: spaceRules, action: 'view' },
      params: pageParams,
      query: PageQuery,
      responses: { 200: { description: 'The page', schema: PageWire } },
      async handle({ em, params, query, deps, subject }) {
        const r = await readRevision(em, subject, subject.revisionId);
        const page = findInTree(await r.tree(), params.pageId);
        if (!page) throw notFound('Page');
        let markdown = (await loadBody(em, page.node.bodyHash ?? null))?.markdown;
        if (markdown !== undefined && query.evaluated) {
          markdown = evaluate(markdown, { space: r.revision.variables, page: page.node.variables ?? {} }, query.evaluated);
        }
        const body = markdown === undefined ? {} : query.format === 'markdown' ? { markdown } : { document: markdownToDocument(markdown) };
        return { status: 200, body: presentPage(page, { spaceId: r.space.id, urls: deps.urls, metadata: query.metadata }, body) };
      },
    }),
  ];
  return routes;
}

/** A space the caller may read: the subject of its current content and of its revisions by id. */
const readSpace = (em: Parameters<typeof loadSpace>[0], actor: Parameters<typeof loadSpace>[1], params: SourceParams) => loadSpace(em, actor, params.spaceId);

export const contentRoutes: AnyRoute[] = [
  ...revisionReads({
    base: '/spaces/{spaceId}/content',
    params: z.object({ spaceId: Id }),
    load: { name: 'space', load: async (em, actor, { params }) => ({ ...(await readSpace(em, actor, params)), revisionId: undefined }), view: (s) => s.view },
    ids: { revision: 'getCurrentRevision', pages: 'listPages', files: 'listFiles', file: 'getFileById', page: 'getPageById' },
    what: 'space’s current content',
  }),
  ...revisionReads({
    base: '/spaces/{spaceId}/revisions/{revisionId}',
    params: z.object({ spaceId: Id, revisionId: Id }),
    load: { name: 'space', load: async (em, actor, { params }) => ({ ...(await readSpace(em, actor, params)), revisionId: param(params, 'revisionId') }), view: (s) => s.view },
    ids: {
      revision: 'getRevisionById',
      pages: 'listPagesInRevisionById',
      files: 'listFilesInRevisionById',
      file: 'getFileInRevisionById',
      page: 'getPageInRevisionById',
    },
    what: 'revision',
  }),
  ...revisionReads({
    base: '/spaces/{spaceId}/change-requests/{changeRequestId}/content',
    params: z.object({ spaceId: Id, changeRequestId: Id }),
    // Reading a change request's content is reading its space (changeRequestRules.view is spaceRules.view).
    load: {
      name: 'change request',
      async load(em, actor, { params }) {
        const loaded = await loadChangeRequest(em, actor, params.spaceId, param(params, 'changeRequestId'));
        return { ...loaded, revisionId: loaded.changeRequest.revision };
      },
      view: (s) => s.view,
    },
    ids: {
      revision: 'getRevisionOfChangeRequestById',
      pages: 'listPagesInChangeRequest',
      files: 'listFilesInChangeRequestById',
      file: 'getFileInChangeRequestById',
      page: 'getPageInChangeRequestById',
    },
    what: 'change request’s content',
  }),
];
