import { SamlProvider } from '../../domain/entities/saml-provider.entity.ts';
import { organizationResource, organizationRules } from '../../domain/organizations/organization.policy.ts';
import {
  createSamlProvider,
  getSamlProvider,
  listSamlProviders,
  updateSamlProvider,
} from '../../domain/organizations/saml.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentSamlProvider, serviceEndpoints } from './sso.presenter.ts';
import { CreateSamlBody, SamlParams, SamlProviderWire, SsoEntryPoints, UpdateSamlBody } from './sso.schema.ts';

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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageSso' },
    responses: { 200: { description: 'SAML providers', schema: paged(SamlProviderWire) } },
    async handle({ em, query, deps, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageSso' },
    responses: { 201: { description: 'The new provider', schema: SamlProviderWire } },
    async handle({ em, body, deps, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageSso' },
    responses: { 200: { description: 'The provider', schema: SamlProviderWire } },
    async handle({ em, params, deps, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageSso' },
    responses: { 200: { description: 'The provider', schema: SamlProviderWire } },
    async handle({ em, params, body, deps, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'manageSso' },
    responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such provider' } },
    async handle({ em, params, subject: org }) {
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
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'view' },
    responses: { 200: { description: 'SSO entry points', schema: SsoEntryPoints } },
    async handle({ em, deps, subject: org }) {
      const providers = await em.find(SamlProvider, { organization: org.organization }, { orderBy: { createdAt: 'asc' }, limit: 100 });
      const items = providers.map((p) => ({ id: p.id, label: p.label, startURL: serviceEndpoints(p, deps.urls).startURL }));
      return { status: 200, body: { items } };
    },
  }),
];
