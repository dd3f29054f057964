import type { OpenApiSpecVersion } from '../../domain/entities/openapi-spec-version.entity.ts';
import type { OpenApiSpec } from '../../domain/entities/openapi-spec.entity.ts';
import { redactText, redactUrl } from '../../domain/net/redact.ts';
import { openapiRules } from '../../domain/openapi/openapi.policy.ts';
import type { OrgView } from '../../domain/organizations/org-view.ts';
import { permissionsOf } from '../../domain/policy/authorize.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import type { OpenApiSpecWire, VersionWire } from './openapi.schema.ts';

const specPath = (spec: OpenApiSpec) => `/orgs/${spec.organization.id}/openapi/${spec.slug}`;

export function presentSpec(spec: OpenApiSpec, access: OrgView, urls: Urls): z.infer<typeof OpenApiSpecWire> {
  return {
    object: 'openapi-spec',
    id: spec.id,
    createdAt: spec.createdAt.toISOString(),
    updatedAt: spec.updatedAt.toISOString(),
    slug: spec.slug,
    ...(spec.sourceUrl ? { sourceURL: redactUrl(spec.sourceUrl) } : {}),
    visibility: spec.visibility,
    processingState: spec.processingState,
    ...(spec.lastVersion ? { lastVersion: spec.lastVersion } : {}),
    ...(spec.lastProcessedAt ? { lastProcessedAt: spec.lastProcessedAt.toISOString() } : {}),
    ...(spec.lastProcessErrorCode ? { lastProcessErrorCode: spec.lastProcessErrorCode } : {}),
    ...(spec.lastProcessedErrors.length ? { lastProcessedErrors: spec.lastProcessedErrors.map((e) => ({ ...e, message: redactText(e.message) })) } : {}),
    permissions: permissionsOf(openapiRules, access, ['view', 'edit'] as const),
    urls: { location: urls.location(specPath(spec)), app: urls.appLink(`/o/${spec.organization.id}/openapi/${spec.slug}`) },
  };
}

export function presentVersion(version: OpenApiSpecVersion, spec: OpenApiSpec, urls: Urls): z.infer<typeof VersionWire> {
  const location = urls.location(`${specPath(spec)}/versions/${version.id}`);
  return { object: 'openapi-spec-version', id: version.id, createdAt: version.createdAt.toISOString(), url: `${location}/content`, urls: { location } };
}
