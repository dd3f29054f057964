import { spaceRules } from '../../domain/content/content.policy.ts';
import { readableSpaceTitles } from '../../domain/content/listing.ts';
import { orgContentResource, spaceResource } from '../../domain/content/load-content.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import { searchSpace, searchSpaces, type PageHit } from '../../domain/search/search.ts';
import { Id, paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import type { Urls } from '../http/urls.ts';
import { z } from '../http/zod.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';

const tags = ['search'];
const SearchQuery = PagingQuery.extend({ query: z.string().trim().min(1).max(512) });

const SectionResult = z.object({ id: z.string(), title: z.string(), path: z.string(), body: z.string(), urls: z.object({ app: z.string() }) });
const PageResult = z
  .object({ id: z.string(), title: z.string(), path: z.string(), sections: z.array(SectionResult), urls: z.object({ app: z.string() }) })
  .meta({ id: 'SearchPageResult' });
const SpaceResult = z.object({ id: z.string(), title: z.string(), pages: z.array(PageResult) }).meta({ id: 'SearchSpaceResult' });

function presentHit(hit: PageHit, urls: Urls): z.infer<typeof PageResult> {
  const pageUrl = urls.appLink(`/s/${hit.spaceId}/${hit.path}`);
  return {
    id: hit.pageId,
    title: hit.title,
    path: hit.path,
    sections: hit.sections.map((s) => ({
      id: s.anchor ?? hit.pageId,
      title: s.title,
      path: s.anchor ? `${hit.path}#${s.anchor}` : hit.path,
      body: s.snippet,
      urls: { app: s.anchor ? `${pageUrl}#${s.anchor}` : pageUrl },
    })),
    urls: { app: pageUrl },
  };
}

export const searchRoutes = [
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/search',
    operationId: 'searchSpaceContent',
    summary: 'Search a space’s current content; results are pages with their matching sections',
    tags,
    params: z.object({ spaceId: Id }),
    query: SearchQuery,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'view' },
    responses: { 200: { description: 'Matching pages', schema: paged(PageResult) } },
    async handle({ em, query, deps, subject: { space } }) {
      // A space in the bin stays readable by id, but its content is not searched.
      if (space.deletedAt) return { status: 200, body: { items: [], count: 0 } };
      const result = await searchSpace(em, space.id, query.query, query);
      return { status: 200, body: { ...result, items: result.items.map((h) => presentHit(h, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/search',
    operationId: 'searchOrganizationContent',
    summary: 'Search every space of an organization the caller can read; results grouped by space',
    tags,
    params: OrgParams,
    query: SearchQuery,
    load: orgContentResource,
    authorize: { rules: organizationRules, action: 'view' },
    responses: { 200: { description: 'Matching spaces with their pages', schema: paged(SpaceResult) } },
    async handle({ em, query, deps, subject: { access } }) {
      // Which spaces are searched is the policy's answer (spaceRules.view), asked in SQL.
      const titles = await readableSpaceTitles(em, access);
      const result = await searchSpaces(em, [...titles.keys()], query.query, query);
      const items = result.items.map((r) => ({ id: r.spaceId, title: titles.get(r.spaceId) ?? '', pages: r.pages.map((h) => presentHit(h, deps.urls)) }));
      return { status: 200, body: { ...result, items } };
    },
  }),
];
