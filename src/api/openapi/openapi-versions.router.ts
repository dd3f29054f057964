import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../domain/auth/actor.ts';
import { openapiRules } from '../../domain/openapi/openapi.policy.ts';
import { getSpec, getVersion, listVersions } from '../../domain/openapi/specs.ts';
import { loadOrgAccess } from '../../domain/organizations/org-access.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import type { ApiDeps } from '../context.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { presentVersion } from './openapi.presenter.ts';
import { SpecParams, VersionContentSchema, VersionParams, VersionSchema } from './openapi.schema.ts';

const tags = ['openapi'];

async function readableSpec(em: EntityManager, actor: Actor, organizationId: string, slug: string) {
  const org = await loadOrgAccess(em, actor, organizationId);
  authorize(openapiRules, org, 'view');
  return getSpec(em, org.organization, slug);
}

/** One version (or `latest`), as itself or as its content. */
async function readVersion(em: EntityManager, actor: Actor, params: { organizationId: string; specSlug: string; versionId: string }, deps: ApiDeps, content: boolean) {
  const spec = await readableSpec(em, actor, params.organizationId, params.specSlug);
  const version = await getVersion(em, spec, params.versionId);
  const presented = presentVersion(version, spec, deps.urls);
  return { status: 200, body: content ? { filesystem: version.filesystem, url: presented.url } : presented };
}

export const openapiVersionRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions',
    operationId: 'listOpenAPISpecVersions',
    summary: 'Versions of a specification, newest first',
    tags,
    params: SpecParams,
    query: PagingQuery,
    responses: { 200: { description: 'Versions', schema: paged(VersionSchema) } },
    async handle({ actor, em, params, query, deps }) {
      const spec = await readableSpec(em, actor, params.organizationId, params.specSlug);
      const page = await listVersions(em, spec, query);
      return { status: 200, body: { ...page, items: page.items.map((v) => presentVersion(v, spec, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest',
    operationId: 'getLatestOpenAPISpecVersion',
    summary: 'The newest version',
    tags,
    params: SpecParams,
    responses: { 200: { description: 'The version', schema: VersionSchema } },
    async handle({ actor, em, params, deps }) {
      return readVersion(em, actor, { ...params, versionId: 'latest' }, deps, false);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
    operationId: 'getLatestOpenAPISpecVersionContent',
    summary: 'Every file of the newest version, by path',
    tags,
    params: SpecParams,
    responses: { 200: { description: 'The content', schema: VersionContentSchema } },
    async handle({ actor, em, params, deps }) {
      return readVersion(em, actor, { ...params, versionId: 'latest' }, deps, true);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
    operationId: 'getOpenAPISpecVersionById',
    summary: 'One version',
    tags,
    params: VersionParams,
    responses: { 200: { description: 'The version', schema: VersionSchema } },
    async handle({ actor, em, params, deps }) {
      return readVersion(em, actor, params, deps, false);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
    operationId: 'getOpenAPISpecVersionContentById',
    summary: 'Every file of one version, by path',
    tags,
    params: VersionParams,
    responses: { 200: { description: 'The content', schema: VersionContentSchema } },
    async handle({ actor, em, params, deps }) {
      return readVersion(em, actor, params, deps, true);
    },
  }),
];
