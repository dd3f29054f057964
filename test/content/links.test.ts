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
let reader: Caller;
let outsider: Caller;
let space: Space;
let fileId: string;
let revisionId: string;

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
  revisionId = revision.id;
});
afterAll(() => api.close());

/** A ContentLocation in short: what it points at. */
type Location = { kind: string; url?: string; page?: { id: string }; file?: { id: string }; internalLocation?: { anchor: string }; versionContext?: unknown };
function pointsAt(l: Location): string {
  if (l.kind === 'url') return `url:${l.url}`;
  if (l.kind === 'file') return `file:${l.file!.id}`;
  return `page:${l.page!.id}${l.internalLocation ? `#${l.internalLocation.anchor}` : ''}`;
}

describe('links', () => {
  it('lists every link of the space with its status and stats', async () => {
    const res = await api.client(reader.token).spaces.listSpaceLinks(space.id);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/links');
    const { data } = res;
    const byTarget = Object.fromEntries(data.items.map((i) => [pointsAt(i.targetReference as unknown as Location), i.status]));
    expect(byTarget).toEqual({
      'page:linkInstall00000000a': 'ok',
      'page:linkInstall00000000a#setup': 'ok',
      'url:guides/gone.md': 'broken',
      'page:linkInstall00000000a#nope': 'broken',
      [`file:${fileId}`]: 'ok',
      'url:https://example.test': 'ok',
      'url:http://vellum.test/s/x': 'in-app',
      'page:linkHome00000000000a#home': 'ok',
      'page:linkHome00000000000a': 'ok',
    });
    // Targets in the revision are full locations, like the pages links are found in.
    const install = data.items.find((i) => pointsAt(i.targetReference as unknown as Location) === 'page:linkInstall00000000a')!;
    expect(install.targetReference).toMatchObject({ kind: 'page', page: { title: 'Install' }, space: { id: space.id }, versionContext: { type: 'revision', revision: { id: revisionId } } });
    expect(data.stats).toEqual({ total: 9, broken: { total: 2 } });
    const broken = await api.client(reader.token).spaces.listSpaceLinks(space.id, { status: 'broken' } as never);
    expect(broken.data.items).toHaveLength(2);
    expect(broken.data.items[0]!.locationReferences[0]).toMatchObject({ kind: 'page', page: { id: 'linkHome00000000000a', title: 'Home' }, space: { id: space.id }, organization: { id: org.id } });
    // The revision is a Revision object, as GitBook clients read it (`versionContext.revision.id`).
    expect((broken.data.items[0]!.locationReferences[0] as Location).versionContext).toMatchObject({ type: 'revision', revision: { object: 'revision', id: revisionId, type: 'edits' } });
    const paged = await api.client(reader.token).spaces.listSpaceLinks(space.id, { limit: 4 });
    const rest = await api.client(reader.token).spaces.listSpaceLinks(space.id, { limit: 10, page: paged.data.next!.page });
    expect(paged.data.items.length + rest.data.items.length).toBe(9);
  });

  it('lists one page’s links, and backlinks of pages and files', async () => {
    const links = await api.client(reader.token).spaces.listPageLinksInSpace(space.id, 'linkInstall00000000a');
    expectPublishedShape(links, 'GET', '/spaces/{spaceId}/content/page/{pageId}/links');
    expect(links.data.items.map((i) => pointsAt(i.targetReference as unknown as Location))).toEqual(['page:linkHome00000000000a']);
    const backlinks = await api.client(reader.token).spaces.listSpacePageBacklinks(space.id, 'linkInstall00000000a');
    expectPublishedShape(backlinks, 'GET', '/spaces/{spaceId}/content/page/{pageId}/backlinks');
    expect(backlinks.data.items.map((i) => pointsAt(i as unknown as Location))).toEqual(['page:linkHome00000000000a']);
    expect((backlinks.data.items[0] as unknown as Location).versionContext).toMatchObject({ type: 'revision', revision: { object: 'revision', id: revisionId } });
    expect((await api.client(reader.token).spaces.listSpacePageBacklinks(space.id, 'linkLonely000000000a')).data.items).toEqual([]);
    const fileBacklinks = await api.client(reader.token).spaces.listSpaceFileBacklinks(space.id, fileId);
    expectPublishedShape(fileBacklinks, 'GET', '/spaces/{spaceId}/content/files/{fileId}/backlinks');
    expect(fileBacklinks.data.items.map((i) => pointsAt(i as unknown as Location))).toEqual(['page:linkHome00000000000a']);
    expect((fileBacklinks.data.items[0] as unknown as Location).versionContext).toMatchObject({ type: 'revision', revision: { id: revisionId } });
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
