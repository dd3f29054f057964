import { Id } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';

export const Slug = z.string().min(1).max(100).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'expected lower-case words joined by single dashes (e.g. petstore-v2)');

export const SpecSource = z.union([
  z.object({ url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).max(2048) }).strict(),
  z.object({ text: z.string().min(1) }).strict(),
]);

export const CreateSpecBody = z.object({ slug: Slug, source: SpecSource });
export const PutSpecBody = z.object({ source: SpecSource });
export const PatchSpecBody = z.object({ visibility: z.enum(['private', 'public']) });

export const SpecParams = z.object({ organizationId: Id, specSlug: Slug });
export const VersionParams = SpecParams.extend({ versionId: Id });

export const OpenApiSpecWire = z
  .object({
    object: z.literal('openapi-spec'),
    id: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    slug: z.string(),
    sourceURL: z.string().optional(),
    visibility: z.enum(['private', 'public']),
    processingState: z.enum(['pending', 'progress', 'complete']),
    lastVersion: z.string().optional(),
    lastProcessedAt: z.string().optional(),
    lastProcessErrorCode: z.enum(['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR']).optional(),
    lastProcessedErrors: z.array(z.object({ message: z.string(), code: z.string().optional() })).optional(),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
    urls: z.object({ location: z.string(), app: z.string() }),
  })
  .meta({ id: 'OpenAPISpec' });

export const VersionWire = z
  .object({ object: z.literal('openapi-spec-version'), id: z.string(), createdAt: z.string(), url: z.string().max(2048), urls: z.object({ location: z.string() }) })
  .meta({ id: 'OpenAPISpecVersion' });

export const VersionContentWire = z.object({ filesystem: z.record(z.string(), z.unknown()), url: z.string() }).meta({ id: 'OpenAPISpecContent' });
