import type { EntityManager } from '@mikro-orm/postgresql';
import { X509Certificate } from 'node:crypto';
import type { Organization } from '../entities/organization.entity.ts';
import { SamlProvider } from '../entities/saml-provider.entity.ts';
import { Team } from '../entities/team.entity.ts';
import { BadRequestError, notFound } from '../shared/errors.ts';
import { byTime, findPage, type PageRequest } from '../shared/paging.ts';
import type { RoleOrGuest } from '../shared/roles.ts';

export type SamlInput = {
  label: string;
  ssoURL: string;
  entityID: string;
  certificate: string;
  defaultTeam?: string | null;
  defaultRole?: RoleOrGuest;
};

export async function listSamlProviders(em: EntityManager, organization: Organization, page: PageRequest) {
  return findPage(
    em,
    SamlProvider,
    { organization },
    byTime('createdAt', 'asc'),
    page,
    { populate: ['defaultTeam'] },
  );
}

export async function getSamlProvider(em: EntityManager, organization: Organization, id: string): Promise<SamlProvider> {
  const provider = await em.findOne(SamlProvider, { id, organization }, { populate: ['defaultTeam'] });
  if (!provider) throw notFound('SAML provider');
  return provider;
}

export async function createSamlProvider(em: EntityManager, organization: Organization, input: SamlInput) {
  assertCertificate(input.certificate);
  const defaultTeam = input.defaultTeam ? await teamOf(em, organization, input.defaultTeam) : null;
  const provider = em.create(SamlProvider, {
    organization,
    label: input.label,
    ssoURL: input.ssoURL,
    entityID: input.entityID,
    certificate: input.certificate.trim(),
    defaultTeam,
    defaultRole: input.defaultRole ?? null,
  });
  await em.flush();
  return provider;
}

export async function updateSamlProvider(em: EntityManager, provider: SamlProvider, patch: Partial<SamlInput>) {
  if (patch.certificate !== undefined) assertCertificate(patch.certificate);
  const organization = provider.organization.getEntity();
  if (patch.defaultTeam !== undefined) {
    provider.defaultTeam = patch.defaultTeam === null ? null : await teamOf(em, organization, patch.defaultTeam);
  }
  if (patch.label !== undefined) provider.label = patch.label;
  if (patch.ssoURL !== undefined) provider.ssoURL = patch.ssoURL;
  if (patch.entityID !== undefined) provider.entityID = patch.entityID;
  if (patch.certificate !== undefined) provider.certificate = patch.certificate.trim();
  if (patch.defaultRole !== undefined) provider.defaultRole = patch.defaultRole;
  await em.flush();
  return provider;
}

/** An identity provider's signing certificate must parse as a PEM X.509 certificate. */
export function assertCertificate(pem: string) {
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(pem)) {
    throw new BadRequestError('certificate: expected a PEM X.509 certificate (-----BEGIN CERTIFICATE-----)');
  }
  try {
    new X509Certificate(pem);
  } catch {
    throw new BadRequestError('certificate: not a valid X.509 certificate');
  }
}

async function teamOf(em: EntityManager, organization: Organization, teamId: string): Promise<Team> {
  const team = await em.findOne(Team, { id: teamId, organization });
  if (!team) throw new BadRequestError(`defaultTeam: no team "${teamId}" in this organization`);
  return team;
}
