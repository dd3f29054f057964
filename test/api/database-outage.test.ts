import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportRun } from '../../src/domain/entities/import-run.entity.ts';
import { buildCollection, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { startTcpProxy, throughProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { testDatabaseUrl } from '../support/test-env.ts';

/**
 * PostgreSQL becomes unreachable (a proxy of this test's own is cut; the shared server
 * keeps running): every request answers 503 with Retry-After, never a 204, 404 or 400
 * that would tell the client something false, nor a bare 500; the API recovers after.
 */
let proxy: TcpProxy;
let api: TestApi;
let owner: Caller;
let ids: { org: string; space: string; collection: string; run: string };

beforeAll(async () => {
  const db = new URL(testDatabaseUrl());
  proxy = await startTcpProxy({ host: db.hostname, port: Number(db.port || 5432) });
  api = await startTestApi({ DATABASE_URL: throughProxy(testDatabaseUrl(), proxy) });
  const em = api.em();
  const built = await buildOrg(em);
  owner = built.owner;
  const space = await buildSpace(em, built.org, owner);
  const collection = await buildCollection(em, built.org, owner);
  const run = em.create(ImportRun, { organization: built.org, space, parentPage: null, sourceUrl: 'https://example.com' });
  await em.flush();
  ids = { org: built.org.id, space: space.id, collection: collection.id, run: run.id };
});
afterAll(async () => {
  await api.close();
  await proxy.close();
});

const outageRequests = () => [
  { method: 'GET', path: `/v1/spaces/${ids.space}` },
  { method: 'GET', path: `/v1/orgs/${ids.org}/spaces` },
  { method: 'GET', path: `/v1/org/${ids.org}/imports/nosuchrun000000000000` },
  { method: 'DELETE', path: `/v1/spaces/${ids.space}` },
  { method: 'DELETE', path: `/v1/collections/${ids.collection}` },
];

function expectUnavailable(res: { status: number; body: any; headers: Headers }, what: string) {
  expect(res.status, what).toBe(503);
  expect(res.headers.get('retry-after'), what).toMatch(/^\d+$/);
  expect(res.body, what).toEqual({ error: { code: 503, message: expect.any(String) } });
}

describe('PostgreSQL unreachable', () => {
  it('answers 503 with Retry-After to reads and deletes, and recovers when it is back', async () => {
    expect((await api.request('GET', `/v1/spaces/${ids.space}`, { token: owner.token })).status).toBe(200);

    // Connections closed while requests run (pg reports that without an error code):
    // each request answers as it should or 503s, nothing else.
    const during = Promise.all(
      Array.from({ length: 20 }, (_, i) => api.request('GET', `/v1/spaces/${ids.space}`, { token: owner.token }).then((res) => ({ i, res }))),
    );
    await proxy.cut('close');
    for (const { i, res } of await during) expect([200, 503], `request ${i}: ${res.status}`).toContain(res.status);

    for (const { method, path } of outageRequests()) {
      expectUnavailable(await api.request(method, path, { token: owner.token }), `${method} ${path}`);
    }
    const ready = await api.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toBe('down');

    await proxy.restore();
    expect((await api.request('GET', `/v1/spaces/${ids.space}`, { token: owner.token })).status).toBe(200);
    expect((await api.request('GET', '/readyz')).status).toBe(200);
    // The deletes refused during the outage did nothing: both are still there.
    expect((await api.request('GET', `/v1/collections/${ids.collection}`, { token: owner.token })).status).toBe(200);
  });

  // Each request is cut at the query a catch-all used to swallow: after authentication,
  // inside the loader whose "not found" the route turns into 204, 404 or 400.
  const midRequest = () => [
    { method: 'DELETE', path: `/v1/spaces/${ids.space}`, marker: '"members"', nth: 1 },
    { method: 'DELETE', path: `/v1/collections/${ids.collection}`, marker: '"members"', nth: 1 },
    { method: 'GET', path: `/v1/org/${ids.org}/imports/${ids.run}`, marker: '"spaces"', nth: 1 },
    { method: 'POST', path: `/v1/org/${ids.org}/imports`, marker: '"spaces"', nth: 1, body: { source: { type: 'website', url: 'https://example.com' }, target: { space: ids.space } } },
    { method: 'POST', path: `/v1/spaces/${ids.space}/transfer`, marker: '"members"', nth: 2, body: { organization: ids.org } },
  ];

  it('a loader failing on the database mid-request answers 503, not "not found"', async () => {
    // Reset like a vanished host (ECONNRESET), or closed like a killed server process
    // (which pg reports without an error code).
    for (const how of ['reset', 'close'] as const) {
      for (const { method, path, marker, nth, body } of midRequest()) {
        const cut = proxy.cutWhenSent(marker, nth, how);
        const res = await api.request(method, path, { token: owner.token, ...(body ? { body } : {}) });
        await cut;
        await proxy.restore();
        expectUnavailable(res, `${how}: ${method} ${path}`);
      }
    }
    // Nothing was deleted on the way.
    expect((await api.request('GET', `/v1/spaces/${ids.space}`, { token: owner.token })).status).toBe(200);
    expect((await api.request('GET', `/v1/collections/${ids.collection}`, { token: owner.token })).status).toBe(200);
    // Every connection that broke inside a transaction went back to the pool: none is
    // left checked out, where each would shrink the pool for good and hang its shutdown.
    const pool = await api.rt.orm.em.getConnection().getNativeClient();
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });
});
