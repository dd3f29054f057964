import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSpec } from '../../src/domain/content/page-tree.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { expectError } from '../support/assertions.ts';
import {
  addPage,
  allPages,
  changeRequestNow,
  commitOnMain,
  commitOnRequest,
  editLine,
  editPage,
  findPage,
  mainPages,
  mainRevision,
  movePage,
  pagesOf,
  removePage,
} from '../support/change-request-content.ts';
import { buildCast, buildChangeRequest, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let reviewer: Caller;

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), ['edit', 'review'] as const);
  org = cast.org;
  admin = cast.admin;
  editor = cast.members.edit;
  reviewer = cast.members.review;
});
afterAll(() => api.close());

const body = (tag: string) => [`# ${tag}`, ...Array.from({ length: 10 }, (_, i) => `${tag} line ${i}`)].join('\n');
const ids = { guide: '', child: '', ref: '', faq: '' };

/** A space of four pages (guide ─ child; ref; faq) and an open change request on it. */
async function scenario() {
  const em = api.em();
  const space = await buildSpace(em, org, admin);
  Object.assign(ids, { guide: newId(), child: newId(), ref: newId(), faq: newId() });
  const pages: PageSpec[] = [
    { id: ids.guide, kind: 'document', title: 'Guide', markdown: body('guide'), children: [{ id: ids.child, kind: 'document', title: 'Child', markdown: body('child') }] },
    { id: ids.ref, kind: 'document', title: 'Reference', markdown: body('ref') },
    { id: ids.faq, kind: 'document', title: 'FAQ', markdown: body('faq') },
  ];
  await buildContent(em, space, pages);
  const cr = await buildChangeRequest(em, space, editor);
  return { space, cr, em };
}

const path = (space: Space, cr: { id: string }, op: string) => `/v1/spaces/${space.id}/change-requests/${cr.id}/${op}`;
const post = (space: Space, cr: { id: string }, op: 'merge' | 'update', caller: Caller = editor) => api.request('POST', path(space, cr, op), { token: caller.token });
const bodyOf = (pages: PageSpec[], id: string) => findPage(pages, id)!.markdown!;

describe('POST …/merge: a three-way merge into main', () => {
  it('keeps edits to different lines of one page from both sides, page ids, and records the merge', async () => {
    const { space, cr, em } = await scenario();
    const crHead = await commitOnRequest(em, space, cr, editLine(ids.guide, 2, 'change request says so'));
    const mainHead = await commitOnMain(em, space, editLine(ids.guide, 8, 'main says so'));
    const res = await post(space, cr, 'merge');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/merge');
    expect(res.body).toEqual({ revision: expect.any(String), result: 'merge', conflicts: [] });
    const merged = await api.em().findOneOrFail(Revision, { id: res.body.revision });
    expect(merged).toMatchObject({ type: 'merge', parents: [mainHead.id, crHead.id], mergedFrom: cr.id, changeRequest: null });
    expect(await mainRevision(api.em(), space)).toBe(merged.id);
    const text = bodyOf(await mainPages(api.em(), space), ids.guide).split('\n');
    expect(text[2]).toBe('change request says so');
    expect(text[8]).toBe('main says so');
    expect(allPages(await mainPages(api.em(), space)).map((p) => p.id).sort()).toEqual(Object.values(ids).sort());
    const after = await changeRequestNow(api.em(), cr.id);
    expect(after).toMatchObject({ status: 'merged', revisionMerged: merged.id, mergedAt: expect.any(Date) });
    expect(after.mergedBy?.id).toBe(editor.user.id);
    // Like every main commit: the space's search index is brought up to date.
    const jobs = await api.em().execute(`select id from job_outbox where name = 'search.index-space' and payload->>'spaceId' = ?`, [space.id]);
    expect(jobs.length).toBeGreaterThan(0);
  });

  it('merges a page added on main with a page edited, moved and retitled in the change request', async () => {
    const { space, cr, em } = await scenario();
    const added = newId();
    await commitOnRequest(em, space, cr, (p) => movePage(ids.faq, ids.guide)(editPage(ids.ref, (r) => ({ ...r, title: 'API reference' }))(editLine(ids.child, 1, 'cr edit')(p))));
    await commitOnMain(em, space, (p) => addPage({ id: added, kind: 'document', title: 'News', markdown: 'fresh' })(editPage(ids.faq, (f) => ({ ...f, title: 'Questions' }))(p)));
    const res = await post(space, cr, 'merge');
    expect(res.body.result).toBe('merge');
    const pages = await mainPages(api.em(), space);
    expect(findPage(pages, added)?.markdown).toBe('fresh');
    expect(findPage(pages, ids.ref)?.title).toBe('API reference');
    expect(bodyOf(pages, ids.child).split('\n')[1]).toBe('cr edit');
    // Moved under the guide by the change request, retitled on main: both hold.
    const guide = findPage(pages, ids.guide)!;
    expect(guide.children!.map((c) => [c.id, c.title])).toEqual([[ids.child, 'Child'], [ids.faq, 'Questions']]);
    expect(pages.map((p) => p.id)).toEqual([ids.guide, ids.ref, added]);
  });

  it('answers conflicts naming the page when both sides change the same line, and changes nothing', async () => {
    const { space, cr, em } = await scenario();
    const crHead = await commitOnRequest(em, space, cr, editLine(ids.ref, 4, 'ours'));
    const mainHead = await commitOnMain(em, space, editLine(ids.ref, 4, 'theirs'));
    const res = await post(space, cr, 'merge');
    expect(res.status).toBe(200);
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/merge');
    expect(res.body).toEqual({ revision: crHead.id, result: 'conflicts', conflicts: [{ pageId: ids.ref, kind: 'content', details: expect.any(String) }] });
    expect(await mainRevision(api.em(), space)).toBe(mainHead.id);
    expect(await changeRequestNow(api.em(), cr.id)).toMatchObject({ status: 'open', revision: crHead.id, revisionMerged: null });
  });

  it('reports a page removed on one side and edited on the other as a conflict', async () => {
    const { space, cr, em } = await scenario();
    await commitOnRequest(em, space, cr, editLine(ids.faq, 3, 'edited'));
    await commitOnMain(em, space, removePage(ids.faq));
    const res = await post(space, cr, 'merge');
    expect(res.body.conflicts).toEqual([{ pageId: ids.faq, kind: 'delete-edit', details: expect.any(String) }]);
  });

  it('refuses to merge a merged or an archived change request (409)', async () => {
    const { space, cr, em } = await scenario();
    expect((await post(space, cr, 'merge')).body.result).toBe('merge');
    const main = await mainRevision(api.em(), space);
    expectError(await post(space, cr, 'merge'), 409, /merged/);
    expectError(await post(space, cr, 'update'), 409, /merged/);
    expectError(await api.request('GET', path(space, cr, 'mergeability'), { token: editor.token }), 409, /merged/);
    expect(await mainRevision(api.em(), space)).toBe(main);
    const archived = await buildChangeRequest(em, space, editor);
    await em.execute(`update change_requests set status = 'archived' where id = ?`, [archived.id]);
    expectError(await post(space, archived, 'merge'), 409, /archived/);
    expect(await mainRevision(api.em(), space)).toBe(main);
  });

  it('merges a draft, by number as well as by id', async () => {
    const { space, em } = await scenario();
    const draft = await buildChangeRequest(em, space, editor, { status: 'draft' });
    await commitOnRequest(em, space, draft, editLine(ids.faq, 1, 'draft edit'));
    const res = await api.request('POST', `/v1/spaces/${space.id}/change-requests/${draft.number}/merge`, { token: admin.token });
    expect(res.body.result).toBe('merge');
    expect(bodyOf(await mainPages(api.em(), space), ids.faq).split('\n')[1]).toBe('draft edit');
  });

  it('takes the change request as it is when main did not move (not outdated)', async () => {
    const { space, cr, em } = await scenario();
    await commitOnRequest(em, space, cr, (p) => removePage(ids.ref)(addPage({ kind: 'document', title: 'Added in CR', markdown: 'x' })(p)));
    const crPages = await pagesOf(api.em(), (await changeRequestNow(api.em(), cr.id)).revision);
    expect((await post(space, cr, 'merge')).body.result).toBe('merge');
    expect(await mainPages(api.em(), space)).toEqual(crPages);
  });

  it('needs the merge permission: a reviewer gets 403 and nothing changes', async () => {
    const { space, cr } = await scenario();
    const main = await mainRevision(api.em(), space);
    expectError(await post(space, cr, 'merge', reviewer), 403);
    expect(await mainRevision(api.em(), space)).toBe(main);
  });
});

describe('POST …/update: main into the change request', () => {
  it('merges main’s new page and edits into the change request as an update with both parents', async () => {
    const { space, cr, em } = await scenario();
    const crHead = await commitOnRequest(em, space, cr, editLine(ids.guide, 2, 'cr line'));
    const added = newId();
    const mainHead = await commitOnMain(em, space, (p) => addPage({ id: added, kind: 'document', title: 'From main', markdown: 'm' })(editLine(ids.guide, 9, 'main line')(p)));
    const res = await post(space, cr, 'update');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/update');
    expect(res.body).toEqual({ revision: expect.any(String), result: 'update', conflicts: [] });
    const updated = await api.em().findOneOrFail(Revision, { id: res.body.revision });
    expect(updated).toMatchObject({ type: 'update', parents: [crHead.id, mainHead.id], changeRequest: cr.id });
    const after = await changeRequestNow(api.em(), cr.id);
    expect(after).toMatchObject({ revision: updated.id, revisionMergedAncestor: mainHead.id, status: 'open' });
    const pages = await pagesOf(api.em(), updated.id);
    expect(findPage(pages, added)?.title).toBe('From main');
    expect(bodyOf(pages, ids.guide).split('\n').filter((l) => l.endsWith(' line'))).toEqual(['cr line', 'main line']);
    // Main did not move.
    expect(await mainRevision(api.em(), space)).toBe(mainHead.id);
    // Now up to date: a second update answers the same revision and commits nothing.
    const again = await post(space, cr, 'update');
    expect(again.body).toEqual({ revision: updated.id, result: 'update', conflicts: [] });
    expect((await changeRequestNow(api.em(), cr.id)).revision).toBe(updated.id);
    // The later merge is against the new base: main's line is not seen as a change of the request.
    expect((await post(space, cr, 'merge')).body.result).toBe('merge');
    expect(bodyOf(await mainPages(api.em(), space), ids.guide).split('\n').filter((l) => l.endsWith(' line'))).toEqual(['cr line', 'main line']);
  });

  it('answers conflicts and changes nothing when both sides changed the same line', async () => {
    const { space, cr, em } = await scenario();
    const crHead = await commitOnRequest(em, space, cr, (p) => editPage(ids.child, (c) => ({ ...c, title: 'Ours' }))(editLine(ids.guide, 5, 'ours')(p)));
    await commitOnMain(em, space, (p) => editPage(ids.child, (c) => ({ ...c, title: 'Theirs' }))(editLine(ids.guide, 5, 'theirs')(p)));
    const res = await post(space, cr, 'update');
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/update');
    expect(res.body.result).toBe('conflicts');
    expect(res.body.revision).toBe(crHead.id);
    expect(res.body.conflicts.map((c: { pageId: string; kind: string }) => `${c.pageId === ids.guide ? 'guide' : 'child'}:${c.kind}`).sort()).toEqual(['child:title', 'guide:content']);
    expect(await changeRequestNow(api.em(), cr.id)).toMatchObject({ revision: crHead.id, revisionMergedAncestor: cr.revisionMergedAncestor });
  });

  it('answers an up-to-date change request with its revision and changes nothing', async () => {
    const { space, cr } = await scenario();
    const res = await post(space, cr, 'update');
    expect(res.body).toEqual({ revision: cr.revision, result: 'update', conflicts: [] });
    expect((await changeRequestNow(api.em(), cr.id)).revision).toBe(cr.revision);
  });

  it('needs the edit permission: a reviewer gets 403', async () => {
    const { space, cr, em } = await scenario();
    await commitOnMain(em, space, editLine(ids.faq, 1, 'x'));
    expectError(await post(space, cr, 'update', reviewer), 403);
    expect((await changeRequestNow(api.em(), cr.id)).revision).toBe(cr.revision);
  });
});

describe('GET …/mergeability: a dry run', () => {
  it('says outdated and names the conflicts, changing nothing', async () => {
    const { space, cr, em } = await scenario();
    const dry = () => api.request('GET', path(space, cr, 'mergeability'), { token: reviewer.token });
    expect((await dry()).body).toEqual({ mergeable: true, outdated: false, conflicts: [], unmetRules: [], bypass: false });
    const crHead = await commitOnRequest(em, space, cr, editLine(ids.ref, 1, 'ours'));
    await commitOnMain(em, space, editLine(ids.ref, 9, 'theirs'));
    expect((await dry()).body).toMatchObject({ mergeable: true, outdated: true, conflicts: [] });
    const main = await commitOnMain(em, space, editLine(ids.ref, 1, 'clash'));
    expect((await dry()).body).toEqual({ mergeable: false, outdated: true, conflicts: [{ pageId: ids.ref, kind: 'content', details: expect.any(String) }], unmetRules: [], bypass: false });
    expect(await mainRevision(api.em(), space)).toBe(main.id);
    expect((await changeRequestNow(api.em(), cr.id)).revision).toBe(crHead.id);
  });
});
