import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let admin: Caller;
let editor: Caller;
let commenter: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;
let space: Space;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const cast = await buildCast(em, ['edit', 'comment', 'read', 'guest'] as const);
  ({ admin, outsider, members: { edit: editor, comment: commenter, read: reader, guest } } = cast);
  space = await buildSpace(em, cast.org, admin);
});
afterAll(() => api.close());

const threads = () => `/v1/spaces/${space.id}/comments`;
const replies = (threadId: string) => `${threads()}/${threadId}/replies`;

async function thread(as: Caller = commenter) {
  const res = await api.request('POST', threads(), { token: as.token, body: { body: { markdown: 'Thread' } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

async function reply(threadId: string, as: Caller = editor, markdown = 'A reply') {
  const res = await api.request('POST', replies(threadId), { token: as.token, body: { body: { markdown } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; postedAt: string };
}

const readThread = async (id: string) => (await api.request('GET', `${threads()}/${id}`, { token: admin.token })).body;

describe('POST /spaces/{spaceId}/comments/{commentId}/replies', () => {
  it('adds a reply (200) from what the published client sends, counted on the thread with its replier', async () => {
    const t = await thread();
    const res = await api.client(editor.token).spaces.postCommentReplyInSpace(space.id, t, { body: { markdown: 'Agreed' } });
    expect(res.status).toBe(200);
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/comments/{commentId}/replies');
    expect(res.data).toMatchObject({
      object: 'comment-reply',
      body: { markdown: 'Agreed' },
      postedBy: { id: editor.user.id },
      reactions: [],
      permissions: { view: true, edit: true, delete: true, reply: true },
      urls: { location: `http://vellum.test${replies(t)}/${res.data.id}` },
    });
    await reply(t, editor, 'Again');
    const second = await reply(t, commenter, 'Thanks');
    const read = await readThread(t);
    expect(read.replies).toBe(3);
    expect(read.repliers).toEqual([
      { user: expect.objectContaining({ id: commenter.user.id }), count: 1, updatedAt: second.postedAt },
      { user: expect.objectContaining({ id: editor.user.id }), count: 2, updatedAt: expect.any(String) },
    ]);
  });

  it('takes a document or an empty body', async () => {
    const t = await thread();
    const document = { object: 'document', data: {}, nodes: [] };
    const res = await api.request('POST', replies(t), { token: commenter.token, body: { body: { document } } });
    expect(res.body.body).toEqual({ document });
    expect((await api.request('POST', replies(t), { token: commenter.token, body: { body: {} } })).body.body).toEqual({});
  });

  it('refuses a missing or bad body (400), read (403), guests, other organizations and unknown threads (404)', async () => {
    const t = await thread();
    for (const body of [{}, { body: 'text' }, { body: { markdown: 'x', extra: 1 } }]) expectError(await api.request('POST', replies(t), { token: commenter.token, body }), 400, /body\.body/);
    expectError(await api.request('POST', replies(t), { token: reader.token, body: { body: { markdown: 'x' } } }), 403);
    expectError(await api.request('POST', replies(t), { token: guest.token, body: { body: { markdown: 'x' } } }), 404);
    expectError(await api.request('POST', replies(t), { token: outsider.token, body: { body: { markdown: 'x' } } }), 404);
    expectError(await api.request('POST', replies('noSuchThread00000000'), { token: commenter.token, body: { body: { markdown: 'x' } } }), 404);
    expect((await readThread(t)).replies).toBe(0);
  });

  it('refuses a reply to a reply (the thread is the comment)', async () => {
    const t = await thread();
    const r = await reply(t);
    expectError(await api.request('POST', replies(r.id), { token: commenter.token, body: { body: { markdown: 'x' } } }), 404);
    expectError(await api.request('GET', `${threads()}/${r.id}`, { token: admin.token }), 404);
  });
});

describe('GET replies', () => {
  it('lists a thread’s replies oldest first, paged, in either format', async () => {
    const t = await thread();
    const made = [];
    for (const text of ['one', 'two', 'three']) made.push((await reply(t, editor, text)).id);
    const res = await api.client(reader.token).spaces.listCommentRepliesInSpace(space.id, t, { limit: 2 });
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/comments/{commentId}/replies');
    expect(res.data.items.map((r) => r.id)).toEqual(made.slice(0, 2));
    expect(res.data.count).toBe(3);
    const next = await api.request('GET', `${replies(t)}?limit=2&page=${res.data.next!.page}&format=document`, { token: reader.token });
    expect(next.body.items.map((r: { id: string }) => r.id)).toEqual([made[2]]);
    expect(next.body.items[0].body.document.object).toBe('document');
    expect(next.body.items[0].permissions).toEqual({ view: true, edit: false, delete: false, reply: false });
    expectError(await api.request('GET', `${replies(t)}?limit=-1`, { token: reader.token }), 400);
    expectError(await api.request('GET', replies(t), { token: outsider.token }), 404);
  });

  it('reads one reply; another thread’s reply is a 404', async () => {
    const t = await thread();
    const other = await thread();
    const r = await reply(t);
    const res = await api.client(reader.token).spaces.getCommentReplyInSpace(space.id, t, r.id);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}');
    expect(res.data).toMatchObject({ id: r.id, body: { markdown: 'A reply' } });
    expectError(await api.request('GET', `${replies(other)}/${r.id}`, { token: reader.token }), 404);
    expectError(await api.request('GET', `${replies(t)}/noSuchReply000000000`, { token: reader.token }), 404);
    expectError(await api.request('GET', `${replies(t)}/${r.id}`, { token: guest.token }), 404);
  });
});

describe('PUT /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', () => {
  it('lets the author edit (editedAt) and anyone commenting react; others may not edit (403)', async () => {
    const t = await thread();
    const r = await reply(t, editor);
    const edited = await api.client(editor.token).spaces.updateCommentReplyInSpace(space.id, t, r.id, { body: { markdown: 'Fixed' } });
    expectPublishedShape(edited, 'PUT', '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}');
    expect(edited.data).toMatchObject({ body: { markdown: 'Fixed' }, editedAt: expect.any(String) });
    const reacted = await api.request('PUT', `${replies(t)}/${r.id}`, { token: commenter.token, body: { addedReactions: ['👀'] } });
    expect(reacted.body.reactions).toEqual([{ emoji: '👀', count: 1, users: [{ user: expect.objectContaining({ id: commenter.user.id }), reactedAt: expect.any(String) }] }]);
    expectError(await api.request('PUT', `${replies(t)}/${r.id}`, { token: commenter.token, body: { body: { markdown: 'Mine now' } } }), 403);
    expectError(await api.request('PUT', `${replies(t)}/${r.id}`, { token: reader.token, body: { addedReactions: ['👀'] } }), 403);
    expectError(await api.request('PUT', `${replies(t)}/${r.id}`, { token: editor.token, body: { addedReactions: 'no' } }), 400);
    // The space's reply update takes no `resolved` (GitBook's space schema has none): it is ignored, not applied.
    const withResolved = await api.request('PUT', `${replies(t)}/${r.id}`, { token: editor.token, body: { resolved: true } });
    expect(withResolved.status).toBe(200);
    expect((await readThread(t)).status).toBe('open');
    expect((await api.request('GET', `${replies(t)}/${r.id}`, { token: admin.token })).body.body).toEqual({ markdown: 'Fixed' });
  });
});

describe('DELETE /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', () => {
  it('lets the author or an admin delete a reply (205, then 204), uncounting it', async () => {
    const t = await thread();
    const mine = await reply(t, editor);
    const theirs = await reply(t, commenter);
    expectError(await api.request('DELETE', `${replies(t)}/${mine.id}`, { token: commenter.token }), 403);
    const res = await api.client(editor.token).spaces.deleteCommentReplyInSpace(space.id, t, mine.id);
    expect(res.status).toBe(205);
    expect((await api.request('DELETE', `${replies(t)}/${theirs.id}`, { token: admin.token })).status).toBe(205);
    expect((await api.request('DELETE', `${replies(t)}/${theirs.id}`, { token: admin.token })).status).toBe(204);
    const read = await readThread(t);
    expect(read).toMatchObject({ replies: 0, repliers: [] });
  });
});
