import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let commenter: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;
let space: Space;
const PAGE = 'commentPage000000001';

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { edit: editor, comment: commenter, read: reader, guest } } = await buildCast(em, ['edit', 'comment', 'read', 'guest'] as const));
  space = await buildSpace(em, org, admin);
  await buildContent(em, space, [{ id: PAGE, kind: 'document', title: 'Home', markdown: '# Home\n' }]);
});
afterAll(() => api.close());

const base = (s: { id: string } = space) => `/v1/spaces/${s.id}/comments`;
const post = (as: Caller, body: unknown, s: { id: string } = space) => api.request('POST', base(s), { token: as.token, body });
const put = (as: Caller, id: string, body: unknown) => api.request('PUT', `${base()}/${id}`, { token: as.token, body });
const get = (as: Caller, id: string, query = '') => api.request('GET', `${base()}/${id}${query}`, { token: as.token });
const doc = (text: string) => ({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', key: 'k1', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] });

async function posted(as: Caller = commenter, body: unknown = { body: { markdown: 'Looks **good**' } }, s: { id: string } = space) {
  const res = await post(as, body, s);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; status: string; postedAt: string };
}

/** How many threads the space shows, read as its admin. */
const count = async (query = '') => (await api.request('GET', `${base()}?limit=0${query}`, { token: admin.token })).body.count as number;

describe('POST /spaces/{spaceId}/comments', () => {
  it('opens a thread on a page (200, not 201) from what the published client sends', async () => {
    const res = await api.client(commenter.token).spaces.postCommentInSpace(space.id, { body: { markdown: 'Typo in **the title**' }, page: PAGE, node: 'block-3' });
    expect(res.status).toBe(200);
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/comments');
    const c = res.data;
    expect(c).toMatchObject({
      object: 'comment',
      status: 'open',
      body: { markdown: 'Typo in **the title**' },
      postedBy: { object: 'user', id: commenter.user.id },
      replies: 0,
      repliers: [],
      reactions: [],
      target: { space: space.id, revision: expect.any(String), page: { id: PAGE }, node: { id: 'block-3' } },
      permissions: { view: true, edit: true, delete: true, reply: true },
      urls: { location: `http://vellum.test${base()}/${c.id}` },
    });
    expect(c).not.toHaveProperty('editedAt');
    expect(c).not.toHaveProperty('resolvedAt');
    expect(c.target).not.toHaveProperty('changeRequest');
    const current = await api.request('GET', `/v1/spaces/${space.id}`, { token: admin.token });
    expect(c.target.revision).toBe(current.body.revision);
  });

  it('keeps a Markdown body exactly as given, HTML and all, and never renders it', async () => {
    const markdown = '<script>alert(1)</script>\n\n*  odd   spacing*  \n[x](javascript:alert(1))';
    const c = await posted(commenter, { body: { markdown } });
    const read = await get(admin, c.id);
    expect(read.body.body).toEqual({ markdown });
    // Read as a document the HTML is text in a leaf, not markup.
    const asDoc = await get(admin, c.id, '?format=document');
    expect(JSON.stringify(asDoc.body.body.document)).toContain('<script>alert(1)</script>');
    expect(asDoc.body.body.document.object).toBe('document');
  });

  it('takes the three body forms and reads each back in either format', async () => {
    const md = await posted(commenter, { body: { markdown: 'Some **bold** text' } });
    const dc = await posted(commenter, { body: { document: doc('From <the> editor') } });
    const empty = await posted(commenter, { body: {} });
    const asDoc = await get(reader, md.id, '?format=document');
    expectPublishedShape(asDoc, 'GET', '/spaces/{spaceId}/comments/{commentId}');
    expect(asDoc.body.body.document.nodes[0]).toMatchObject({ type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'Some ' }, { text: 'bold', marks: [{ type: 'bold' }] }, { text: ' text' }] }] });
    expect((await get(reader, dc.id, '?format=document')).body.body).toEqual({ document: doc('From <the> editor') });
    // A document read as Markdown is escaped: its text never becomes markup.
    expect((await get(reader, dc.id, '?format=markdown')).body.body).toEqual({ markdown: 'From \\<the> editor' });
    expect((await get(reader, dc.id)).body.body).toEqual({ markdown: 'From \\<the> editor' });
    expect((await get(reader, empty.id, '?format=document')).body.body).toEqual({});
    expect((await get(reader, empty.id)).body.body).toEqual({});
  });

  it('answers a write in the form the body was written in', async () => {
    const res = await post(commenter, { body: { document: doc('hello') } });
    expect(res.body.body).toEqual({ document: doc('hello') });
  });

  it('records a table cell target', async () => {
    const c = await posted(commenter, { body: { markdown: 'cell' }, page: PAGE, tableCell: { record: 'r1', definition: 'd1' } });
    const read = await get(reader, c.id);
    expect(read.body.target).toMatchObject({ page: { id: PAGE }, tableCell: { record: 'r1', definition: 'd1' } });
  });

  it('refuses bad bodies and unknown pages with a 400 naming the field, creating nothing', async () => {
    const before = await count();
    expectError(await post(commenter, {}), 400, /body\.body/);
    expectError(await post(commenter, { body: { markdwon: 'typo' } }), 400, /body\.body/);
    expectError(await post(commenter, { body: { markdown: 'a', document: doc('b') } }), 400, /not both/);
    expectError(await post(commenter, { body: { markdown: 42 } }), 400, /body\.body\.markdown/);
    expectError(await post(commenter, { body: { document: { object: 'document', nodes: 'no' } } }), 400, /body\.body\.document/);
    expectError(await post(commenter, { body: { markdown: 'x'.repeat(100_001) } }), 400, /body\.body\.markdown/);
    expectError(await post(commenter, { body: { markdown: 'x' }, page: 'noSuchPage0000000000' }), 400, /^body\.page: /);
    expectError(await post(commenter, { body: { markdown: 'x' }, tableCell: { record: 'r' } }), 400, /body\.tableCell\.definition/);
    expectError(await post(commenter, { body: { markdown: 'nul \u0000' } }), 400, /NUL/);
    expect(await count()).toBe(before);
  });

  it('lets role comment post; refuses read (403), guests and other organizations (404)', async () => {
    const before = await count();
    await posted(editor);
    expectError(await post(reader, { body: { markdown: 'no' } }), 403);
    expectError(await post(guest, { body: { markdown: 'no' } }), 404);
    expectError(await post(outsider, { body: { markdown: 'no' } }), 404);
    expectError(await post(commenter, { body: { markdown: 'no' } }, { id: 'noSuchSpace000000000' }), 404);
    expect(await count()).toBe(before + 1);
  });

  it('refuses comments in a space in the bin (412)', async () => {
    const binned = await buildSpace(api.em(), org, admin);
    expect((await api.request('DELETE', `/v1/spaces/${binned.id}`, { token: admin.token })).status).toBe(204);
    expectError(await post(admin, { body: { markdown: 'x' } }, binned), 412);
  });
});

describe('GET /spaces/{spaceId}/comments', () => {
  let s: Space;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    s = await buildSpace(api.em(), org, admin);
    await buildContent(api.em(), s, [{ id: 'listPage000000000001', kind: 'document', title: 'A' }, { id: 'listPage000000000002', kind: 'document', title: 'B' }]);
    ids.first = (await posted(commenter, { body: { markdown: 'first' }, page: 'listPage000000000001' }, s)).id;
    ids.second = (await posted(editor, { body: { markdown: 'second' }, page: 'listPage000000000002' }, s)).id;
    ids.third = (await posted(admin, { body: { markdown: 'third' } }, s)).id;
    expect((await api.request('PUT', `${base(s)}/${ids.second}`, { token: admin.token, body: { resolved: true } })).status).toBe(200);
  });
  const list = (query = '', as: Caller = reader) => api.request('GET', `${base(s)}${query}`, { token: as.token });
  const idsOf = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((c) => c.id);

  it('lists newest first by default, all statuses, in the published shape', async () => {
    const res = await api.client(reader.token).spaces.listCommentsInSpace(s.id);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/comments');
    expect(res.data.items.map((c) => c.id)).toEqual([ids.third, ids.second, ids.first]);
    expect(res.data.count).toBe(3);
  });

  it('filters by status, target page and authors (repeated keys), and orders oldest first on asking', async () => {
    expect(idsOf(await list('?order=asc'))).toEqual([ids.first, ids.second, ids.third]);
    expect(idsOf(await list('?status=open'))).toEqual([ids.third, ids.first]);
    expect(idsOf(await list('?status=resolved'))).toEqual([ids.second]);
    expect(idsOf(await list('?status=all'))).toHaveLength(3);
    expect(idsOf(await list('?targetPage=listPage000000000002'))).toEqual([ids.second]);
    expect(idsOf(await list(`?authors=${commenter.user.id}`))).toEqual([ids.first]);
    expect(idsOf(await list(`?authors=${commenter.user.id}&authors=${admin.user.id}`))).toEqual([ids.third, ids.first]);
    const client = await api.client(reader.token).spaces.listCommentsInSpace(s.id, { authors: [editor.user.id, admin.user.id], order: 'asc' as never });
    expect(client.data.items.map((c) => c.id)).toEqual([ids.second, ids.third]);
  });

  it('pages with opaque tokens and reads bodies in the asked format', async () => {
    const first = await list('?limit=2');
    expect(idsOf(first)).toEqual([ids.third, ids.second]);
    const second = await list(`?limit=2&page=${first.body.next.page}`);
    expect(idsOf(second)).toEqual([ids.first]);
    expect(second.body.next).toBeUndefined();
    expectError(await list(`?limit=2&order=asc&page=${first.body.next.page}`), 400, /query\.page/);
    const docs = await list('?format=document');
    expect(docs.body.items[0].body.document.object).toBe('document');
  });

  it('refuses bad queries (400), the read of a guest or another organization (404)', async () => {
    for (const q of ['?status=closed', '?order=sideways', '?format=pdf', '?limit=1001', '?page=garbage']) expectError(await list(q), 400);
    expectError(await list('', guest), 404);
    expectError(await list('', outsider), 404);
  });

  it('counts the open threads on the space', async () => {
    const res = await api.request('GET', `/v1/spaces/${s.id}`, { token: reader.token });
    expect(res.body.comments).toBe(2);
  });
});

describe('GET /spaces/{spaceId}/comments/{commentId}', () => {
  it('answers 404 for unknown ids, another space’s comment, guests and other organizations', async () => {
    const c = await posted();
    const other = await buildSpace(api.em(), org, admin);
    expectError(await get(reader, 'noSuchComment0000000'), 404);
    expectError(await api.request('GET', `${base(other)}/${c.id}`, { token: admin.token }), 404);
    expectError(await get(guest, c.id), 404);
    expectError(await get(outsider, c.id), 404);
  });

  it('tells each viewer what they may do', async () => {
    const c = await posted(commenter);
    expect((await get(commenter, c.id)).body.permissions).toEqual({ view: true, edit: true, delete: true, reply: true });
    expect((await get(editor, c.id)).body.permissions).toEqual({ view: true, edit: false, delete: false, reply: true });
    expect((await get(admin, c.id)).body.permissions).toEqual({ view: true, edit: false, delete: true, reply: true });
    expect((await get(reader, c.id)).body.permissions).toEqual({ view: true, edit: false, delete: false, reply: false });
  });
});

describe('PUT /spaces/{spaceId}/comments/{commentId}', () => {
  it('lets the author edit the body, which sets editedAt', async () => {
    const c = await posted(commenter);
    const res = await api.client(commenter.token).spaces.updateCommentInSpace(space.id, c.id, { body: { markdown: 'Edited' } });
    expectPublishedShape(res, 'PUT', '/spaces/{spaceId}/comments/{commentId}');
    expect(res.data.body).toEqual({ markdown: 'Edited' });
    expect(res.data.editedAt).toEqual(expect.any(String));
    expect((await get(reader, c.id)).body).toMatchObject({ body: { markdown: 'Edited' }, editedAt: res.data.editedAt });
  });

  it('refuses a body change by anyone but the author (403), an admin included, changing nothing', async () => {
    const c = await posted(commenter);
    for (const who of [editor, admin]) expectError(await put(who, c.id, { body: { markdown: 'Hijacked' } }), 403, /author/);
    expectError(await put(reader, c.id, { resolved: true }), 403);
    expectError(await put(guest, c.id, { resolved: true }), 404);
    expectError(await put(outsider, c.id, { resolved: true }), 404);
    const read = (await get(admin, c.id)).body;
    expect(read).toMatchObject({ body: { markdown: 'Looks **good**' }, status: 'open' });
    expect(read).not.toHaveProperty('editedAt');
  });

  it('resolves (resolvedAt, resolvedBy) and reopens, for any commenter; resolving twice keeps the first', async () => {
    const c = await posted(commenter);
    const resolved = await put(editor, c.id, { resolved: true });
    expect(resolved.status).toBe(200);
    expectPublishedShape(resolved, 'PUT', '/spaces/{spaceId}/comments/{commentId}');
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedAt: expect.any(String), resolvedBy: { id: editor.user.id } });
    expect(resolved.body).not.toHaveProperty('editedAt');
    const again = await put(admin, c.id, { resolved: true });
    expect(again.body).toMatchObject({ resolvedAt: resolved.body.resolvedAt, resolvedBy: { id: editor.user.id } });
    const reopened = await put(commenter, c.id, { resolved: false });
    expect(reopened.body.status).toBe('open');
    expect(reopened.body).not.toHaveProperty('resolvedAt');
    expect(reopened.body).not.toHaveProperty('resolvedBy');
  });

  it('adds and removes the caller’s reactions, counted per user with who and when', async () => {
    const c = await posted(commenter);
    await put(commenter, c.id, { addedReactions: ['🎉', '👍'] });
    await put(editor, c.id, { addedReactions: ['🎉', '🎉'] });
    const res = await put(admin, c.id, { addedReactions: ['1f389'] });
    expectPublishedShape(res, 'PUT', '/spaces/{spaceId}/comments/{commentId}');
    const tada = res.body.reactions.find((r: { emoji: string }) => r.emoji === '🎉');
    // `1f389` is 🎉 spelt in hex: the admin's reaction joins the others.
    expect(tada).toMatchObject({ count: 3, users: [{ user: { id: commenter.user.id }, reactedAt: expect.any(String) }, { user: { id: editor.user.id } }, { user: { id: admin.user.id } }] });
    expect(res.body.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([['🎉', 3], ['👍', 1]]);
    const removed = await put(editor, c.id, { removedReactions: ['1F389', '🚀'] });
    expect(removed.body.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([['🎉', 2], ['👍', 1]]);
    // Reacting is not editing: the body keeps no editedAt.
    expect(removed.body).not.toHaveProperty('editedAt');
  });

  it('refuses bad updates with 400, changing nothing', async () => {
    const c = await posted(commenter);
    const before = JSON.stringify((await get(admin, c.id)).body);
    expectError(await put(commenter, c.id, { resolved: 'yes' }), 400, /body\.resolved/);
    expectError(await put(commenter, c.id, { addedReactions: [':tada:'] }), 400, /body\.addedReactions\.0/);
    expectError(await put(commenter, c.id, { addedReactions: ['🎉'], removedReactions: ['🎉'] }), 400, /both added and removed/);
    expectError(await put(commenter, c.id, { addedReactions: Array(21).fill('🎉') }), 400, /body\.addedReactions/);
    expectError(await put(commenter, c.id, { body: { html: '<b>x</b>' } }), 400, /body\.body/);
    expect(JSON.stringify((await get(admin, c.id)).body)).toBe(before);
  });
});

describe('DELETE /spaces/{spaceId}/comments/{commentId}', () => {
  it('lets the author delete their thread (205, then 204), taking its replies', async () => {
    const c = await posted(commenter);
    const reply = await api.request('POST', `${base()}/${c.id}/replies`, { token: editor.token, body: { body: { markdown: 'r' } } });
    const res = await api.client(commenter.token).spaces.deleteCommentInSpace(space.id, c.id);
    expect(res.status).toBe(205);
    expectError(await get(admin, c.id), 404);
    expectError(await api.request('GET', `${base()}/${c.id}/replies/${reply.body.id}`, { token: admin.token }), 404);
    const rows = await api.em().execute('select id from comments where id in (?, ?)', [c.id, reply.body.id]);
    expect(rows).toEqual([]);
    expect((await api.request('DELETE', `${base()}/${c.id}`, { token: commenter.token })).status).toBe(204);
  });

  it('lets a space admin delete anyone’s thread; refuses other commenters and readers (403)', async () => {
    const c = await posted(commenter);
    expectError(await api.request('DELETE', `${base()}/${c.id}`, { token: editor.token }), 403, /author|admin/);
    expectError(await api.request('DELETE', `${base()}/${c.id}`, { token: reader.token }), 403);
    expect((await get(admin, c.id)).status).toBe(200);
    expect((await api.request('DELETE', `${base()}/${c.id}`, { token: admin.token })).status).toBe(205);
  });

  it('answers 204 to another organization and to guests, deleting nothing', async () => {
    const c = await posted(commenter);
    expect((await api.request('DELETE', `${base()}/${c.id}`, { token: outsider.token })).status).toBe(204);
    expect((await api.request('DELETE', `${base()}/${c.id}`, { token: guest.token })).status).toBe(204);
    expect((await get(admin, c.id)).status).toBe(200);
  });
});
