import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { buildMember, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

/** Every comment mutation fired many times at once: the end state is exact, and nothing answers 500. */
let api: TestApi;
let org: Organization;
let admin: Caller;
let commenters: Caller[];
let space: Space;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, owner: admin } = await buildOrg(em));
  commenters = [];
  for (let i = 0; i < 20; i++) commenters.push(await buildMember(em, org, 'comment'));
  space = await buildSpace(em, org, admin);
});
afterAll(() => api.close());

const threads = () => `/v1/spaces/${space.id}/comments`;
const statuses = (results: Array<{ status: number }>) => results.map((r) => r.status);

async function thread(as: Caller = admin) {
  const res = await api.request('POST', threads(), { token: as.token, body: { body: { markdown: 'Thread' } } });
  expect(res.status).toBe(200);
  return res.body.id as string;
}
const read = async (id: string) => (await api.request('GET', `${threads()}/${id}`, { token: admin.token })).body;
const spaceComments = async () => (await api.request('GET', `/v1/spaces/${space.id}`, { token: admin.token })).body.comments as number;

describe('comments under concurrent requests', () => {
  it('counts 20 users reacting with the same emoji at once, and each adding it twice at once', async () => {
    const t = await thread();
    const react = (c: Caller) => api.request('PUT', `${threads()}/${t}`, { token: c.token, body: { addedReactions: ['🎉'] } });
    const results = await Promise.all([...commenters, ...commenters].map(react));
    expect(statuses(results)).toEqual(Array(40).fill(200));
    const [tada] = (await read(t)).reactions;
    expect(tada.count).toBe(20);
    expect(new Set(tada.users.map((u: { user: { id: string } }) => u.user.id))).toEqual(new Set(commenters.map((c) => c.user.id)));
  });

  it('counts 20 concurrent replies exactly, with every replier', async () => {
    const t = await thread();
    const results = await Promise.all(commenters.map((c, i) => api.request('POST', `${threads()}/${t}/replies`, { token: c.token, body: { body: { markdown: `reply ${i}` } } })));
    expect(statuses(results)).toEqual(Array(20).fill(200));
    const after = await read(t);
    expect(after.replies).toBe(20);
    expect(after.repliers).toHaveLength(20);
    expect((await api.request('GET', `${threads()}/${t}/replies?limit=0`, { token: admin.token })).body.count).toBe(20);
  });

  it('ends concurrent resolves and reopens in one consistent state, and the open count agrees', async () => {
    const before = await spaceComments();
    const t = await thread();
    const results = await Promise.all(commenters.map((c, i) => api.request('PUT', `${threads()}/${t}`, { token: c.token, body: { resolved: i % 2 === 0 } })));
    expect(statuses(results)).toEqual(Array(20).fill(200));
    // Each answer is consistent in itself: resolved exactly when resolvedAt and resolvedBy are set.
    for (const r of results) expect(r.body.status === 'resolved').toBe(r.body.resolvedAt !== undefined && r.body.resolvedBy !== undefined);
    const after = await read(t);
    if (after.status === 'resolved') {
      expect(after).toMatchObject({ resolvedAt: expect.any(String), resolvedBy: expect.any(Object) });
      expect(await spaceComments()).toBe(before);
    } else {
      expect(after).not.toHaveProperty('resolvedAt');
      expect(await spaceComments()).toBe(before + 1);
    }
  });

  it('counts 20 threads opened at once, then 10 resolved at once', async () => {
    const before = await spaceComments();
    const made = await Promise.all(commenters.map((c) => thread(c)));
    expect(await spaceComments()).toBe(before + 20);
    const results = await Promise.all(made.slice(0, 10).map((id) => api.request('PUT', `${threads()}/${id}`, { token: admin.token, body: { resolved: true } })));
    expect(statuses(results)).toEqual(Array(10).fill(200));
    expect(await spaceComments()).toBe(before + 10);
  });

  it('never leaves a reply or reaction behind a thread deleted while they are posted, and never answers 500', async () => {
    for (let round = 0; round < 3; round++) {
      const t = await thread();
      const posts = commenters.map((c, i) =>
        i % 2 === 0
          ? api.request('POST', `${threads()}/${t}/replies`, { token: c.token, body: { body: { markdown: 'racing' } } })
          : api.request('PUT', `${threads()}/${t}`, { token: c.token, body: { addedReactions: ['🔥'] } }),
      );
      const deletion = api.request('DELETE', `${threads()}/${t}`, { token: admin.token });
      const results = await Promise.all([...posts, deletion]);
      for (const r of results.slice(0, -1)) expect([200, 404]).toContain(r.status);
      expect(results.at(-1)!.status).toBe(205);
      const left = await api.em().execute<Array<{ n: string }>>(
        `select (select count(*) from comments where id = ? or parent_id = ?) + (select count(*) from comment_reactions where comment_id = ?) as n`,
        [t, t, t],
      );
      expect(Number(left[0]!.n)).toBe(0);
    }
  });

  it('deletes a thread once when 20 deletes race (one 205, the rest 204)', async () => {
    const t = await thread();
    const results = await Promise.all(Array.from({ length: 20 }, () => api.request('DELETE', `${threads()}/${t}`, { token: admin.token })));
    expect(statuses(results).sort()).toEqual([...Array(19).fill(204), 205]);
  });

  it('keeps the last of 20 concurrent edits by the author whole', async () => {
    const author = commenters[0]!;
    const t = await thread(author);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api.request('PUT', `${threads()}/${t}`, { token: author.token, body: { body: { markdown: `edit ${i}` } } })));
    expect(statuses(results)).toEqual(Array(20).fill(200));
    const final = (await read(t)).body.markdown as string;
    expect(results.map((r) => r.body.body.markdown)).toContain(final);
    expect(final).toMatch(/^edit \d+$/);
  });
});
