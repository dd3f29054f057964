// Attack: a space in the bin refuses merging and comments on its change requests (412), but its
// change requests still took content edits, PATCHes and updates, and new change requests.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let admin: Caller;
let S: string;
let C: string;
const P = 'homePage00000000001';

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), [] as const);
  admin = cast.admin;
  const space = await buildSpace(api.em(), cast.org, admin);
  await buildContent(api.em(), space, [{ id: P, kind: 'document', title: 'Home', markdown: 'home' } as never]);
  const cr = await buildChangeRequest(api.em(), space, admin);
  S = `/v1/spaces/${space.id}`;
  C = `${S}/change-requests/${cr.id}`;
  expect((await api.request('DELETE', S, { token: admin.token })).status).toBe(204);
});
afterAll(() => api.close());

const as = (method: string, path: string, body?: unknown) => api.request(method, path, { token: admin.token, ...(body !== undefined ? { body } : {}) });

it('merging and commenting are refused, as the baseline', async () => {
  expectError(await as('POST', `${C}/merge`), 412, /deleted/);
  expectError(await as('POST', `${C}/comments`, { body: { markdown: 'x' } }), 412, /deleted/);
});

it('refuses a page edit in a change request of a deleted space, and keeps the page', async () => {
  expectError(await as('PATCH', `${C}/content/page/${P}`, { title: 'edited in the bin' }), 412, /deleted/);
  const page = await as('GET', `${C}/content/page/${P}`);
  expect(page.body.title).toBe('Home');
});

it('refuses a new page in a change request of a deleted space', async () => {
  expectError(await as('POST', `${C}/content/pages`, { title: 'new in the bin' }), 412, /deleted/);
});

it('refuses a PATCH of a change request of a deleted space (counts would move under a binned space)', async () => {
  expectError(await as('PATCH', C, { status: 'archived' }), 412, /deleted/);
  expect((await as('GET', C)).body.status).toBe('open');
});

it('refuses opening a change request on a deleted space', async () => {
  expectError(await as('POST', `${S}/change-requests`, { subject: 'in the bin' }), 412, /deleted/);
});
