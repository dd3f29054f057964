import { resolveLinks, targetKey, type ResolvedLink } from '../../domain/content/links.ts';
import { findInTree, flattenTree, type TreePage } from '../../domain/content/revision-reader.ts';
import type { ApiDeps } from '../context.ts';
import { presentOrganization } from '../orgs/orgs.presenter.ts';
import { OrganizationSchema } from '../orgs/orgs.schema.ts';
import { presentSpace } from '../spaces/spaces.presenter.ts';
import { SpaceSchema } from '../spaces/spaces.schema.ts';
import { presentPage } from './content.presenter.ts';
import { PageSchema } from './content.schema.ts';
import { notFound } from '../../domain/shared/errors.ts';
import { Id, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { pageOfList, readRevision } from './read-content.ts';

const tags = ['content'];
const Status = z.enum(['ok', 'broken', 'in-app']);
const LinksQuery = PagingQuery.extend({ status: Status.optional() });

const ContentRef = z.object({ kind: z.enum(['url', 'page', 'file', 'anchor']) }).catchall(z.unknown());
const Location = z
  .object({
    kind: z.literal('page'),
    organization: OrganizationSchema,
    space: SpaceSchema,
    page: PageSchema,
    versionContext: z.object({ type: z.literal('revision'), revision: z.string() }),
  })
  .meta({ id: 'ContentLocation' });
const LinkItem = z.object({ status: Status, relation: z.literal('reference'), targetReference: ContentRef, locationReferences: z.array(Location) });
const LinksResponse = z.object({
  next: z.object({ page: z.string() }).optional(),
  count: z.number().int(),
  stats: z.object({ total: z.number().int(), broken: z.object({ total: z.number().int() }) }),
  items: z.array(LinkItem),
});
const BacklinksResponse = z.object({ next: z.object({ page: z.string() }).optional(), count: z.number().int(), items: z.array(Location) });

/** Where links live: presented once per request, shared by every location of the response. */
type Where = { organization: unknown; space: unknown; revision: string; pages: Map<string, unknown> };

function location(where: Where, pageId: string) {
  return { kind: 'page' as const, organization: where.organization, space: where.space, page: where.pages.get(pageId), versionContext: { type: 'revision' as const, revision: where.revision } };
}

function whereOf(r: Awaited<ReturnType<typeof readRevision>>, tree: TreePage[], deps: ApiDeps): Where {
  const ctx = { spaceId: r.space.id, urls: deps.urls, metadata: false };
  const pages = new Map(flattenTree(tree).map((p) => [p.node.pageId, { ...presentPage(p, ctx), pages: [] }]));
  return { organization: presentOrganization(r.access.org, deps.urls), space: presentSpace(r.space, r.access, deps.urls), revision: r.revision.id, pages };
}

/** One item per distinct target, with every page that links to it. */
function linkItems(links: ResolvedLink[], where: Where) {
  const byTarget = new Map<string, { status: ResolvedLink['status']; target: ResolvedLink['target']; from: Set<string> }>();
  for (const l of links) {
    const key = targetKey(l.target);
    const item = byTarget.get(key) ?? { status: l.status, target: l.target, from: new Set<string>() };
    item.from.add(l.from);
    byTarget.set(key, item);
  }
  return [...byTarget.entries()].map(([key, i]) => ({
    key,
    body: { status: i.status, relation: 'reference' as const, targetReference: i.target, locationReferences: [...i.from].map((p) => location(where, p)) },
  }));
}

function linksPage(links: ResolvedLink[], where: Where, query: z.infer<typeof LinksQuery>) {
  const all = linkItems(links, where);
  const stats = { total: all.length, broken: { total: all.filter((i) => i.body.status === 'broken').length } };
  const filtered = query.status ? all.filter((i) => i.body.status === query.status) : all;
  const page = pageOfList(filtered, (i) => i.key, query);
  return { ...page, stats, items: page.items.map((i) => i.body) };
}

/** The pages these links come from, each once, as a page of locations. */
function backlinks(from: ResolvedLink[], where: Where, query: z.infer<typeof PagingQuery>) {
  const page = pageOfList([...new Set(from.map((l) => l.from))], (id) => id, query);
  return { ...page, items: page.items.map((id) => location(where, id)) };
}

async function revisionLinks(em: Parameters<typeof readRevision>[0], actor: Parameters<typeof readRevision>[1], spaceId: string, deps: ApiDeps) {
  const r = await readRevision(em, actor, spaceId);
  const tree = await r.tree();
  const links = await resolveLinks(em, tree, await r.files(), deps.config.appUrl);
  return { tree, links, where: whereOf(r, tree, deps) };
}

/** The revision's links, for a page that must be in it (404 otherwise). */
async function pageLinks(em: Parameters<typeof readRevision>[0], actor: Parameters<typeof readRevision>[1], params: { spaceId: string; pageId: string }, deps: ApiDeps) {
  const found = await revisionLinks(em, actor, params.spaceId, deps);
  if (!findInTree(found.tree, params.pageId)) throw notFound('Page');
  return found;
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
    responses: { 200: { description: 'Links', schema: LinksResponse } },
    async handle({ actor, em, params, query, deps }) {
      const { links, where } = await revisionLinks(em, actor, params.spaceId, deps);
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
    responses: { 200: { description: 'Links', schema: LinksResponse } },
    async handle({ actor, em, params, query, deps }) {
      const { links, where } = await pageLinks(em, actor, params, deps);
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
    responses: { 200: { description: 'Pages linking here', schema: BacklinksResponse } },
    async handle({ actor, em, params, query, deps }) {
      const { links, where } = await pageLinks(em, actor, params, deps);
      const toPage = (l: ResolvedLink) => (l.target.kind === 'page' || l.target.kind === 'anchor') && l.target.page === params.pageId && l.from !== params.pageId;
      return { status: 200, body: backlinks(links.filter(toPage), where, query) };
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
    responses: { 200: { description: 'Pages linking here', schema: BacklinksResponse } },
    async handle({ actor, em, params, query, deps }) {
      const r = await readRevision(em, actor, params.spaceId);
      const files = await r.files();
      if (!files.some((f) => f.fileId === params.fileId)) throw notFound('File');
      const tree = await r.tree();
      const links = await resolveLinks(em, tree, files, deps.config.appUrl);
      const where = whereOf(r, tree, deps);
      return { status: 200, body: backlinks(links.filter((l) => l.target.kind === 'file' && l.target.file === params.fileId), where, query) };
    },
  }),
];
