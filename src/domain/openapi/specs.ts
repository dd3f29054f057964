import type { EntityManager } from '@mikro-orm/postgresql';
import { OpenApiSpecVersion } from '../entities/openapi-spec-version.entity.ts';
import { OpenApiSpec } from '../entities/openapi-spec.entity.ts';
import type { Organization } from '../entities/organization.entity.ts';
import { ConflictError, notFound } from '../shared/errors.ts';
import { byTime, findPage, type PageRequest } from '../shared/paging.ts';

export type SpecSource = { url: string } | { text: string };

export async function getSpec(em: EntityManager, organization: Organization, slug: string): Promise<OpenApiSpec> {
  const spec = await em.findOne(OpenApiSpec, { organization, slug });
  if (!spec) throw notFound('OpenAPI specification');
  return spec;
}

export async function listSpecs(em: EntityManager, organization: Organization, page: PageRequest) {
  return findPage(em, OpenApiSpec, { organization }, byTime('createdAt', 'desc'), page);
}

/** A new spec waiting for processing (the caller records the processing job in the same transaction). */
export async function createSpec(em: EntityManager, organization: Organization, slug: string, source: SpecSource): Promise<OpenApiSpec> {
  if (await em.count(OpenApiSpec, { organization, slug })) throw new ConflictError(`An OpenAPI specification with slug "${slug}" already exists`);
  const spec = em.create(OpenApiSpec, { organization, slug, ...sourceColumns(source) });
  await em.flush();
  return spec;
}

/** A new source: processing starts again, conditional-request state is forgotten. */
export async function setSource(em: EntityManager, spec: OpenApiSpec, source: SpecSource) {
  Object.assign(spec, sourceColumns(source));
  spec.processingState = 'pending';
  spec.fetchState = {};
  await em.flush();
}

function sourceColumns(source: SpecSource) {
  return 'url' in source ? { sourceUrl: source.url, sourceText: null } : { sourceUrl: null, sourceText: source.text };
}

export async function listVersions(em: EntityManager, spec: OpenApiSpec, page: PageRequest) {
  return findPage(em, OpenApiSpecVersion, { spec }, byTime('createdAt', 'desc'), page);
}

/** A version by id, or `latest`. */
export async function getVersion(em: EntityManager, spec: OpenApiSpec, versionId: string): Promise<OpenApiSpecVersion> {
  const version =
    versionId === 'latest'
      ? await em.findOne(OpenApiSpecVersion, { spec }, { orderBy: { createdAt: 'desc', id: 'desc' } })
      : await em.findOne(OpenApiSpecVersion, { id: versionId, spec });
  if (!version) throw notFound(versionId === 'latest' ? 'No version of this specification has been processed yet; version' : 'Version');
  return version;
}
