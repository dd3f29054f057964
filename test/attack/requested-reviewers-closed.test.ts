// Attack: a merged or archived change request refuses reviews (409), yet still accepted requests
// for reviewers (200) — asking people to review what can no longer be reviewed, and feeding the
// `requestedReviewer` list filter with change requests nobody can act on.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';

let api: TestApi;
let admin: Caller;
let reviewer: Caller;
let S: string;
let space: Space;

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), ['review'] as const);
  ({ admin, members: { review: reviewer } } = cast);
  space = await buildSpace(api.em(), cast.org, admin);
  await buildContent(api.em(), space, [{ kind: 'document', title: 'Home', markdown: 'home' }]);
  S = `/v1/spaces/${space.id}`;
});
afterAll(() => api.close());

it.each([['merged'], ['archived']])('refuses requesting a reviewer on a %s change request, as it refuses the review', async (state) => {
  const cr = await buildChangeRequest(api.em(), space, admin);
  const C = `${S}/change-requests/${cr.id}`;
  const closed = state === 'merged' ? await api.request('POST', `${C}/merge`, { token: admin.token }) : await api.request('PATCH', C, { token: admin.token, body: { status: 'archived' } });
  expect(closed.status).toBe(200);
  expectError(await api.request('POST', `${C}/reviews`, { token: reviewer.token, body: { status: 'approved' } }), 409);
  expectError(await api.request('POST', `${C}/requested-reviewers`, { token: admin.token, body: { users: [reviewer.user.id] } }), 409);
  const listed = await api.request('GET', `${C}/requested-reviewers`, { token: admin.token });
  expect(listed.body.items).toEqual([]);
});
