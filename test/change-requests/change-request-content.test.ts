import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import type { PageSpec } from '../../src/domain/content/page-tree.ts';
import { expectClientError, expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildChangeRequestContent, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;
let space: Space;
let cr: ChangeRequest;
let fileId: string;

const HOME = 'crHome0000000000000a';
const GUIDE = 'crGuide000000000000a';
const DRAFT = 'crDraft000000000000a';
const main: PageSpec[] = [
  { id: HOME, kind: 'document', title: 'Home', gitPath: 'README.md', markdown: '# Home\n\nWelcome to {{ space.vars.product }}. See [the guide](guide.md).' },
  { id: GUIDE, kind: 'document', title: 'Guide', gitPath: 'guide.md', markdown: '# Guide\n\nSteps.' },
];
const cc = (path = '') => `/v1/spaces/${space.id}/change-requests/${cr.id}/content${path}`;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const cast = await buildCast(em, ['edit', 'read', 'guest'] as const);
  ({ org, admin, outsider } = cast);
  ({ edit: editor, read: reader, guest } = cast.members);
  space = await buildSpace(em, org, admin);
  await buildContent(em, space, main, [{ name: 'logo.png', contentType: 'image/png', bytes: Buffer.from('png'), gitPath: '.gitbook/assets/logo.png' }], api.rt.blobs);
  fileId = (await api.client(admin.token).spaces.listFiles(space.id)).data.items[0]!.id;
  cr = await buildChangeRequest(api.em(), space, editor);
  // The change request edits the guide and adds a page that links to the home page and shows the file.
  await buildChangeRequestContent(api.em(), space, cr, editor, [
    main[0]!,
    { ...main[1]!, markdown: '# Guide\n\nBetter steps.' },
    { id: DRAFT, kind: 'document', title: 'Draft', gitPath: 'draft.md', markdown: '# Draft\n\nBack [home](README.md).\n\n![logo](.gitbook/assets/logo.png)' },
  ]);
});
afterAll(() => api.close());

describe('change-request content reads', () => {
  it('reads the change request’s revision, not main’s', async () => {
    const res = await api.client(reader.token).spaces.getRevisionOfChangeRequestById(space.id, cr.id);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content');
    expect(res.data.id).toBe(cr.revision);
    expect(res.data.pages.map((p) => p.title)).toEqual(['Home', 'Guide', 'Draft']);
    expect(res.data.files.map((f) => f.id)).toEqual([fileId]);
    expect((await api.request('GET', `/v1/spaces/${space.id}/content`, { token: reader.token })).body.pages).toHaveLength(2);
    // By number too, and with metadata off like the main-content read.
    const byNumber = await api.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.number}/content?metadata=false`, { token: reader.token });
    expect(byNumber.body.id).toBe(cr.revision);
    expect(byNumber.body.pages[0]).not.toHaveProperty('git');
  });

  it('lists pages and files, reads one file and one page exactly like the main-content reads', async () => {
    const pages = await api.client(reader.token).spaces.listPagesInChangeRequest(space.id, cr.id);
    expectPublishedShape(pages, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages');
    expect(pages.data.pages.map((p) => p.id)).toEqual([HOME, GUIDE, DRAFT]);
    const files = await api.client(reader.token).spaces.listFilesInChangeRequestById(space.id, cr.id);
    expectPublishedShape(files, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files');
    expect(files.data.items.map((f) => f.id)).toEqual([fileId]);
    const file = await api.client(reader.token).spaces.getFileInChangeRequestById(space.id, cr.id, fileId);
    expectPublishedShape(file, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}');
    expect(file.data).toMatchObject({ id: fileId, name: 'logo.png' });

    const page = await api.client(reader.token).spaces.getPageInChangeRequestById(space.id, cr.id, GUIDE, { format: 'markdown' } as never);
    expectPublishedShape(page, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}');
    expect(page.data).toMatchObject({ id: GUIDE, markdown: '# Guide\n\nBetter steps.' });
    // An unchanged page reads the same on main and in the change request, in every form.
    for (const q of ['format=markdown', 'format=document', 'evaluated=true', 'metadata=false']) {
      const inCr = await api.request('GET', cc(`/page/${HOME}?${q}`), { token: reader.token });
      const onMain = await api.request('GET', `/v1/spaces/${space.id}/content/page/${HOME}?${q}`, { token: reader.token });
      expect(inCr.status).toBe(200);
      expect(inCr.body).toEqual(onMain.body);
    }
    expect((await api.request('GET', cc(`/page/${HOME}?evaluated=true`), { token: reader.token })).body.markdown).toContain('Welcome to Vellum.');
  });

  it('answers 404 for pages and files not in the change request, unknown change requests, guests and outsiders; 400 for bad flags', async () => {
    expectError(await api.request('GET', `/v1/spaces/${space.id}/content/page/${DRAFT}`, { token: reader.token }), 404);
    expectError(await api.request('GET', cc('/page/noSuchPage0000000000'), { token: reader.token }), 404);
    expectError(await api.request('GET', cc('/files/noSuchFile0000000000'), { token: reader.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/change-requests/99999/content`, { token: reader.token }), 404);
    await expectClientError(api.client(guest.token).spaces.getRevisionOfChangeRequestById(space.id, cr.id), 404);
    const res = await api.request('GET', cc('/pages'), { token: outsider.token });
    expectError(res, 404);
    expect(JSON.stringify(res.body)).not.toContain('Draft');
    expectError(await api.request('GET', cc('?metadata=maybe'), { token: reader.token }), 400);
    expectError(await api.request('GET', cc('/files?limit=-1'), { token: reader.token }), 400);
  });
});

describe('change-request links and backlinks', () => {
  it('lists a page’s links, located in the change request (versionContext changeRequest)', async () => {
    const res = await api.client(reader.token).spaces.listPageLinksInChangeRequest(space.id, cr.id, DRAFT);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links');
    const targets = res.data.items.map((i) => i.targetReference as unknown as { kind: string; page?: { id: string }; file?: { id: string }; versionContext: { type: string; changeRequest: { id: string; revision: string } } });
    expect(targets.map((t) => (t.kind === 'page' ? t.page!.id : t.file!.id)).sort()).toEqual([HOME, fileId].sort());
    expect(targets[0]!.versionContext).toMatchObject({ type: 'changeRequest', changeRequest: { object: 'change-request', id: cr.id, revision: cr.revision } });
    expect(res.data.stats).toEqual({ total: 2, broken: { total: 0 } });
    expectError(await api.request('GET', `/v1/spaces/${space.id}/content/page/${DRAFT}/links`, { token: reader.token }), 404);
  });

  it('lists the pages linking to a file or a page in the change request', async () => {
    const files = await api.client(reader.token).spaces.listChangeRequestFileBacklinks(space.id, cr.id, fileId);
    expectPublishedShape(files, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks');
    expect(files.data.items.map((l) => (l as unknown as { page: { id: string } }).page.id)).toEqual([DRAFT]);
    // Main's content has no page showing the file.
    expect((await api.request('GET', `/v1/spaces/${space.id}/content/files/${fileId}/backlinks`, { token: reader.token })).body.items).toEqual([]);
    const pages = await api.request('GET', cc(`/page/${HOME}/backlinks`), { token: reader.token });
    expectPublishedShape(pages, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks');
    expect(pages.body.items.map((l: { page: { id: string } }) => l.page.id)).toEqual([DRAFT]);
    expect(pages.body.items[0].versionContext.changeRequest.id).toBe(cr.id);
    expectError(await api.request('GET', cc('/files/noSuchFile0000000000/backlinks'), { token: reader.token }), 404);
    expectError(await api.request('GET', cc(`/files/${fileId}/backlinks`), { token: guest.token }), 404);
  });
});

describe('merge revisions carry mergedFrom', () => {
  it('shows the merged change request on a merge revision, read by id and in link locations', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin);
    const base = await buildContent(em, s, [{ id: 'mfHome00000000000000', kind: 'document', title: 'Home', markdown: 'See [guide](guide.md).', gitPath: 'README.md' }, { kind: 'document', title: 'Guide', gitPath: 'guide.md' }]);
    const merged = await buildChangeRequest(em, s, editor, { subject: 'Merged work' });
    // As the merge will leave it: a main revision with both parents naming the change request.
    const revision = em.create(Revision, { space: s.id, parents: [base.id, merged.revision], type: 'merge', pages: base.pages, files: base.files, variables: base.variables, mergedFrom: merged.id });
    await em.flush();
    await em.execute('update spaces set revision = ? where id = ?', [revision.id, s.id]);
    await em.execute("update change_requests set status = 'merged', revision_merged = ? where id = ?", [revision.id, merged.id]);

    const res = await api.client(reader.token).spaces.getRevisionById(s.id, revision.id);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/revisions/{revisionId}');
    expect(res.data).toMatchObject({ type: 'merge', mergedFrom: { object: 'change-request', id: merged.id, subject: 'Merged work', status: 'merged', revisionMerged: revision.id, outdated: false } });
    const current = await api.request('GET', `/v1/spaces/${s.id}/content`, { token: reader.token });
    expect(current.body.mergedFrom.id).toBe(merged.id);
    const links = await api.request('GET', `/v1/spaces/${s.id}/links`, { token: reader.token });
    expectPublishedShape(links, 'GET', '/spaces/{spaceId}/links');
    expect(links.body.items[0].locationReferences[0].versionContext.revision).toMatchObject({ type: 'merge', mergedFrom: { id: merged.id } });
    // Other revisions have none.
    expect((await api.request('GET', `/v1/spaces/${s.id}/revisions/${base.id}`, { token: reader.token })).body).not.toHaveProperty('mergedFrom');
  });
});
