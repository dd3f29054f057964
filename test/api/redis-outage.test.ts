import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

/**
 * Redis unreachable (a port nothing listens on; the shared Redis keeps running). No
 * request path of the API needs Redis: a route that records a job still succeeds, its
 * job kept in the outbox for the relay, and readiness reports Redis down.
 */
let api: TestApi;
let owner: Caller;
let ids: { org: string; space: string };

beforeAll(async () => {
  api = await startTestApi({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
  const em = api.em();
  const built = await buildOrg(em);
  owner = built.owner;
  ids = { org: built.org.id, space: (await buildSpace(em, built.org, owner)).id };
});
afterAll(() => api.close());

describe('Redis unreachable', () => {
  it('accepts work into the outbox and says not ready', async () => {
    const res = await api.request('POST', `/v1/org/${ids.org}/imports`, {
      token: owner.token,
      body: { source: { type: 'website', url: 'https://example.com/docs' }, target: { space: ids.space } },
    });
    expect(res.status).toBe(201);
    const kept = await api.em().find(OutboxEntry, { payload: { runId: res.body.id } });
    expect(kept).toHaveLength(1);

    const ready = await api.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toEqual({ database: 'up', redis: 'down' });
  });
});

/** A loopback port that was free a moment ago: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}
