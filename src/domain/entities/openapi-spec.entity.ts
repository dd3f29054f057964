import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Organization } from './organization.entity.ts';

export type ProcessingState = 'pending' | 'progress' | 'complete';
export type ProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';
/** What each fetched URL answered last time, for conditional requests. */
export type FetchState = Record<string, { etag?: string; lastModified?: string }>;

/** An OpenAPI specification of an organization, from a URL or from text, processed into versions. */
export const OpenApiSpecSchema = defineEntity({
  name: 'OpenApiSpec',
  tableName: 'openapi_specs',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    slug: p.string().length(100),
    sourceUrl: p.string().length(2048).nullable(),
    sourceText: p.text().nullable(),
    visibility: p.string().length(8).$type<'private' | 'public'>().default('private'),
    processingState: p.string().length(16).$type<ProcessingState>().default('pending'),
    lastVersion: p.string().length(20).nullable(),
    lastProcessedAt: p.datetime().nullable(),
    lastProcessErrorCode: p.string().length(32).$type<ProcessErrorCode>().nullable(),
    lastProcessedErrors: p.json<Array<{ message: string; code?: string }>>().onCreate(() => []),
    fetchState: p.json<FetchState>().onCreate(() => ({})),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['organization', 'slug'] }],
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});

export class OpenApiSpec extends OpenApiSpecSchema.class {}
OpenApiSpecSchema.setClass(OpenApiSpec);
