import { SamlProvider } from '../../domain/entities/saml-provider.entity.ts';
import { loadOrgAccess } from '../../domain/organizations/org-access.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import {
  createSamlProvider,
  getSamlProvider,
  listSamlProviders,
  updateSamlProvider,
} from '../../domain/organizations/saml.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentSamlProvider, serviceEndpoints } from './sso.presenter.ts';
import { CreateSamlBody, SamlParams, SamlProviderSchema, SsoEntryPoints, UpdateSamlBody } from './sso.schema.ts';

const tags = ['sso'];

export const ssoRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/saml',
    operationId: 'listSAMLProvidersInOrganizationById',
    summary: 'SAML providers of an organization',
    tags,
    params: OrgParams,
    query: PagingQuery,
    responses: { 200: { description: 'SAML providers', schema: paged(SamlProviderSchema) } },
    async handle({ actor, em, params, query, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageSso');
      const page = await listSamlProviders(em, org.organization, query);
      const items = await Promise.all(page.items.map((p) => presentSamlProvider(em, p, org, deps.urls)));
      return { status: 200, body: { ...page, items } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/saml',
    operationId: 'createOrganizationSAMLProvider',
    summary: 'Add a SAML identity provider',
    tags,
    params: OrgParams,
    body: CreateSamlBody,
    responses: { 201: { description: 'The new provider', schema: SamlProviderSchema } },
    async handle({ actor, em, params, body, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageSso');
      const provider = await createSamlProvider(em, org.organization, body);
      const presented = await presentSamlProvider(em, provider, org, deps.urls);
      return { status: 201, body: presented, location: presented.urls.location };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    operationId: 'getOrganizationSAMLProviderById',
    summary: 'One SAML provider',
    tags,
    params: SamlParams,
    responses: { 200: { description: 'The provider', schema: SamlProviderSchema } },
    async handle({ actor, em, params, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageSso');
      const provider = await getSamlProvider(em, org.organization, params.samlProviderId);
      return { status: 200, body: await presentSamlProvider(em, provider, org, deps.urls) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    operationId: 'updateOrganizationSAMLProvider',
    summary: 'Change a SAML provider',
    tags,
    params: SamlParams,
    body: UpdateSamlBody,
    responses: { 200: { description: 'The provider', schema: SamlProviderSchema } },
    async handle({ actor, em, params, body, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageSso');
      const provider = await getSamlProvider(em, org.organization, params.samlProviderId);
      await updateSamlProvider(em, provider, body);
      return { status: 200, body: await presentSamlProvider(em, provider, org, deps.urls) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    operationId: 'deleteOrganizationSAMLProvider',
    summary: 'Remove a SAML provider',
    tags,
    params: SamlParams,
    responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such provider' } },
    async handle({ actor, em, params }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'manageSso');
      const deleted = await em.nativeDelete(SamlProvider, { id: params.samlProviderId, organization: org.organization });
      return { status: deleted > 0 ? 205 : 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/sso',
    operationId: 'listSSOProviderLoginsInOrganization',
    summary: 'Where members start a single sign-on',
    tags,
    auth: 'any',
    params: OrgParams,
    responses: { 200: { description: 'SSO entry points', schema: SsoEntryPoints } },
    async handle({ actor, em, params, deps }) {
      const org = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, org, 'view');
      const providers = await em.find(SamlProvider, { organization: org.organization }, { orderBy: { createdAt: 'asc' }, limit: 100 });
      const items = providers.map((p) => ({ id: p.id, label: p.label, startURL: serviceEndpoints(p, deps.urls).startURL }));
      return { status: 200, body: { items } };
    },
  }),
];
