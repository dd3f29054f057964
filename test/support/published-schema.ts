import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

/*
 * Responses checked against the OpenAPI document that ships in `@gitbook/api` (the published
 * GitBook API), not only through the client's types: a field of the wrong shape, a missing
 * required key or an unknown enum value fails the test that made the response.
 *
 * The document is OpenAPI 3.0.3; ajv speaks JSON Schema. Its schemas are translated once:
 * `nullable` becomes a `null` type, a `discriminator` becomes a dispatch on the tag (so an
 * error names the one variant the tag chose), and component `$ref`s point into one schema
 * registered under BASE.
 *
 * The document is generated from TypeScript types, so its other unions mean what a TS union
 * means, and the client's types (`dist/client.d.ts`) say so: `oneOf` is read as `anyOf`
 * (members may overlap, e.g. a page with `markdown` is also an "Empty" document), and an
 * "Empty" member (no properties, `additionalProperties: false`) is the TS `object` it was
 * made from (`Document = MarkdownDocument | {document} | object`). Read literally, that member
 * combined by `allOf` into RevisionPageDocument would forbid every field of a page.
 */

type Schema = Record<string, unknown>;
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema>; responses: Record<string, Response> } };
type Operation = { responses: Record<string, Response | { $ref: string }> };
type Response = { content?: Record<string, { schema: Schema }> };

const BASE = 'https://gitbook.invalid/openapi.json';
const DOCUMENT = new URL('../../node_modules/@gitbook/api/spec/openapi.json', import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let loaded: { doc: Doc; ajv: Ajv; compiled: Map<string, ValidateFunction | null> } | undefined;

function load() {
  if (loaded) return loaded;
  const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as Doc;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // Formats of GitBook's own: an emoji code point and an icon name, both plain strings to us.
  ajv.addFormat('emoji', true).addFormat('icon', true);
  ajv.addSchema({ $id: BASE, components: { schemas: translate(doc.components.schemas, doc) } });
  loaded = { doc, ajv, compiled: new Map() };
  return loaded;
}

/** An OpenAPI 3.0 schema (any part of one) as JSON Schema, its component refs made absolute. */
function translate(node: unknown, doc: Doc): any {
  if (Array.isArray(node)) return node.map((n) => translate(n, doc));
  if (node === null || typeof node !== 'object') return node;
  const { nullable, discriminator, ...rest } = node as Schema & { discriminator?: { propertyName: string } };
  let out: Schema = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, k === 'properties' ? mapValues(v as Schema, doc) : translate(v, doc)]));
  if (typeof out.$ref === 'string' && out.$ref.startsWith('#/')) out.$ref = `${BASE}${out.$ref}`;
  if (discriminator && Array.isArray(rest.oneOf)) out = dispatch(out, rest.oneOf as Schema[], discriminator.propertyName, doc);
  else if (Array.isArray(out.oneOf)) {
    const { oneOf, ...others } = out;
    out = { ...others, anyOf: (oneOf as Schema[]).map(emptyAsObject) };
  }
  if (nullable === true) {
    if (typeof out.type === 'string' && !out.$ref) {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    } else {
      out = { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

/** A union's "Empty" member: the TypeScript `object` (see above). */
function emptyAsObject(member: Schema): Schema {
  const empty = member.type === 'object' && member.additionalProperties === false && Object.keys((member.properties as Schema | undefined) ?? {}).length === 0;
  return empty ? { type: 'object' } : member;
}

function mapValues(props: Schema, doc: Doc): Schema {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, translate(v, doc)]));
}

/** `oneOf` + `discriminator`: the tag picks the variant, whose errors alone are reported. */
function dispatch(schema: Schema, variants: Schema[], tag: string, doc: Doc): Schema {
  const tagged = variants.map((v) => ({ values: tagValues(v, tag, doc), ref: translate(v, doc) as Schema }));
  // A variant whose tag cannot be read keeps the plain oneOf (never the case in 0.146.0).
  if (tagged.some((t) => t.values.length === 0)) return schema;
  const { oneOf: _oneOf, ...others } = schema;
  return {
    ...others,
    type: 'object',
    required: [tag],
    properties: { [tag]: { enum: tagged.flatMap((t) => t.values) } },
    allOf: tagged.map((t) => ({ if: { properties: { [tag]: { enum: t.values } }, required: [tag] }, then: t.ref })),
  };
}

/** The values a variant allows for its tag, looked up through $refs and allOf. */
function tagValues(schema: Schema, tag: string, doc: Doc): unknown[] {
  if (typeof schema.$ref === 'string') return tagValues(doc.components.schemas[schema.$ref.split('/').pop()!]!, tag, doc);
  const prop = (schema.properties as Record<string, Schema> | undefined)?.[tag];
  if (prop && Array.isArray(prop.enum)) return prop.enum;
  if (prop && 'const' in prop) return [prop.const];
  return ((schema.allOf as Schema[] | undefined) ?? []).flatMap((part) => tagValues(part, tag, doc));
}

/** The compiled schema of an operation's JSON response, or null when that status has no body. */
export function publishedValidator(method: string, path: string, status: number): ValidateFunction | null {
  const { doc, ajv, compiled } = load();
  const key = `${method.toUpperCase()} ${path} ${status}`;
  if (compiled.has(key)) return compiled.get(key)!;
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`The published GitBook API has no operation ${method} ${path}`);
  let response = op.responses[String(status)];
  if (!response) throw new Error(`The published GitBook API has no ${status} response for ${method} ${path}`);
  if ('$ref' in response) response = doc.components.responses[response.$ref.split('/').pop()!]!;
  const schema = (response as Response).content?.['application/json']?.schema;
  const validate = schema ? ajv.compile(translate(schema, doc)) : null;
  compiled.set(key, validate);
  return validate;
}

/** Fields where Vellum knowingly differs from the published schema: an instance path (regex) and why. */
export type Divergence = { at: RegExp; because: string };

/**
 * Fails with the ajv errors (instance path, message, offending value) when the response
 * body is not what the published GitBook API document says `method path` answers.
 */
export function expectPublishedShape(res: Answer, method: string, path: string, divergences: Divergence[] = []) {
  const body = bodyOf(res);
  const validate = publishedValidator(method, path, res.status);
  if (!validate) {
    expect(body ?? '', `${method} ${path} ${res.status} has no body in the published API`).toBe('');
    return;
  }
  validate(body);
  const errors = (validate.errors ?? []).filter((e) => !divergences.some((d) => d.at.test(e.instancePath)));
  expect(describe(errors, body), `${method} ${path} ${res.status} against the published GitBook API`).toEqual([]);
}

/** A raw test response ({status, body}) or the GitBook client's ({status, data}; its `body` is the spent stream). */
type Answer = { status: number; body?: unknown } | { status: number; data: unknown };

function bodyOf(res: Answer): unknown {
  return 'data' in res ? res.data : res.body;
}

function describe(errors: ErrorObject[], body: unknown): string[] {
  const lines = errors
    // `if` failures only repeat the dispatched variant's own errors.
    .filter((e) => e.keyword !== 'if')
    .map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)} (got ${preview(at(body, e.instancePath))})`);
  return [...new Set(lines)].slice(0, 30);
}

function at(body: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), body);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
