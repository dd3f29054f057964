import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { OpenApiSpec } from './openapi-spec.entity.ts';

/**
 * One processed state of a specification: every file of the bundle by path (the entry
 * and what its `$ref`s reached). A version is stored only when the canonical content
 * changed (`contentHash`).
 */
export const OpenApiSpecVersionSchema = defineEntity({
  name: 'OpenApiSpecVersion',
  tableName: 'openapi_spec_versions',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    spec: () => p.manyToOne(OpenApiSpec).ref().deleteRule('cascade'),
    contentHash: p.string().length(43),
    entry: p.string().length(2048),
    filesystem: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['spec', 'createdAt', 'id'] }],
});

export class OpenApiSpecVersion extends OpenApiSpecVersionSchema.class {}
OpenApiSpecVersionSchema.setClass(OpenApiSpecVersion);
