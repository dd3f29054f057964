import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildCollection, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let collectionId: string;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin } = await buildCast(em, [] as const));
  const collection = await buildCollection(em, org, admin);
  collectionId = collection.id;
  for (let i = 0; i < 3; i++) await buildSpace(em, org, admin);
  for (let i = 0; i < 3; i++) await buildSpace(em, org, admin, { parent: collection });
  // The admin belongs to three organizations, so /orgs has a second page.
  for (let i = 0; i < 2; i++) await buildOrg(em, { owner: admin });
});
afterAll(() => api.close());

async function nextPage(path: string): Promise<string> {
  const res = await api.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1`, { token: admin.token });
  expect(res.status).toBe(200);
  expect(res.body.next?.page).toEqual(expect.any(String));
  return res.body.next.page as string;
}

/** Changes the values a token carries, whatever its envelope. */
function tamper(token: string, change: (values: unknown[]) => void): string {
  const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  change(Array.isArray(parsed) ? parsed : parsed.v);
  return Buffer.from(JSON.stringify(parsed)).toString('base64url');
}

describe('page tokens', () => {
  it('are refused (400, error shape) by another list', async () => {
    const spacesOfOrg = await nextPage(`/v1/orgs/${org.id}/spaces`);
    expectError(await api.request('GET', `/v1/collections/${collectionId}/spaces?page=${spacesOfOrg}`, { token: admin.token }), 400, /page/);
    expectError(await api.request('GET', `/v1/orgs/${org.id}/collections?page=${spacesOfOrg}`, { token: admin.token }), 400, /page/);
    expectError(await api.request('GET', `/v1/orgs/${org.id}/members?page=${spacesOfOrg}`, { token: admin.token }), 400, /page/);
    // A keyset token is not a ranked one either.
    expectError(await api.request('GET', `/v1/orgs/${org.id}/search?query=x&page=${spacesOfOrg}`, { token: admin.token }), 400, /page/);
    // The list's own token still works.
    const own = await api.request('GET', `/v1/orgs/${org.id}/spaces?limit=1&page=${spacesOfOrg}`, { token: admin.token });
    expect(own.status).toBe(200);
    expect(own.body.items).toHaveLength(1);
  });

  it('holding a NUL or a date PostgreSQL cannot take answer 400, not 500', async () => {
    const orgs = await nextPage('/v1/orgs');
    const bad = [
      tamper(orgs, (v) => (v[0] = '+275760-09-13T00:00:00.001Z')),
      tamper(orgs, (v) => (v[0] = '+099999-01-01T00:00:00.000Z')),
      tamper(orgs, (v) => (v[0] = '99999-01-01T00:00:00.000Z')),
      tamper(orgs, (v) => (v[1] = 'abc\u0000def')),
    ];
    for (const token of bad) expectError(await api.request('GET', `/v1/orgs?limit=1&page=${token}`, { token: admin.token }), 400, /page/);
    const spaces = await nextPage(`/v1/orgs/${org.id}/spaces`);
    const nul = tamper(spaces, (v) => (v[0] = '\u0000'));
    expectError(await api.request('GET', `/v1/orgs/${org.id}/spaces?limit=1&page=${nul}`, { token: admin.token }), 400, /page/);
  });
});
