import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Router from '@koa/router';
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { validate } from '@scalar/openapi-parser';
import openapiTS from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiDeps } from '../../src/api/context.ts';
import { Id } from '../../src/api/http/common.schema.ts';
import { defineRoute, mountRoutes, type AnyRoute } from '../../src/api/http/route.ts';
import { z } from '../../src/api/http/zod.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

const run = promisify(execFile);
let api: TestApi;
let doc: Record<string, unknown>;

beforeAll(async () => {
  api = await startTestApi();
  doc = (await api.request('GET', '/v1/openapi.json')).body;
});
afterAll(() => api.close());

describe('the served OpenAPI document', () => {
  it('is valid OpenAPI', async () => {
    const { valid, errors } = await validate(structuredClone(doc));
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
  });

  it('yields a client that compiles, with exactly the path parameters of each path', async () => {
    const types = await openapiTS(structuredClone(doc) as never);
    const dir = await mkdtemp(join(tmpdir(), 'vellum-client-'));
    try {
      await writeFile(join(dir, 'api.ts'), types);
      // A typed client over the generated paths: calls must compile with the ids each path has.
      await writeFile(
        join(dir, 'client.ts'),
        `import type { operations } from './api';
type PathOf<Op extends keyof operations> = operations[Op] extends { parameters: { path: infer P } } ? P : never;
declare function call<Op extends keyof operations>(op: Op, path: PathOf<Op>): Promise<unknown>;
export const calls = [
  call('getPageById', { spaceId: 's', pageId: 'p' }),
  call('getPageInRevisionById', { spaceId: 's', revisionId: 'r', pageId: 'p' }),
  // @ts-expect-error the current content has no revision in its path
  call('getCurrentRevision', { spaceId: 's', revisionId: 'r' }),
  // @ts-expect-error a revision read by id needs its revision id
  call('getRevisionById', { spaceId: 's' }),
];
`,
      );
      const tsc = resolve('node_modules/.bin/tsc');
      const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', join(dir, 'client.ts')];
      // Run in the temp folder, away from the project's tsconfig.
      const out = await run(tsc, args, { cwd: dir }).then(
        () => '',
        (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}` || 'tsc failed',
      );
      expect(out).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('mounting a route', () => {
  const mount = (route: AnyRoute) => mountRoutes(new Router(), [route], {} as ApiDeps, new OpenAPIRegistry());
  const route = (path: string, params: z.ZodObject<z.ZodRawShape>) =>
    defineRoute({ method: 'get', path, operationId: 'x', summary: 'x', tags: [], params, responses: { 204: { description: 'done' } }, handle: async () => ({ status: 204 }) }) as AnyRoute;

  it('refuses parameters the path does not have, and optional ones', () => {
    expect(() => mount(route('/spaces/{spaceId}', z.object({ spaceId: Id, revisionId: Id.optional() })))).toThrow(/path \/spaces\/\{spaceId\} has parameters \[spaceId\]/);
    expect(() => mount(route('/spaces/{spaceId}/page/{pageId}', z.object({ spaceId: Id })))).toThrow(/declares \[spaceId\]/);
    expect(() => mount(route('/spaces/{spaceId}', z.object({ spaceId: Id.optional() })))).toThrow(/cannot be optional: spaceId/);
    expect(() => mount(route('/spaces/{spaceId}', z.object({ spaceId: Id })))).not.toThrow();
  });
});
