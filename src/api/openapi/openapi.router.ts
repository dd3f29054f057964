import { OpenApiSpec } from '../../domain/entities/openapi-spec.entity.ts';
import { openapiRules } from '../../domain/openapi/openapi.policy.ts';
import { createSpec, getSpec, listSpecs, setSource } from '../../domain/openapi/specs.ts';
import { organizationResource } from '../../domain/organizations/organization.policy.ts';
import { openapiProcessJob } from '../../jobs/openapi-process.job.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentSpec } from './openapi.presenter.ts';
import { CreateSpecBody, OpenApiSpecWire, PatchSpecBody, PutSpecBody, SpecParams } from './openapi.schema.ts';

const tags = ['openapi'];
const ok = { description: 'The specification', schema: OpenApiSpecWire };

export const openapiRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi',
    operationId: 'listOpenAPISpecs',
    summary: 'OpenAPI specifications of an organization',
    tags,
    params: OrgParams,
    query: PagingQuery,
    load: organizationResource,
    authorize: { rules: openapiRules, action: 'view' },
    responses: { 200: { description: 'Specifications', schema: paged(OpenApiSpecWire) } },
    async handle({ em, query, deps, subject: org }) {
      const page = await listSpecs(em, org.organization, query);
      return { status: 200, body: { ...page, items: page.items.map((s) => presentSpec(s, org, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/openapi',
    operationId: 'createOpenAPISpec',
    summary: 'Add an OpenAPI specification from a URL or from text; it is processed in the background',
    tags,
    params: OrgParams,
    body: CreateSpecBody,
    load: organizationResource,
    authorize: { rules: openapiRules, action: 'edit' },
    transactional: true,
    responses: { 201: ok },
    async handle({ em, body, deps, outbox, subject: org }) {
      const spec = await createSpec(em, org.organization, body.slug, body.source);
      outbox.add(em, openapiProcessJob, { specId: spec.id });
      const presented = presentSpec(spec, org, deps.urls);
      return { status: 201, body: presented, location: presented.urls.location };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    operationId: 'getOpenAPISpecBySlug',
    summary: 'One OpenAPI specification',
    tags,
    params: SpecParams,
    load: organizationResource,
    authorize: { rules: openapiRules, action: 'view' },
    responses: { 200: ok },
    async handle({ em, params, deps, subject: org }) {
      return { status: 200, body: presentSpec(await getSpec(em, org.organization, params.specSlug), org, deps.urls) };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    operationId: 'createOrUpdateOpenAPISpecBySlug',
    summary: 'Set the source of a specification, creating it when there is none (201) or updating it (200)',
    tags,
    params: SpecParams,
    body: PutSpecBody,
    load: organizationResource,
    authorize: { rules: openapiRules, action: 'edit' },
    transactional: true,
    responses: { 200: ok, 201: ok },
    async handle({ em, params, body, deps, outbox, subject: org }) {
      const existing = await em.findOne(OpenApiSpec, { organization: org.organization, slug: params.specSlug });
      const spec = existing ?? (await createSpec(em, org.organization, params.specSlug, body.source));
      if (existing) await setSource(em, existing, body.source);
      outbox.add(em, openapiProcessJob, { specId: spec.id });
      const created = !existing;
      const presented = presentSpec(spec, org, deps.urls);
      return created ? { status: 201, body: presented, location: presented.urls.location } : { status: 200, body: presented };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    operationId: 'updateOpenAPISpecBySlug',
    summary: 'Change who can see a specification',
    tags,
    params: SpecParams,
    body: PatchSpecBody,
    load: organizationResource,
    authorize: { rules: openapiRules, action: 'edit' },
    responses: { 200: ok },
    async handle({ em, params, body, deps, subject: org }) {
      const spec = await getSpec(em, org.organization, params.specSlug);
      spec.visibility = body.visibility;
      await em.flush();
      return { status: 200, body: presentSpec(spec, org, deps.urls) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    operationId: 'deleteOpenAPISpecBySlug',
    summary: 'Delete a specification and its versions',
    tags,
    params: SpecParams,
    load: organizationResource,
    authorize: { rules: openapiRules, action: 'edit' },
    responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such specification' } },
    async handle({ em, params, subject: org }) {
      const deleted = await em.nativeDelete(OpenApiSpec, { organization: org.organization, slug: params.specSlug });
      return { status: deleted > 0 ? 205 : 204 };
    },
  }),
];
