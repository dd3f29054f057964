import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specsOf } from '../../src/domain/content/current-pages.ts';
import type { PageSpec } from '../../src/domain/content/page-tree.ts';
import { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildChangeRequestContent, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let admin: Caller;
let editor: Caller;
let reviewer: Caller;
let reader: Caller;
let outsider: Caller;
let space: Space;
let mainRevision: string;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const cast = await buildCast(em, ['edit', 'review', 'read'] as const);
  ({ admin, outsider } = cast);
  ({ edit: editor, review: reviewer, read: reader } = cast.members);
  space = await buildSpace(em, cast.org, admin);
  mainRevision = (await buildContent(em, space, [{ id: 'mainHome000000000000', kind: 'document', title: 'Home', markdown: '# Home\n' }])).id;
});
afterAll(() => api.close());

/** A change request holding Intro (with Child and Grandchild below) and Outro. */
async function openWithTree() {
  const cr = await buildChangeRequest(api.em(), space, editor);
  const tree: PageSpec[] = [
    { id: 'introPage00000000000', kind: 'document', title: 'Intro', markdown: 'intro', children: [
      { id: 'childPage00000000000', kind: 'document', title: 'Child', markdown: 'child', children: [{ id: 'grandchild0000000000', kind: 'document', title: 'Grandchild' }] },
    ] },
    { id: 'outroPage00000000000', kind: 'document', title: 'Outro', markdown: 'outro' },
  ];
  await buildChangeRequestContent(api.em(), space, cr, editor, tree);
  return cr;
}

const pathOf = (cr: ChangeRequest, rest = '') => `/v1/spaces/${space.id}/change-requests/${cr.id}/content${rest}`;

/** The change request's tree now: titles nested as [title, children]. */
async function outline(cr: ChangeRequest) {
  const em = api.em();
  const fresh = await em.findOneOrFail(ChangeRequest, { id: cr.id });
  const specs = await specsOf(em, await em.findOneOrFail(Revision, { id: fresh.revision }));
  const walk = (list: PageSpec[]): unknown[] => list.map((p) => (p.children?.length ? [p.title, walk(p.children)] : p.title));
  return { revision: fresh.revision, tree: walk(specs), specs };
}

async function mainUntouched() {
  const rows = await api.em().execute<{ revision: string }[]>('select revision from spaces where id = ?', [space.id]);
  expect(rows[0]!.revision).toBe(mainRevision);
}

/**
 * Page edits are beyond GitBook: they answer a page as getPageById does, so the body is
 * checked against that operation's published schema (RevisionPage, the same one the
 * change request's page read answers).
 */
function expectPageShape(res: { status: number; body: unknown }) {
  expectPublishedShape({ status: 200, body: res.body }, 'GET', '/spaces/{spaceId}/content/page/{pageId}');
}

describe('creating pages in a change request', () => {
  it('adds a document under a parent, after a sibling, and answers it with a fresh id and Location', async () => {
    const cr = await openWithTree();
    const res = await api.request('POST', pathOf(cr, '/pages'), {
      token: editor.token,
      body: { title: 'Setup', markdown: '# Setup\n\nRun it.', emoji: '1f680', parent: 'introPage00000000000', position: { after: { type: 'page', page: 'childPage00000000000' } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectPageShape(res);
    expect(res.body).toMatchObject({ title: 'Setup', kind: 'sheet', type: 'document', markdown: '# Setup\n\nRun it.', emoji: '1f680', path: 'intro/setup' });
    expect(res.body.id).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(res.headers.get('location')).toBe(`http://vellum.test/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${res.body.id}`);
    expect((await outline(cr)).tree).toEqual([['Intro', [['Child', ['Grandchild']], 'Setup']], 'Outro']);
    const contributors = await api.em().execute('select user_id from change_request_contributors where change_request_id = ?', [cr.id]);
    expect(contributors).toEqual([{ user_id: editor.user.id }]);
    await mainUntouched();
  });

  it('adds groups and links at the top level, before a sibling or last', async () => {
    const cr = await openWithTree();
    const group = await api.request('POST', pathOf(cr, '/pages'), { token: admin.token, body: { kind: 'group', title: 'Guides', position: { before: { type: 'page', page: 'introPage00000000000' } } } });
    expect(group.status).toBe(201);
    expectPageShape(group);
    expect(group.body).toMatchObject({ kind: 'group', type: 'group', title: 'Guides', pages: [] });
    const link = await api.request('POST', pathOf(cr, '/pages'), { token: admin.token, body: { kind: 'link', title: 'Site', linkTarget: { kind: 'url', url: 'https://example.com/' } } });
    expect(link.status).toBe(201);
    expectPageShape(link);
    expect(link.body).toMatchObject({ kind: 'link', href: 'https://example.com/', target: { kind: 'url', url: 'https://example.com/' } });
    const toPage = await api.request('POST', pathOf(cr, '/pages'), { token: admin.token, body: { kind: 'link', title: 'See intro', linkTarget: { kind: 'page', page: 'introPage00000000000' }, parent: group.body.id } });
    expect(toPage.status).toBe(201);
    expect((await outline(cr)).tree).toEqual([['Guides', ['See intro']], ['Intro', [['Child', ['Grandchild']]]], 'Outro', 'Site']);
  });

  it('keeps all of 20 pages created at once', async () => {
    const cr = await openWithTree();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.request('POST', pathOf(cr, '/pages'), { token: editor.token, body: { title: `Parallel ${i}`, markdown: `${i}` } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(20);
    const { specs } = await outline(cr);
    expect(specs.map((p) => p.title).filter((t) => t.startsWith('Parallel')).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `Parallel ${i}`).sort());
    expect(specs.filter((p) => p.title.startsWith('Parallel')).map((p) => p.id).sort()).toEqual(results.map((r) => r.body.id).sort());
    await mainUntouched();
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const cr = await openWithTree();
    const before = await outline(cr);
    const post = (body: unknown) => api.request('POST', pathOf(cr, '/pages'), { token: editor.token, body });
    expectError(await post({ title: 'x', parent: 'noSuchPage0000000000' }), 400, /parent/);
    expectError(await post({ title: 'x'.repeat(256) }), 400, /title/);
    expectError(await post({ title: '   ' }), 400, /title/);
    expectError(await post({}), 400, /title/);
    expectError(await post({ kind: 'group', title: 'G', markdown: 'x' }), 400, /markdown/);
    expectError(await post({ kind: 'link', title: 'L' }), 400, /linkTarget/);
    expectError(await post({ kind: 'link', title: 'L', linkTarget: { kind: 'url', url: 'javascript:alert(1)' } }), 400, /linkTarget/);
    expectError(await post({ kind: 'link', title: 'L', linkTarget: { kind: 'page', page: 'noSuchPage0000000000' } }), 400, /linkTarget.page/);
    expectError(await post({ title: 'x', position: { after: { type: 'page', page: 'childPage00000000000' } } }), 400, /position/);
    expectError(await post({ title: 'x', position: { after: { type: 'page', page: 'outroPage00000000000' }, before: { type: 'page', page: 'introPage00000000000' } } }), 400, /position/);
    expectError(await post({ title: 'x', kind: 'chapter' }), 400, /kind/);
    expectError(await post({ title: 'x', markdown: 42 }), 400, /markdown/);
    expect(await outline(cr)).toEqual(before);
  });

  it('refuses a body over the page size limit with 400 (413 above the request limit) and changes nothing', async () => {
    const big = await startTestApi({ BODY_LIMIT: '8mb' });
    try {
      const cr = await openWithTree();
      const before = await outline(cr);
      const huge = 'é'.repeat(2.5 * 1024 * 1024 + 1); // 5 MiB + 2 bytes of UTF-8
      expectError(await big.request('POST', pathOf(cr, '/pages'), { token: editor.token, body: { title: 'Huge', markdown: huge } }), 400, /markdown/);
      expectError(await api.request('POST', pathOf(cr, '/pages'), { token: editor.token, body: { title: 'Huge', markdown: huge } }), 413);
      expect(await outline(cr)).toEqual(before);
    } finally {
      await big.close();
    }
  });
});

describe('updating, moving and deleting pages in a change request', () => {
  it('updates title, description, emoji, hidden and Markdown body, keeping the id and slug', async () => {
    const cr = await openWithTree();
    const res = await api.request('PATCH', pathOf(cr, '/page/childPage00000000000'), {
      token: editor.token,
      body: { title: 'Renamed child', description: 'About it', emoji: '2728', hidden: true, markdown: '# New text\n' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectPageShape(res);
    expect(res.body).toMatchObject({ id: 'childPage00000000000', title: 'Renamed child', description: 'About it', emoji: '2728', hidden: true, markdown: '# New text\n', slug: 'child' });
    expect(res.body.pages.map((p: { title: string }) => p.title)).toEqual(['Grandchild']);
    const cleared = await api.request('PATCH', pathOf(cr, '/page/childPage00000000000'), { token: editor.token, body: { emoji: null, description: null } });
    expect(cleared.body).not.toHaveProperty('emoji');
    expect(cleared.body).not.toHaveProperty('description');
    await mainUntouched();
  });

  it('moves a page with its pages to another parent, or before a sibling', async () => {
    const cr = await openWithTree();
    const moved = await api.request('POST', pathOf(cr, '/page/childPage00000000000/move'), { token: editor.token, body: { parent: 'outroPage00000000000' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expectPageShape(moved);
    expect(moved.body).toMatchObject({ id: 'childPage00000000000', path: 'outro/child' });
    expect((await outline(cr)).tree).toEqual(['Intro', ['Outro', [['Child', ['Grandchild']]]]]);
    const reordered = await api.request('POST', pathOf(cr, '/page/outroPage00000000000/move'), { token: editor.token, body: { position: { before: { type: 'page', page: 'introPage00000000000' } } } });
    expect(reordered.status).toBe(200);
    const toTop = await api.request('POST', pathOf(cr, '/page/grandchild0000000000/move'), { token: editor.token, body: { parent: null } });
    expect(toTop.status).toBe(200);
    expect((await outline(cr)).tree).toEqual([['Outro', ['Child']], 'Intro', 'Grandchild']);
  });

  it('refuses a move under the page itself or its descendants (400), and one that changes nothing (409)', async () => {
    const cr = await openWithTree();
    const before = await outline(cr);
    const move = (pageId: string, body: unknown) => api.request('POST', pathOf(cr, `/page/${pageId}/move`), { token: editor.token, body });
    expectError(await move('introPage00000000000', { parent: 'introPage00000000000' }), 400, /parent/);
    expectError(await move('introPage00000000000', { parent: 'grandchild0000000000' }), 400, /parent/);
    expectError(await move('introPage00000000000', { parent: 'noSuchPage0000000000' }), 400, /parent/);
    expectError(await move('introPage00000000000', { position: { after: { type: 'page', page: 'introPage00000000000' } } }), 400, /position/);
    expectError(await move('introPage00000000000', {}), 400);
    expectError(await move('introPage00000000000', { parent: null }), 409);
    expectError(await move('outroPage00000000000', { position: { after: { type: 'page', page: 'introPage00000000000' } } }), 409);
    expectError(await move('noSuchPage0000000000', { parent: null }), 404);
    expect(await outline(cr)).toEqual(before);
  });

  it('refuses bad updates with 400 and an unknown page with 404, changing nothing', async () => {
    const cr = await openWithTree();
    const before = await outline(cr);
    const patch = (pageId: string, body: unknown) => api.request('PATCH', pathOf(cr, `/page/${pageId}`), { token: editor.token, body });
    expectError(await patch('introPage00000000000', {}), 400);
    expectError(await patch('introPage00000000000', { title: 'x'.repeat(256) }), 400, /title/);
    expectError(await patch('introPage00000000000', { linkTarget: { kind: 'url', url: 'https://example.com/' } }), 400, /linkTarget/);
    expectError(await patch('introPage00000000000', { hidden: 'yes' }), 400, /hidden/);
    expectError(await patch('noSuchPage0000000000', { title: 'New' }), 404);
    expect(await outline(cr)).toEqual(before);
  });

  it('deletes a page with its pages (205), then answers 204', async () => {
    const cr = await openWithTree();
    const res = await api.request('DELETE', pathOf(cr, '/page/introPage00000000000'), { token: editor.token });
    expect(res.status).toBe(205);
    expect(res.body).toBeUndefined();
    expect((await outline(cr)).tree).toEqual(['Outro']);
    const revision = (await outline(cr)).revision;
    expect((await api.request('DELETE', pathOf(cr, '/page/introPage00000000000'), { token: editor.token })).status).toBe(204);
    expect((await outline(cr)).revision).toBe(revision);
    await mainUntouched();
  });

  it('deletes once when 20 deletions of one page arrive at once', async () => {
    const cr = await openWithTree();
    const results = await Promise.all(Array.from({ length: 20 }, () => api.request('DELETE', pathOf(cr, '/page/childPage00000000000'), { token: editor.token })));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(19).fill(204), 205]);
    expect((await outline(cr)).tree).toEqual(['Intro', 'Outro']);
  });
});

describe('who may edit a change request’s pages', () => {
  it('refuses archived and merged change requests with 409, changing nothing', async () => {
    for (const status of ['archived', 'merged']) {
      const cr = await openWithTree();
      await api.em().nativeUpdate(ChangeRequest, { id: cr.id }, { status: status as 'archived' });
      const before = await outline(cr);
      expectError(await api.request('POST', pathOf(cr, '/pages'), { token: editor.token, body: { title: 'Late' } }), 409, new RegExp(status));
      expectError(await api.request('PATCH', pathOf(cr, '/page/introPage00000000000'), { token: editor.token, body: { title: 'Late' } }), 409);
      expectError(await api.request('POST', pathOf(cr, '/page/introPage00000000000/move'), { token: editor.token, body: { parent: null } }), 409);
      expectError(await api.request('DELETE', pathOf(cr, '/page/introPage00000000000'), { token: editor.token }), 409);
      expect(await outline(cr)).toEqual(before);
    }
  });

  it('answers 404 for unknown change requests and to other organizations, 403 to roles below edit', async () => {
    const cr = await openWithTree();
    const before = await outline(cr);
    const unknown = `/v1/spaces/${space.id}/change-requests/999999/content`;
    expectError(await api.request('POST', `${unknown}/pages`, { token: admin.token, body: { title: 'x' } }), 404);
    expectError(await api.request('DELETE', `${unknown}/page/introPage00000000000`, { token: admin.token }), 404);
    expectError(await api.request('POST', pathOf(cr, '/pages'), { token: outsider.token, body: { title: 'x' } }), 404);
    expectError(await api.request('PATCH', pathOf(cr, '/page/introPage00000000000'), { token: outsider.token, body: { title: 'x' } }), 404);
    expectError(await api.request('POST', pathOf(cr, '/pages'), { token: reviewer.token, body: { title: 'x' } }), 403);
    expectError(await api.request('DELETE', pathOf(cr, '/page/introPage00000000000'), { token: reader.token }), 403);
    // By number as well as by id.
    expect((await api.request('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.number}/content/page/outroPage00000000000`, { token: admin.token, body: { title: 'Outro 2' } })).status).toBe(200);
    expect((await outline(cr)).tree).toEqual([...before.tree.slice(0, 1), 'Outro 2']);
  });
});
