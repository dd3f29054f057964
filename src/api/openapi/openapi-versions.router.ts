import type { EntityManager } from '@mikro-orm/postgresql';
import { openapiRules } from '../../domain/openapi/openapi.policy.ts';
import { getSpec, getVersion, listVersions } from '../../domain/openapi/specs.ts';
import type { OrgView } from '../../domain/organizations/org-view.ts';
import { organizationResource } from '../../domain/organizations/organization.policy.ts';
import type { ApiDeps } from '../context.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { presentVersion } from './openapi.presenter.ts';
import { SpecParams, VersionContentWire, VersionParams, VersionWire } from './openapi.schema.ts';

const tags = ['openapi'];

/** Every route here reads a specification of the organization: the `view` rule of specifications. */
const readable = { load: organizationResource, authorize: { rules: openapiRules, action: 'view' as const } };

/** One version (or `latest`), as itself or as its content. */
async function readVersion(em: EntityManager, org: OrgView, params: { specSlug: string; versionId: string }, deps: ApiDeps, content: boolean) {
  const spec = await getSpec(em, org.organization, params.specSlug);
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
    ...readable,
    responses: { 200: { description: 'Versions', schema: paged(VersionWire) } },
    async handle({ em, params, query, deps, subject: org }) {
      const spec = await getSpec(em, org.organization, params.specSlug);
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
    ...readable,
    responses: { 200: { description: 'The version', schema: VersionWire } },
    async handle({ em, params, deps, subject: org }) {
      return readVersion(em, org, { ...params, versionId: 'latest' }, deps, false);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
    operationId: 'getLatestOpenAPISpecVersionContent',
    summary: 'Every file of the newest version, by path',
    tags,
    params: SpecParams,
    ...readable,
    responses: { 200: { description: 'The content', schema: VersionContentWire } },
    async handle({ em, params, deps, subject: org }) {
      return readVersion(em, org, { ...params, versionId: 'latest' }, deps, true);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
    operationId: 'getOpenAPISpecVersionById',
    summary: 'One version',
    tags,
    params: VersionParams,
    ...readable,
    responses: { 200: { description: 'The version', schema: VersionWire } },
    async handle({ em, params, deps, subject: org }) {
      return readVersion(em, org, params, deps, false);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
    operationId: 'getOpenAPISpecVersionContentById',
    summary: 'Every file of one version, by path',
    tags,
    params: VersionParams,
    ...readable,
    responses: { 200: { description: 'The content', schema: VersionContentWire } },
    async handle({ em, params, deps, subject: org }) {
      return readVersion(em, org, params, deps, true);
    },
  }),
];
