import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let reader: Caller;
let outsider: Caller;
let space: Space;
let fileId: string;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { read: reader } } = await buildCast(em, ['read'] as const));
  space = await buildSpace(em, org, admin);
  const revision = await buildContent(
    em,
    space,
    [
      {
        id: 'linkHome00000000000a',
        kind: 'document',
        title: 'Home',
        gitPath: 'README.md',
        markdown:
          '# Home\n\nSee [install](guides/install.md), [its setup](guides/install.md#setup), [a gone page](guides/gone.md), [missing anchor](guides/install.md#nope).\n\n![logo](.gitbook/assets/logo.png)\n\n[site](https://example.test) [app](http://vellum.test/s/x) [top](#home)',
      },
      { id: 'linkInstall00000000a', kind: 'document', title: 'Install', gitPath: 'guides/install.md', markdown: '# Install\n\n## Setup\n\nBack [home](../README.md).' },
      { id: 'linkLonely000000000a', kind: 'document', title: 'Lonely', markdown: 'No links.' },
    ],
    [{ name: 'logo.png', contentType: 'image/png', bytes: Buffer.from('png'), gitPath: '.gitbook/assets/logo.png' }],
    api.rt.blobs,
  );
  fileId = (await api.client(admin.token).spaces.listFiles(space.id)).data.items[0]!.id;
  expect(revision.files).toHaveLength(1);
});
afterAll(() => api.close());

describe('links', () => {
  it('lists every link of the space with its status and stats', async () => {
    const { data } = await api.client(reader.token).spaces.listSpaceLinks(space.id);
    const byTarget = Object.fromEntries(data.items.map((i) => [JSON.stringify(i.targetReference), i.status]));
    expect(byTarget).toEqual({
      [JSON.stringify({ kind: 'page', page: 'linkInstall00000000a' })]: 'ok',
      [JSON.stringify({ kind: 'anchor', page: 'linkInstall00000000a', anchor: 'setup' })]: 'ok',
      [JSON.stringify({ kind: 'url', url: 'guides/gone.md' })]: 'broken',
      [JSON.stringify({ kind: 'anchor', page: 'linkInstall00000000a', anchor: 'nope' })]: 'broken',
      [JSON.stringify({ kind: 'file', file: fileId })]: 'ok',
      [JSON.stringify({ kind: 'url', url: 'https://example.test' })]: 'ok',
      [JSON.stringify({ kind: 'url', url: 'http://vellum.test/s/x' })]: 'in-app',
      [JSON.stringify({ kind: 'anchor', page: 'linkHome00000000000a', anchor: 'home' })]: 'ok',
      [JSON.stringify({ kind: 'page', page: 'linkHome00000000000a' })]: 'ok',
    });
    expect(data.stats).toEqual({ total: 9, broken: { total: 2 } });
    const broken = await api.client(reader.token).spaces.listSpaceLinks(space.id, { status: 'broken' } as never);
    expect(broken.data.items).toHaveLength(2);
    expect(broken.data.items[0]!.locationReferences[0]).toMatchObject({ kind: 'page', page: { id: 'linkHome00000000000a', title: 'Home' }, space: { id: space.id }, organization: { id: org.id } });
    const paged = await api.client(reader.token).spaces.listSpaceLinks(space.id, { limit: 4 });
    const rest = await api.client(reader.token).spaces.listSpaceLinks(space.id, { limit: 10, page: paged.data.next!.page });
    expect(paged.data.items.length + rest.data.items.length).toBe(9);
  });

  it('lists one page’s links, and backlinks of pages and files', async () => {
    const links = await api.client(reader.token).spaces.listPageLinksInSpace(space.id, 'linkInstall00000000a');
    expect(links.data.items.map((i) => i.targetReference)).toEqual([{ kind: 'page', page: 'linkHome00000000000a' }]);
    const backlinks = await api.client(reader.token).spaces.listSpacePageBacklinks(space.id, 'linkInstall00000000a');
    expect(backlinks.data.items.map((i) => (i as unknown as { page: { id: string } }).page.id)).toEqual(['linkHome00000000000a']);
    expect((await api.client(reader.token).spaces.listSpacePageBacklinks(space.id, 'linkLonely000000000a')).data.items).toEqual([]);
    const fileBacklinks = await api.client(reader.token).spaces.listSpaceFileBacklinks(space.id, fileId);
    expect(fileBacklinks.data.items.map((i) => (i as unknown as { page: { id: string } }).page.id)).toEqual(['linkHome00000000000a']);
  });

  it('answers 400, 404 and other organization', async () => {
    expectError(await api.request('GET', `/v1/spaces/${space.id}/links?status=weird`, { token: reader.token }), 400, /status/);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/content/page/nope/links`, { token: reader.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/content/page/nope/backlinks`, { token: reader.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/content/files/nope/backlinks`, { token: reader.token }), 404);
    expectError(await api.request('GET', '/v1/spaces/unknown/links', { token: reader.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/links`, { token: outsider.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/content/page/linkHome00000000000a/backlinks`, { token: outsider.token }), 404);
  });
});
