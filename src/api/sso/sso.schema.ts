import { Id, RoleOrGuest, UrlsLocation } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';
import { TeamWire } from '../teams/teams.schema.ts';

export const SamlProviderWire = z
  .object({
    object: z.literal('saml-provider'),
    id: z.string(),
    label: z.string(),
    ssoURL: z.string(),
    entityID: z.string(),
    certificate: z.string(),
    defaultTeam: TeamWire.optional(),
    defaultRole: RoleOrGuest,
    createdAt: z.string(),
    status: z.enum(['active', 'pending']),
    service: z.object({ acsURL: z.string(), startURL: z.string(), entityID: z.string() }),
    urls: UrlsLocation,
  })
  .meta({ id: 'SAMLProvider' });

const HttpsUrl = z.url({ protocol: /^https$/, error: 'expected an https:// URL' }).max(2048);

export const CreateSamlBody = z.object({
  label: z.string().trim().min(1).max(30),
  ssoURL: HttpsUrl,
  entityID: z.string().trim().min(1).max(1024),
  certificate: z.string().min(1).max(10_000),
  defaultTeam: Id.nullable().optional(),
  defaultRole: RoleOrGuest.optional(),
});

export const UpdateSamlBody = CreateSamlBody.partial();

export const SamlParams = z.object({ organizationId: Id, samlProviderId: Id });

export const SsoEntryPoints = z.object({
  items: z.array(z.object({ id: z.string(), label: z.string(), startURL: z.string() })),
});
