import type { EntityManager } from '@mikro-orm/postgresql';
import type { SamlProvider } from '../../domain/entities/saml-provider.entity.ts';
import type { OrgView } from '../../domain/organizations/org-view.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import { presentTeam } from '../teams/teams.presenter.ts';
import type { SamlProviderWire } from './sso.schema.ts';

/** Where an identity provider talks to Vellum: derived from PUBLIC_URL and the provider id. */
export function serviceEndpoints(provider: SamlProvider, urls: Urls) {
  const base = `/sso/saml/${provider.id}`;
  return {
    acsURL: urls.root(`${base}/acs`),
    startURL: urls.root(`${base}/start`),
    entityID: urls.root(`${base}/metadata`),
  };
}

export async function presentSamlProvider(
  em: EntityManager,
  provider: SamlProvider,
  org: OrgView,
  urls: Urls,
): Promise<z.infer<typeof SamlProviderWire>> {
  const team = provider.defaultTeam ? await presentTeam(em, provider.defaultTeam, org) : undefined;
  return {
    object: 'saml-provider',
    id: provider.id,
    label: provider.label,
    ssoURL: provider.ssoURL,
    entityID: provider.entityID,
    certificate: provider.certificate,
    ...(team ? { defaultTeam: team } : {}),
    defaultRole: provider.defaultRole ?? null,
    createdAt: provider.createdAt.toISOString(),
    // Creation requires the IdP's URL, entity id and certificate, so a stored provider is complete.
    status: 'active',
    service: serviceEndpoints(provider, urls),
    urls: { location: urls.location(`/orgs/${org.organization.id}/saml/${provider.id}`) },
  };
}
