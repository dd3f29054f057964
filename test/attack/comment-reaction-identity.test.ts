// Attack: one emoji spelt three ways (character, lower-case hex, upper-case hex) became three
// reactions of one user, and strings that are not emoji (a lone variation selector, a surrogate
// code point, U+0000, beyond U+10FFFF) were stored as reactions.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let admin: Caller;
let T: string;

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), [] as const);
  admin = cast.admin;
  const space = await buildSpace(api.em(), cast.org, admin);
  await buildContent(api.em(), space, [{ kind: 'document', title: 'Home', markdown: 'home' }]);
  const cr = await buildChangeRequest(api.em(), space, admin);
  const C = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
  const c = await api.request('POST', `${C}/comments`, { token: admin.token, body: { body: { markdown: 'thread' } } });
  T = `${C}/comments/${c.body.id}`;
});
afterAll(() => api.close());

const react = (emoji: string) => api.request('PUT', T, { token: admin.token, body: { addedReactions: [emoji] } });

it('counts one reaction per user per emoji, however the emoji is spelt', async () => {
  for (const spelling of ['1f389', '1F389', '🎉']) expect((await react(spelling)).status).toBe(200);
  const { body } = await api.request('GET', T, { token: admin.token });
  expect(body.reactions).toHaveLength(1);
  expect(body.reactions[0].count).toBe(1);
});

it.each([['\ufe0f'], ['d800'], ['0000'], ['ffffff'], ['110000']])('refuses %j, which is not an emoji', async (emoji) => {
  expectError(await react(emoji), 400, /addedReactions/);
});
