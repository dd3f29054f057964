import { OpenApiSpec } from '../../domain/entities/openapi-spec.entity.ts';
import { openapiRules } from '../../domain/openapi/openapi.policy.ts';
import { createSpec, getSpec, listSpecs, setSource } from '../../domain/openapi/specs.ts';
import { loadOrgAccess } from '../../domain/organizations/org-access.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import { openapiProcessJob } from '../../jobs/openapi-process.job.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentSpec } from './openapi.presenter.ts';
import { CreateSpecBody, OpenApiSpecSchema, PatchSpecBody, PutSpecBody, SpecParams } from './openapi.schema.ts';

const tags = ['openapi'];
const ok = { description: 'The specification', schema: OpenApiSpecSchema };

export const openapiRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/openapi',
    operationId: 'listOpenAPISpecs',
    summary: 'OpenAPI specifications of an organization',
    tags,
    params: OrgParams,
    query: PagingQuery,
    responses: { 200: { description: 'Specifications', schema: paged(OpenApiSpecSchema) } },
    async handle({ actor, em, params, query, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(openapiRules, org, 'view');
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
    responses: { 201: ok },
    async handle({ actor, em, params, body, deps, outbox }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(openapiRules, org, 'edit');
      const spec = await em.transactional(async (tx) => {
        const created = await createSpec(tx, org.organization, body.slug, body.source);
        outbox.add(tx, openapiProcessJob, { specId: created.id });
        return created;
      });
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
    responses: { 200: ok },
    async handle({ actor, em, params, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(openapiRules, org, 'view');
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
    responses: { 200: ok, 201: ok },
    async handle({ actor, em, params, body, deps, outbox }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(openapiRules, org, 'edit');
      const { spec, created } = await em.transactional(async (tx) => {
        const existing = await tx.findOne(OpenApiSpec, { organization: org.organization, slug: params.specSlug });
        const target = existing ?? (await createSpec(tx, org.organization, params.specSlug, body.source));
        if (existing) await setSource(tx, existing, body.source);
        outbox.add(tx, openapiProcessJob, { specId: target.id });
        return { spec: target, created: !existing };
      });
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
    responses: { 200: ok },
    async handle({ actor, em, params, body, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(openapiRules, org, 'edit');
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
    responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such specification' } },
    async handle({ actor, em, params }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(openapiRules, org, 'edit');
      const deleted = await em.nativeDelete(OpenApiSpec, { organization: org.organization, slug: params.specSlug });
      return { status: deleted > 0 ? 205 : 204 };
    },
  }),
];
