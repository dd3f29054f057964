import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { buildMember, buildOrg, buildUser, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let admin: Caller;
let colleague: Caller;
let stranger: Caller;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const built = await buildOrg(em);
  admin = built.owner;
  colleague = await buildMember(em, built.org, 'read');
  stranger = await buildUser(em);
});
afterAll(() => api.close());

describe('users', () => {
  it('GET /user returns the caller', async () => {
    const res = await api.client(admin.token).user.getAuthenticatedUser();
    expectPublishedShape(res, 'GET', '/user');
    const { data } = res;
    expect(data).toEqual({
      object: 'user',
      id: admin.user.id,
      displayName: admin.user.displayName,
      email: admin.user.email,
      urls: { location: `http://vellum.test/v1/users/${admin.user.id}` },
    });
  });

  it('GET /users/{userId} shows people who share an organization, and no one else', async () => {
    const colleagueRes = await api.client(admin.token).users.getUserById(colleague.user.id);
    expectPublishedShape(colleagueRes, 'GET', '/users/{userId}');
    expect(colleagueRes.data.id).toBe(colleague.user.id);
    expect((await api.client(stranger.token).users.getUserById(stranger.user.id)).data.id).toBe(stranger.user.id);
    expectError(await api.request('GET', `/v1/users/${stranger.user.id}`, { token: admin.token }), 404);
    expectError(await api.request('GET', '/v1/users/unknown', { token: admin.token }), 404);
    expectError(await api.request('GET', `/v1/users/${'u'.repeat(101)}`, { token: admin.token }), 400, /userId/);
  });

  it('GET / reports the API version to any token', async () => {
    const res = await api.request('GET', '/v1/', { token: admin.token });
    expect(res.body).toEqual({ version: '1', build: expect.any(String) });
    expectPublishedShape(res, 'GET', '/');
  });
});
