import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import { IssueCluster } from '../../src/domain/entities/issue-cluster.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { RequestedReviewer } from '../../src/domain/entities/requested-reviewer.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
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

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), ['edit', 'read', 'guest'] as const);
  ({ org, admin, outsider } = cast);
  ({ edit: editor, read: reader, guest } = cast.members);
});
afterAll(() => api.close());

const spaceList = (s: Space, query = '', token = reader.token) => api.request('GET', `/v1/spaces/${s.id}/change-requests${query}`, { token });
const orgList = (query = '', token = reader.token) => api.request('GET', `/v1/orgs/${org.id}/change-requests${query}`, { token });
const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((i) => i.id);

/** Every page of a list, following `next.page`. */
async function allPages(get: (query: string) => Promise<{ status: number; body: { items: Array<{ id: string }>; count: number; next?: { page: string } } }>, limit: number) {
  const seen: string[] = [];
  let query = `limit=${limit}`;
  for (;;) {
    const res = await get(query);
    expect(res.status).toBe(200);
    seen.push(...res.body.items.map((i) => i.id));
    if (!res.body.next) return { seen, count: res.body.count };
    query = `limit=${limit}&page=${encodeURIComponent(res.body.next.page)}`;
  }
}

describe('listChangeRequestsForSpace', () => {
  let space: Space;
  let opened: ChangeRequest[];
  let draft: ChangeRequest;
  let cluster: IssueCluster;

  beforeAll(async () => {
    const em = api.em();
    space = await buildSpace(em, org, admin);
    await buildContent(em, space, [{ kind: 'document', title: 'Home' }]);
    cluster = em.create(IssueCluster, { organization: org, label: 'Search', summary: 'Search is slow', icon: 'search' });
    await em.flush();
    opened = [];
    for (let i = 0; i < 5; i++) opened.push(await buildChangeRequest(api.em(), space, i < 3 ? editor : admin));
    draft = await buildChangeRequest(api.em(), space, editor, { status: 'draft', cluster });
    await buildChangeRequestContent(api.em(), space, opened[1]!, reader, [{ kind: 'document', title: 'By the reader' }]);
    const em2 = api.em();
    em2.create(RequestedReviewer, { changeRequest: opened[4]!.id, user: reader.user.id, requestedBy: admin.user.id, revision: opened[4]!.revision });
    await em2.flush();
  });

  it('lists open change requests by default, most recently updated first', async () => {
    const res = await api.client(reader.token).spaces.listChangeRequestsForSpace(space.id);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/change-requests');
    expect(res.data.count).toBe(5);
    // opened[1] got content last: it is the most recently updated.
    expect(res.data.items.map((i) => i.id)).toEqual([opened[1]!.id, opened[4]!.id, opened[3]!.id, opened[2]!.id, opened[0]!.id]);
  });

  it('filters by status, creator, contributor, requested reviewer and issue cluster', async () => {
    expect(ids(await spaceList(space, '?status=draft'))).toEqual([draft.id]);
    expect(ids(await spaceList(space, '?status=merged'))).toEqual([]);
    expect(ids(await spaceList(space, `?creator=${admin.user.id}`))).toEqual([opened[4]!.id, opened[3]!.id]);
    expect(ids(await spaceList(space, `?contributor=${reader.user.id}`))).toEqual([opened[1]!.id]);
    expect(ids(await spaceList(space, `?requestedReviewer=${reader.user.id}`))).toEqual([opened[4]!.id]);
    expect(ids(await spaceList(space, `?conversationsIssuesCluster=${cluster.id}&status=draft`))).toEqual([draft.id]);
    expect(ids(await spaceList(space, `?conversationsIssuesCluster=${cluster.id}`))).toEqual([]);
    expect(ids(await spaceList(space, `?creator=${admin.user.id}&requestedReviewer=${reader.user.id}&contributor=${reader.user.id}`))).toEqual([]);
    const client = await api.client(reader.token).spaces.listChangeRequestsForSpace(space.id, { creator: editor.user.id, status: 'open' as never });
    expect(client.data.items.map((i) => i.id)).toEqual([opened[1]!.id, opened[2]!.id, opened[0]!.id]);
  });

  it('pages with keyset tokens: every change request once, stable counts', async () => {
    const { seen, count } = await allPages((q) => spaceList(space, `?${q}`), 2);
    expect(count).toBe(5);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });

  it('pages change requests stamped within one millisecond by SQL without skipping any', async () => {
    const s = await buildSpace(api.em(), org, admin);
    const crs = await Promise.all(Array.from({ length: 6 }, () => buildChangeRequest(api.em(), s, editor)));
    // Microseconds apart, as `now()` in different transactions would stamp them.
    for (const [i, cr] of crs.entries()) {
      await api.em().execute(`update change_requests set updated_at = '2026-11-20T10:00:00.1234${i}Z' where id = ?`, [cr.id]);
    }
    const { seen } = await allPages((q) => spaceList(s, `?${q}`), 1);
    expect(seen.sort()).toEqual(crs.map((c) => c.id).sort());
  });

  it('refuses bad filters and foreign page tokens (400)', async () => {
    expectError(await spaceList(space, '?status=closed'), 400);
    expectError(await spaceList(space, '?limit=-1'), 400);
    expectError(await spaceList(space, '?page=garbage'), 400);
    const orgPage = (await orgList('?limit=1')).body.next?.page as string;
    expect(orgPage).toBeDefined();
    expectError(await spaceList(space, `?page=${encodeURIComponent(orgPage)}`), 400);
  });

  it('answers 404 to guests, outsiders and unknown spaces', async () => {
    await expectClientError(api.client(guest.token).spaces.listChangeRequestsForSpace(space.id), 404);
    await expectClientError(api.client(outsider.token).spaces.listChangeRequestsForSpace(space.id), 404);
    expectError(await spaceList({ id: 'noSuchSpace000000000' } as Space), 404);
  });
});

describe('listChangeRequestsForOrganization', () => {
  let shared: Space;
  let hidden: Space;
  let binned: Space;
  let visible: ChangeRequest[];
  let secret: ChangeRequest;

  beforeAll(async () => {
    const em = api.em();
    shared = await buildSpace(em, org, admin);
    hidden = await buildSpace(em, org, admin);
    binned = await buildSpace(em, org, admin);
    // Nobody but admins and grantees reads `hidden`; `binned` goes to the bin.
    expect((await api.request('PATCH', `/v1/spaces/${hidden.id}`, { token: admin.token, body: { defaultLevel: null } })).status).toBe(200);
    visible = [await buildChangeRequest(api.em(), shared, editor), await buildChangeRequest(api.em(), shared, admin)];
    secret = await buildChangeRequest(api.em(), hidden, admin, { subject: 'Secret plans' });
    await buildChangeRequest(api.em(), binned, admin);
    expect((await api.request('DELETE', `/v1/spaces/${binned.id}`, { token: admin.token })).status).toBe(204);
  });

  it('lists only change requests of spaces the caller can read (not in the bin)', async () => {
    const res = await api.client(reader.token).orgs.listChangeRequestsForOrganization(org.id, { creator: admin.user.id } as never);
    expectPublishedShape(res, 'GET', '/orgs/{organizationId}/change-requests');
    const all = await allPages((q) => orgList(`?${q}`), 3);
    expect(all.seen).toEqual(expect.arrayContaining(visible.map((c) => c.id)));
    expect(all.seen).not.toContain(secret.id);
    expect(JSON.stringify((await orgList('?limit=1000')).body)).not.toContain('Secret plans');
    expect(new Set(all.seen).size).toBe(all.seen.length);
    // The admin reads `hidden` too, but still not the bin.
    const adminAll = await allPages((q) => orgList(`?${q}`, admin.token), 3);
    expect(adminAll.seen).toContain(secret.id);
    expect(adminAll.count).toBe(all.count + 1);
    // Filters apply across spaces.
    const mine = await orgList(`?creator=${editor.user.id}&limit=1000`);
    expect(mine.body.items.every((i: { createdBy: { id: string } }) => i.createdBy.id === editor.user.id)).toBe(true);
    expect(ids(mine)).toContain(visible[0]!.id);
  });

  it('shows a guest only the change requests of spaces shared with it', async () => {
    expect((await orgList('', guest.token)).body).toMatchObject({ items: [], count: 0 });
    await api.request('POST', `/v1/spaces/${shared.id}/permissions`, { token: admin.token, body: { role: 'read', users: [guest.user.id] } });
    const res = await orgList('?limit=1000', guest.token);
    expect(new Set(res.body.items.map((i: { space: string }) => i.space))).toEqual(new Set([shared.id]));
    expect(ids(res)).toEqual(expect.arrayContaining(visible.map((c) => c.id)));
  });

  it('answers 404 to another organization and unknown organizations, 400 to bad filters', async () => {
    await expectClientError(api.client(outsider.token).orgs.listChangeRequestsForOrganization(org.id), 404);
    expectError(await api.request('GET', '/v1/orgs/noSuchOrg00000000000/change-requests', { token: admin.token }), 404);
    expectError(await orgList('?status=everything'), 400);
  });
});
