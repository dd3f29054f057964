import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiSpec } from '../../src/domain/entities/openapi-spec.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { GuardedHttp, parseAllowlist } from '../../src/domain/net/guarded-http.ts';
import { DEFAULT_BUNDLE_LIMITS } from '../../src/domain/openapi/load-bundle.ts';
import { processSpec } from '../../src/domain/openapi/process-spec.ts';
import type { RunningWorkers } from '../../src/workers/worker.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildMember, type Caller } from '../support/factories.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { waitFor } from '../support/test-jobs.ts';
import { MULTI_CATEGORY, MULTI_ENTRY, MULTI_PET, PETSTORE_30, PETSTORE_31, SpecServer, SWAGGER_20 } from './spec-server.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let creator: Caller;
let editor: Caller;
let outsider: Caller;
let server: SpecServer;
let workers: RunningWorkers;
const http = new GuardedHttp({ allow: parseAllowlist('127.0.0.1'), timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 3, userAgent: 'test' });

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { create: creator, edit: editor } } = await buildCast(em, ['create', 'edit'] as const));
  server = new SpecServer();
  await server.start();
  server.files.set('/petstore.yaml', { body: PETSTORE_30 });
  server.files.set('/v31.json', { body: PETSTORE_31, type: 'application/json' });
  server.files.set('/swagger.json', { body: SWAGGER_20, type: 'application/json' });
  server.files.set('/multi/openapi.yaml', { body: MULTI_ENTRY });
  server.files.set('/multi/schemas/pet.yaml', { body: MULTI_PET });
  server.files.set('/multi/schemas/category.yaml', { body: MULTI_CATEGORY });
  workers = startTestWorkers(api, ['openapi']);
});
afterAll(async () => {
  await workers.close();
  await server.close();
  await api.close();
});

const specs = (suffix = '') => `/v1/orgs/${org.id}/openapi${suffix}`;
let slugs = 0;
const slug = () => `spec-${++slugs}-${Date.now()}`;

async function processed(s: string) {
  let body: { processingState: string; lastVersion?: string; lastProcessErrorCode?: string; lastProcessedErrors?: Array<{ message: string }> } = { processingState: 'pending' };
  await waitFor(async () => {
    body = (await api.request('GET', specs(`/${s}`), { token: admin.token })).body;
    return body.processingState === 'complete';
  }, 20_000, 'spec processing');
  return body;
}

async function specRow(s: string) {
  return api.em().findOneOrFail(OpenApiSpec, { organization: org.id, slug: s });
}

describe('creating and processing specifications', () => {
  it('processes a 3.0 YAML spec into a first version (201, Location)', async () => {
    const s = slug();
    const res = await api.request('POST', specs(), { token: creator.token, body: { slug: s, source: { url: server.url('/petstore.yaml') } } });
    expect(res.status).toBe(201);
    expectPublishedShape(res, 'POST', '/orgs/{organizationId}/openapi');
    expect(res.headers.get('location')).toBe(`http://vellum.test/v1/orgs/${org.id}/openapi/${s}`);
    expect(res.body).toMatchObject({ object: 'openapi-spec', slug: s, processingState: 'pending', visibility: 'private', sourceURL: server.url('/petstore.yaml') });
    const done = await processed(s);
    expect(done.lastProcessErrorCode).toBeUndefined();
    expectPublishedShape(await api.request('GET', specs(`/${s}`), { token: admin.token }), 'GET', '/orgs/{organizationId}/openapi/{specSlug}');
    const latest = await api.client(admin.token).orgs.getLatestOpenApiSpecVersion(org.id, s);
    expectPublishedShape(latest, 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/latest');
    expect(latest.data.id).toBe(done.lastVersion);
    const byId = await api.client(admin.token).orgs.getOpenApiSpecVersionById(org.id, s, done.lastVersion!);
    expectPublishedShape(byId, 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}');
    expect(byId.data).toEqual(latest.data);
    const content = await api.client(admin.token).orgs.getLatestOpenApiSpecVersionContent(org.id, s);
    expectPublishedShape(content, 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content');
    expect(Object.keys(content.data.filesystem)).toEqual(['petstore.yaml']);
    expect(((content.data.filesystem as Record<string, { info: { title: string } }>)['petstore.yaml'])!.info.title).toBe('Petstore');
  });

  it('accepts OpenAPI 3.1 JSON, Swagger 2.0 and a spec given as text', async () => {
    for (const source of [{ url: server.url('/v31.json') }, { url: server.url('/swagger.json') }, { text: PETSTORE_30 }]) {
      const s = slug();
      await api.client(creator.token).orgs.createOpenApiSpec(org.id, { slug: s, source } as never);
      const done = await processed(s);
      expect(done.lastProcessErrorCode, JSON.stringify(done.lastProcessedErrors)).toBeUndefined();
      expect(done.lastVersion).toEqual(expect.any(String));
    }
  });

  it('bundles relative $refs (nested folders) into the version’s filesystem', async () => {
    const s = slug();
    await api.client(creator.token).orgs.createOpenApiSpec(org.id, { slug: s, source: { url: server.url('/multi/openapi.yaml') } } as never);
    const done = await processed(s);
    expect(done.lastProcessErrorCode, JSON.stringify(done.lastProcessedErrors)).toBeUndefined();
    const res = await api.client(admin.token).orgs.getOpenApiSpecVersionContentById(org.id, s, done.lastVersion!);
    expectPublishedShape(res, 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content');
    const { data } = res;
    expect(Object.keys(data.filesystem).sort()).toEqual(['openapi.yaml', 'schemas/category.yaml', 'schemas/pet.yaml']);
  });
});

describe('versions over time', () => {
  it('costs no parse and makes no version when the source is unchanged (ETag), and versions a change', async () => {
    const s = slug();
    server.files.set(`/${s}.yaml`, { body: PETSTORE_30 });
    await api.client(creator.token).orgs.createOpenApiSpec(org.id, { slug: s, source: { url: server.url(`/${s}.yaml`) } } as never);
    const first = await processed(s);
    const spec = await specRow(s);
    expect(await processSpec(api.em(), http, spec.id, () => new Date())).toBe('unchanged');
    expect(server.requests.filter((r) => r.path === `/${s}.yaml`).at(-1)).toMatchObject({ status: 304, ifNoneMatch: expect.any(String) });
    server.files.set(`/${s}.yaml`, { body: PETSTORE_30.replace('version: 1.0.0', 'version: 1.1.0') });
    expect(await processSpec(api.em(), http, spec.id, () => new Date())).toBe('new-version');
    const versions = await api.client(admin.token).orgs.listOpenApiSpecVersions(org.id, s);
    expectPublishedShape(versions, 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions');
    expect(versions.data.items).toHaveLength(2);
    expect(versions.data.items[1]!.id).toBe(first.lastVersion);
  });

  it('keeps serving the last good version when new content does not parse or validate', async () => {
    const s = slug();
    server.files.set(`/${s}.yaml`, { body: PETSTORE_30 });
    await api.client(creator.token).orgs.createOpenApiSpec(org.id, { slug: s, source: { url: server.url(`/${s}.yaml`) } } as never);
    const good = await processed(s);
    const spec = await specRow(s);
    server.files.set(`/${s}.yaml`, { body: 'openapi: 3.0.3\ninfo: [unclosed\n' });
    expect(await processSpec(api.em(), http, spec.id, () => new Date())).toBe('failed');
    let body = (await api.request('GET', specs(`/${s}`), { token: admin.token })).body;
    expect(body).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR', lastVersion: good.lastVersion });
    expect(body.lastProcessedErrors[0].message).toMatch(/line \d+/);
    server.files.set(`/${s}.yaml`, { body: 'openapi: 3.0.3\ninfo: { title: T }\npaths: { /x: { get: { responses: 12 } } }\n' });
    expect(await processSpec(api.em(), http, spec.id, () => new Date())).toBe('failed');
    body = (await api.request('GET', specs(`/${s}`), { token: admin.token })).body;
    expect(body.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(body.lastProcessedErrors.length).toBeGreaterThan(0);
    expect((await api.client(admin.token).orgs.getLatestOpenApiSpecVersion(org.id, s)).data.id).toBe(good.lastVersion);
  });

  it('records FETCH_TIMEOUT for a slow server, FETCH_ERROR for an oversized body and a refused redirect', async () => {
    const cases: Array<[string, { body: string; delayMs?: number; redirect?: string }, Partial<typeof DEFAULT_BUNDLE_LIMITS>, string]> = [
      ['slow', { body: PETSTORE_30, delayMs: 1500 }, { timeoutMs: 300 }, 'FETCH_TIMEOUT'],
      ['huge', { body: PETSTORE_30 + `# ${'x'.repeat(50_000)}\n` }, { maxFileBytes: 10_000 }, 'FETCH_ERROR'],
      ['to-metadata', { body: '', redirect: 'http://169.254.169.254/latest/' }, {}, 'FETCH_ERROR'],
      ['not-found', { body: '' }, {}, 'FETCH_ERROR'],
    ];
    for (const [name, file, limits, code] of cases) {
      const s = slug();
      if (name !== 'not-found') server.files.set(`/${s}.yaml`, file);
      const em = api.em();
      const spec = em.create(OpenApiSpec, { organization: org.id, slug: s, sourceUrl: server.url(`/${s}.yaml`) });
      await em.flush();
      expect(await processSpec(api.em(), http, spec.id, () => new Date(), { ...DEFAULT_BUNDLE_LIMITS, ...limits })).toBe('failed');
      const row = await specRow(s);
      expect(row.lastProcessErrorCode, name).toBe(code);
      expect(row.lastVersion).toBeNull();
    }
  });
});

describe('secrets in source URLs', () => {
  it('never shows a source URL’s credentials or tokens, nor error messages quoting them, to readers', async () => {
    const s = slug();
    const em = api.em();
    const secretUrl = server.url(`/${s}.yaml?access_token=tok-abc123`).replace('http://', 'http://deploy:hunter2@');
    const spec = em.create(OpenApiSpec, { organization: org.id, slug: s, sourceUrl: secretUrl });
    em.assign(spec, { lastProcessedErrors: [{ message: `Could not fetch ${secretUrl}: 404` }] });
    await em.flush();
    const reader = await buildMember(api.em(), org, 'read');
    for (const caller of [reader, admin]) {
      const res = await api.request('GET', specs(`/${s}`), { token: caller.token });
      expect(res.status).toBe(200);
      // A spec that failed: lastProcessedErrors present, no lastVersion.
      expectPublishedShape(res, 'GET', '/orgs/{organizationId}/openapi/{specSlug}');
      expect(res.body.sourceURL).toBe(server.url(`/${s}.yaml?access_token=REDACTED`));
      expect(JSON.stringify(res.body)).not.toMatch(/hunter2|tok-abc123/);
      expect(res.body.lastProcessedErrors[0].message).toContain(`${s}.yaml`);
    }
  });
});

describe('the specification operations', () => {
  it('PUT creates (201) then updates (200) and reprocesses; PATCH sets visibility; DELETE answers 205 then 204', async () => {
    const s = slug();
    const created = await api.request('PUT', specs(`/${s}`), { token: creator.token, body: { source: { text: PETSTORE_30 } } });
    expect(created.status).toBe(201);
    expectPublishedShape(created, 'PUT', '/orgs/{organizationId}/openapi/{specSlug}');
    await processed(s);
    const updated = await api.request('PUT', specs(`/${s}`), { token: creator.token, body: { source: { url: server.url('/v31.json') } } });
    expect(updated.status).toBe(200);
    expectPublishedShape(updated, 'PUT', '/orgs/{organizationId}/openapi/{specSlug}');
    expect(updated.body.processingState).toBe('pending');
    const done = await processed(s);
    expect((await api.client(admin.token).orgs.listOpenApiSpecVersions(org.id, s)).data.items[0]!.id).toBe(done.lastVersion);
    const patched = await api.client(creator.token).orgs.updateOpenApiSpecBySlug(org.id, s, { visibility: 'public' } as never);
    expect(patched.data.visibility).toBe('public');
    expectPublishedShape(patched, 'PATCH', '/orgs/{organizationId}/openapi/{specSlug}');
    const list = await api.client(editor.token).orgs.listOpenApiSpecs(org.id);
    expectPublishedShape(list, 'GET', '/orgs/{organizationId}/openapi');
    expect(list.data.items.map((i) => i.slug)).toContain(s);
    expect((await api.request('DELETE', specs(`/${s}`), { token: creator.token })).status).toBe(205);
    expect((await api.request('DELETE', specs(`/${s}`), { token: creator.token })).status).toBe(204);
    expectError(await api.request('GET', specs(`/${s}`), { token: admin.token }), 404);
  });

  it('answers 400 for bad slugs, sources and bodies, and 409 for a taken slug, changing nothing', async () => {
    const bad = async (body: unknown, field: RegExp) => expectError(await api.request('POST', specs(), { token: creator.token, body }), 400, field);
    await bad({ slug: 'Not Valid', source: { url: server.url('/petstore.yaml') } }, /slug/);
    await bad({ slug: 'a--b', source: { url: server.url('/petstore.yaml') } }, /slug/);
    await bad({ slug: 'x'.repeat(101), source: { url: server.url('/petstore.yaml') } }, /slug/);
    await bad({ slug: 'ok', source: { url: 'ftp://example.test/spec' } }, /source/);
    await bad({ slug: 'ok', source: { text: '' } }, /source/);
    await bad({ slug: 'ok' }, /source/);
    expectError(await api.request('PATCH', specs('/whatever'), { token: creator.token, body: { visibility: 'everyone' } }), 400, /visibility/);
    const s = slug();
    await api.client(creator.token).orgs.createOpenApiSpec(org.id, { slug: s, source: { text: PETSTORE_30 } } as never);
    expectError(await api.request('POST', specs(), { token: creator.token, body: { slug: s, source: { text: PETSTORE_30 } } }), 409);
    expect(await api.em().count(OpenApiSpec, { organization: org.id, slug: 'ok' })).toBe(0);
  });

  it('answers 404 for unknown specs and versions, and for other organizations; 403 for a role too low', async () => {
    const s = slug();
    await api.client(creator.token).orgs.createOpenApiSpec(org.id, { slug: s, source: { url: server.url('/petstore.yaml') } } as never);
    await processed(s);
    for (const path of ['/unknown', '/unknown/versions', '/unknown/versions/latest', `/${s}/versions/nope`, `/${s}/versions/nope/content`]) {
      expectError(await api.request('GET', specs(path), { token: admin.token }), 404);
    }
    expectError(await api.request('PATCH', specs('/unknown'), { token: admin.token, body: { visibility: 'public' } }), 404);
    for (const path of ['', `/${s}`, `/${s}/versions`, `/${s}/versions/latest`, `/${s}/versions/latest/content`]) {
      expectError(await api.request('GET', specs(path), { token: outsider.token }), 404);
    }
    expectError(await api.request('POST', specs(), { token: outsider.token, body: { slug: 'x', source: { text: PETSTORE_30 } } }), 404);
    expectError(await api.request('POST', specs(), { token: editor.token, body: { slug: 'x', source: { text: PETSTORE_30 } } }), 403);
    expectError(await api.request('PUT', specs(`/${s}`), { token: editor.token, body: { source: { text: PETSTORE_30 } } }), 403);
    expectError(await api.request('PATCH', specs(`/${s}`), { token: editor.token, body: { visibility: 'public' } }), 403);
    expectError(await api.request('DELETE', specs(`/${s}`), { token: editor.token }), 403);
    const guest = await buildMember(api.em(), org, null);
    expectError(await api.request('GET', specs(`/${s}`), { token: guest.token }), 403);
  });
});

describe('checking for updates', () => {
  it('the refresh tick queues processing of every specification that has a URL', async () => {
    const { openapiRefreshJob } = await import('../../src/jobs/openapi-refresh.job.ts');
    const { JobOutbox } = await import('../../src/jobs/outbox.ts');
    const { QueueProducer } = await import('../../src/jobs/producer.ts');
    const { jobs } = await import('../../src/jobs/registry.ts');
    const { testJobServices, testRedisUrl } = await import('../support/test-env.ts');
    const { newId } = await import('../../src/domain/shared/ids.ts');
    const em = api.em();
    const withUrl = em.create(OpenApiSpec, { organization: org.id, slug: slug(), sourceUrl: server.url('/petstore.yaml') });
    const withText = em.create(OpenApiSpec, { organization: org.id, slug: slug(), sourceText: PETSTORE_30 });
    await em.flush();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: `vt${newId()}` }, jobs, api.rt.log);
    try {
      const ctx = { em: api.em(), log: api.rt.log, clock: { now: () => new Date() }, outbox: new JobOutbox(producer, api.rt.log), attempt: 1, services: testJobServices(), reportProgress: async () => undefined };
      await openapiRefreshJob.handle({}, ctx);
      const queued = (await producer.queue('openapi').getJobs(['waiting'])).map((j) => j.data.specId);
      expect(queued).toContain(withUrl.id);
      expect(queued).not.toContain(withText.id);
    } finally {
      await producer.close();
    }
  });

  it('is on the schedule, every 6 hours unless configured', async () => {
    const { schedules } = await import('../../src/jobs/schedules.ts');
    const { loadConfig } = await import('../../config/env.ts');
    expect(schedules(loadConfig({})).find((s) => s.name === 'openapi-refresh')?.cron).toBe('0 */6 * * *');
    expect(schedules(loadConfig({ OPENAPI_REFRESH_SCHEDULE: '*/30 * * * *' })).find((s) => s.name === 'openapi-refresh')?.cron).toBe('*/30 * * * *');
    expect(() => loadConfig({ OPENAPI_REFRESH_SCHEDULE: 'often' })).toThrow(/OPENAPI_REFRESH_SCHEDULE/);
  });
});
