import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { storePageTree, type PageSpec } from '../../src/domain/content/page-tree.ts';
import { expectClientError, expectError } from '../support/assertions.ts';
import { buildCast, buildContent, buildMember, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let reader: Caller;
let outsider: Caller;
let space: Space;
const pages: PageSpec[] = [
  { id: 'pageIntro00000000000', kind: 'document', title: 'Introduction', markdown: '# Welcome\n\nHello **world**, this is {{ space.vars.product }}.\n\n## Setup\n\nRun it.\n' },
  {
    kind: 'group',
    title: 'Guides',
    children: [
      { id: 'pageInstall000000000', kind: 'document', title: 'Install', description: 'How to install', markdown: '# Install\n\n- one\n- two\n', children: [{ kind: 'document', title: 'On Linux', markdown: 'apt install' }] },
    ],
  },
  { kind: 'link', title: 'Website', linkTarget: { kind: 'url', url: 'https://example.test' } },
];

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { read: reader } } = await buildCast(em, ['read'] as const));
  space = await buildSpace(em, org, admin);
  await buildContent(em, space, pages, [{ name: 'logo.png', contentType: 'image/png', bytes: Buffer.from('not really a png') }], api.rt.blobs);
});
afterAll(() => api.close());

const c = (suffix: string) => `/v1/spaces/${space.id}${suffix}`;

describe('current content', () => {
  it('returns the revision with its page tree and files', async () => {
    const res = await api.client(reader.token).spaces.getCurrentRevision(space.id);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/content');
    const { data } = res;
    expect(data).toMatchObject({ object: 'revision', type: 'edits', variables: { product: 'Vellum' }, reusableContents: [] });
    expect(data.parents).toHaveLength(1);
    expect(data.pages.map((p) => [p.title, p.type])).toEqual([
      ['Introduction', 'document'],
      ['Guides', 'group'],
      ['Website', 'link'],
    ]);
    const guides = data.pages[1] as { pages: Array<{ title: string; path: string; pages: Array<{ path: string }> }> };
    expect(guides.pages[0]).toMatchObject({ title: 'Install', path: 'install' });
    expect(guides.pages[0]!.pages[0]!.path).toBe('install/on-linux');
    expect(data.files.map((f) => f.name)).toEqual(['logo.png']);
  });

  it('lists pages, and reads one page as Markdown, as a document, and evaluated', async () => {
    const list = await api.client(reader.token).spaces.listPages(space.id);
    expectPublishedShape(list, 'GET', '/spaces/{spaceId}/content/pages');
    expect(list.data.pages).toHaveLength(3);
    const md = await api.request('GET', c('/content/page/pageIntro00000000000?format=markdown'), { token: reader.token });
    expectPublishedShape(md, 'GET', '/spaces/{spaceId}/content/page/{pageId}');
    expect(md.body).toMatchObject({ id: 'pageIntro00000000000', kind: 'sheet', type: 'document', path: 'introduction', layout: { width: 'default' } });
    expect(md.body.markdown).toContain('{{ space.vars.product }}');
    const evaluated = await api.request('GET', c('/content/page/pageIntro00000000000?evaluated=deterministic-only'), { token: reader.token });
    expect(evaluated.body.markdown).toContain('this is Vellum.');
    const doc = await api.client(reader.token).spaces.getPageById(space.id, 'pageIntro00000000000', { format: 'document' } as never);
    expectPublishedShape(doc, 'GET', '/spaces/{spaceId}/content/page/{pageId}');
    for (const pageId of ['pageInstall000000000', list.data.pages[1]!.id, list.data.pages[2]!.id]) {
      expectPublishedShape(await api.request('GET', c(`/content/page/${pageId}`), { token: reader.token }), 'GET', '/spaces/{spaceId}/content/page/{pageId}');
    }
    const nodes = (doc.data as { document: { nodes: Array<{ type: string }> } }).document.nodes;
    expect(nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph', 'heading-2', 'paragraph']);
  });

  it('pages through files and serves them through a signed, expiring link', async () => {
    const list = await api.client(reader.token).spaces.listFiles(space.id);
    expectPublishedShape(list, 'GET', '/spaces/{spaceId}/content/files');
    expect(list.data.count).toBe(1);
    const file = list.data.items[0]!;
    expect(file).toMatchObject({ name: 'logo.png', contentType: 'image/png', size: 16 });
    const one = await api.client(reader.token).spaces.getFileById(space.id, file.id);
    expectPublishedShape(one, 'GET', '/spaces/{spaceId}/content/files/{fileId}');
    expect(one.data.id).toBe(file.id);
    const revisionId = (await api.request('GET', c('/content'), { token: reader.token })).body.id;
    const inRevision = await api.request('GET', c(`/revisions/${revisionId}/files/${file.id}`), { token: reader.token });
    expectPublishedShape(inRevision, 'GET', '/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}');
    expect(inRevision.body.id).toBe(file.id);
    const url = new URL(file.downloadURL);
    expect(url.origin).toBe('http://vellum.test');
    const path = `${url.pathname}${url.search}`;
    const ok = await fetch(`${api.baseUrl}${path}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(await ok.text()).toBe('not really a png');
    expectError(await api.request('GET', path.replace('name=logo.png', 'name=evil.html')), 404);
    expectError(await api.request('GET', path.replace(/expires=\d+/, 'expires=1')), 404);
    expectError(await api.request('GET', path.replace(/signature=[^&]+/, 'signature=x')), 404);
  });

  it('serves active content (HTML, SVG, XML, unknown types) as an attachment, everything with nosniff and a sandboxing CSP', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin);
    const files = [
      { name: 'page.html', contentType: 'text/html; charset=utf-8', bytes: Buffer.from('<script>alert(1)</script>') },
      { name: 'logo.svg', contentType: 'image/svg+xml', bytes: Buffer.from('<svg onload="alert(1)"/>') },
      { name: 'feed.xml', contentType: 'application/xml', bytes: Buffer.from('<x/>') },
      { name: 'thing.bin', contentType: 'application/x-whatever', bytes: Buffer.from('?') },
      { name: 'photo.png', contentType: 'image/png', bytes: Buffer.from('png') },
    ];
    await buildContent(em, s, [], files, api.rt.blobs);
    const list = await api.client(reader.token).spaces.listFiles(s.id);
    const served = new Map<string, Headers>();
    for (const f of list.data.items) {
      const url = new URL(f.downloadURL);
      const res = await fetch(`${api.baseUrl}${url.pathname}${url.search}`);
      expect(res.status).toBe(200);
      served.set(f.name, res.headers);
    }
    expect(served.size).toBe(5);
    for (const [name, headers] of served) {
      expect(headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(headers.get('content-security-policy'), name).toMatch(/default-src 'none'.*sandbox/);
      expect(headers.get('content-disposition'), name).toMatch(name === 'photo.png' ? /^inline;/ : /^attachment;/);
    }
  });

  it('answers 400, 404, other organization', async () => {
    expectError(await api.request('GET', c('/content/page/nope'), { token: reader.token }), 404);
    expectError(await api.request('GET', c('/content/files/nope'), { token: reader.token }), 404);
    expectError(await api.request('GET', c('/content/page/pageIntro00000000000?format=html'), { token: reader.token }), 400, /format/);
    expectError(await api.request('GET', c('/content/page/pageIntro00000000000?evaluated=maybe'), { token: reader.token }), 400, /evaluated/);
    expectError(await api.request('GET', c('/content/files?page=zzz'), { token: reader.token }), 400, /page/);
    expectError(await api.request('GET', c('/content'), { token: outsider.token }), 404);
    expectError(await api.request('GET', '/v1/spaces/unknown/content/pages', { token: reader.token }), 404);
    const guest = await buildMember(api.em(), org, null);
    await expectClientError(api.client(guest.token).spaces.listPages(space.id), 404);
  });
});

describe('revisions', () => {
  it('keeps earlier revisions readable by id, with stable page ids', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin);
    const first = await buildContent(em, s, [{ id: 'stablePage000000000a', kind: 'document', title: 'One', markdown: 'v1' }]);
    const second = await buildContent(em, s, [{ id: 'stablePage000000000a', kind: 'document', title: 'One', markdown: 'v2' }]);
    expect(second.parents).toEqual([first.id]);
    const old = await api.request('GET', `/v1/spaces/${s.id}/revisions/${first.id}/page/stablePage000000000a`, { token: reader.token });
    expectPublishedShape(old, 'GET', '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}');
    expect(old.body.markdown).toBe('v1');
    const now = await api.client(reader.token).spaces.getPageById(s.id, 'stablePage000000000a');
    expect((now.data as { markdown: string }).markdown).toBe('v2');
    const rev = await api.client(reader.token).spaces.getRevisionById(s.id, first.id);
    expectPublishedShape(rev, 'GET', '/spaces/{spaceId}/revisions/{revisionId}');
    expect(rev.data.id).toBe(first.id);
    const revPages = await api.client(reader.token).spaces.listPagesInRevisionById(s.id, first.id);
    expectPublishedShape(revPages, 'GET', '/spaces/{spaceId}/revisions/{revisionId}/pages');
    expect(revPages.data.pages).toHaveLength(1);
    const revFiles = await api.request('GET', `/v1/spaces/${s.id}/revisions/${first.id}/files`, { token: reader.token });
    expectPublishedShape(revFiles, 'GET', '/spaces/{spaceId}/revisions/{revisionId}/files');
    expect(revFiles.body.items).toEqual([]);
    expectError(await api.request('GET', `/v1/spaces/${s.id}/revisions/${first.id}/files/nope`, { token: reader.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${s.id}/revisions/unknown`, { token: reader.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/revisions/${first.id}`, { token: reader.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${s.id}/revisions/${first.id}`, { token: outsider.token }), 404);
  });

  it('writes only the changed page and its ancestors when one page of a large tree changes', async () => {
    const em = api.em();
    const tree = (changed: string): PageSpec[] => [
      {
        id: 'bigGroupParent000000',
        kind: 'document',
        title: 'Parent',
        markdown: 'parent',
        children: Array.from({ length: 500 }, (_, i) => ({ id: `bigChild${String(i).padStart(12, '0')}`, kind: 'document' as const, title: `Child ${i}`, markdown: i === 7 ? changed : `body ${i}` })),
      },
    ];
    await storePageTree(em, tree('original'));
    const { written } = await storePageTree(em, tree('changed'));
    // The changed page's body and node, and its parent's node.
    expect(written).toBe(3);
  });
});

describe('duplicated content', () => {
  it('shows the original’s pages and files in the copy, sharing them', async () => {
    const copy = await api.request('POST', `/v1/spaces/${space.id}/duplicate`, { token: admin.token });
    const original = await api.client(reader.token).spaces.getCurrentRevision(space.id);
    const duplicated = await api.client(reader.token).spaces.getCurrentRevision(copy.body.id);
    expect(duplicated.data.parents).toEqual([original.data.id]);
    expect(duplicated.data.pages.map((p) => [p.id, p.title])).toEqual(original.data.pages.map((p) => [p.id, p.title]));
    expect(duplicated.data.files.map((f) => f.id)).toEqual(original.data.files.map((f) => f.id));
    const page = await api.client(reader.token).spaces.getPageById(copy.body.id, 'pageIntro00000000000');
    expect((page.data as { markdown: string }).markdown).toContain('Hello **world**');
  });
});
