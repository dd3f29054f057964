import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Collection } from '../../src/domain/entities/collection.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildCollection, buildMember, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { role, startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let creator: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { create: creator, read: reader, guest } } = await buildCast(em, ['create', 'read', 'guest'] as const));
});
afterAll(() => api.close());

const col = (id: string, suffix = '') => `/v1/collections/${id}${suffix}`;

describe('POST /orgs/{organizationId}/collections', () => {
  it('creates collections (201, Location), nested ones too; the body is optional', async () => {
    const res = await api.request('POST', `/v1/orgs/${org.id}/collections`, { token: creator.token, body: { title: 'Guides', description: 'All guides' } });
    expect(res.status).toBe(201);
    expectPublishedShape(res, 'POST', '/orgs/{organizationId}/collections');
    expect(res.headers.get('location')).toBe(`http://vellum.test/v1/collections/${res.body.id}`);
    expect(res.body).toMatchObject({ object: 'collection', title: 'Guides', description: 'All guides', organization: org.id, defaultLevel: 'inherit' });
    const { data: child } = await api.client(creator.token).orgs.createCollection(org.id, { title: 'Child', parent: res.body.id } as never);
    expect(child.parent).toBe(res.body.id);
    const empty = await api.request('POST', `/v1/orgs/${org.id}/collections`, { token: admin.token, rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(201);
  });

  it('answers 400, 404, other organization and role too low', async () => {
    const url = `/v1/orgs/${org.id}/collections`;
    expectError(await api.request('POST', url, { token: admin.token, body: { title: 'x'.repeat(51) } }), 400, /title/);
    expectError(await api.request('POST', url, { token: admin.token, body: { description: 'x'.repeat(101) } }), 400, /description/);
    expectError(await api.request('POST', url, { token: admin.token, body: { parent: 'none' } }), 400, /parent/);
    expectError(await api.request('POST', '/v1/orgs/unknown/collections', { token: admin.token, body: {} }), 404);
    expectError(await api.request('POST', url, { token: outsider.token, body: {} }), 404);
    expectError(await api.request('POST', url, { token: reader.token, body: {} }), 403);
  });
});

describe('GET, PATCH one collection', () => {
  it('reads and changes a collection; default level rules access to what it holds', async () => {
    const em = api.em();
    const c = await buildCollection(em, org, admin);
    const s = await buildSpace(em, org, admin, { parent: c });
    const got = await api.client(reader.token).collections.getCollectionById(c.id);
    expectPublishedShape(got, 'GET', '/collections/{collectionId}');
    const { data } = got;
    expect(data.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    const patched = await api.client(admin.token).collections.updateCollectionById(c.id, { title: 'Renamed', defaultLevel: role('edit') } as never);
    expectPublishedShape(patched, 'PATCH', '/collections/{collectionId}');
    expect(patched.data).toMatchObject({ title: 'Renamed', defaultLevel: 'edit' });
    // The level opens the space up to each member's organization role, never above it.
    expect((await api.client(creator.token).spaces.getSpaceById(s.id)).data.permissions.edit).toBe(true);
    expect((await api.client(reader.token).spaces.getSpaceById(s.id)).data.permissions).toMatchObject({ view: true, edit: false });
    await api.client(admin.token).collections.updateCollectionById(c.id, { defaultLevel: null } as never);
    expectError(await api.request('GET', `/v1/spaces/${s.id}`, { token: reader.token }), 404);
    expectError(await api.request('GET', col(c.id), { token: reader.token }), 404);
  });

  it('answers 400, 404, other organization and role too low', async () => {
    const c = await buildCollection(api.em(), org, admin, { title: 'Keep' });
    expectError(await api.request('PATCH', col(c.id), { token: admin.token, body: { title: '' } }), 400, /title/);
    expectError(await api.request('PATCH', col(c.id), { token: admin.token, body: { defaultLevel: 'boss' } }), 400, /defaultLevel/);
    expectError(await api.request('GET', col('unknown'), { token: admin.token }), 404);
    expectError(await api.request('GET', col(c.id), { token: outsider.token }), 404);
    expectError(await api.request('GET', col(c.id), { token: guest.token }), 404);
    expectError(await api.request('PATCH', col(c.id), { token: outsider.token, body: { title: 'x' } }), 404);
    expectError(await api.request('PATCH', col(c.id), { token: creator.token, body: { title: 'x' } }), 403);
    expect((await api.client(admin.token).collections.getCollectionById(c.id)).data.title).toBe('Keep');
  });
});

describe('defaultLevel is capped at the organization role', () => {
  it('a read member under defaultLevel admin can neither PATCH, delete, nor grant, on the collection or a space inheriting it', async () => {
    const c = await buildCollection(api.em(), org, admin, { title: 'Capped' });
    const inside = await buildSpace(api.em(), org, admin, { parent: c });
    await api.request('PATCH', col(c.id), { token: admin.token, body: { defaultLevel: 'admin' } });
    expect((await api.request('GET', col(c.id), { token: reader.token })).body.permissions).toMatchObject({ view: true, admin: false });
    expectError(await api.request('PATCH', col(c.id), { token: reader.token, body: { defaultLevel: 'read' } }), 403);
    expectError(await api.request('DELETE', col(c.id), { token: reader.token }), 403);
    expectError(await api.request('POST', col(c.id, '/permissions'), { token: reader.token, body: { role: 'admin', users: [reader.user.id] } }), 403);
    expectError(await api.request('PATCH', `/v1/spaces/${inside.id}`, { token: reader.token, body: { visibility: 'public' } }), 403);
    expectError(await api.request('DELETE', `/v1/spaces/${inside.id}`, { token: reader.token }), 403);
    expect((await api.request('GET', col(c.id), { token: admin.token })).body).toMatchObject({ title: 'Capped', defaultLevel: 'admin' });
  });
});

describe('DELETE a collection', () => {
  it('deletes sub-collections and bins the spaces inside; restored spaces land at the root', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const top = await buildCollection(em, o, owner);
    const sub = await buildCollection(em, o, owner, { parent: top });
    const inTop = await buildSpace(em, o, owner, { parent: top });
    const inSub = await buildSpace(em, o, owner, { parent: sub });
    expect((await api.request('DELETE', col(top.id), { token: owner.token })).status).toBe(204);
    expect((await api.request('DELETE', col(top.id), { token: owner.token })).status).toBe(204);
    expect(await api.em().count(Collection, { id: { $in: [top.id, sub.id] } })).toBe(0);
    for (const s of [inTop, inSub]) {
      const { data } = await api.client(owner.token).spaces.getSpaceById(s.id);
      expect(data.deletedAt).toEqual(expect.any(String));
      expect(data.parent).toBeUndefined();
    }
    const restored = await api.client(owner.token).spaces.restoreSpace(inSub.id);
    expect(restored.data.parent).toBeUndefined();
    expect((await api.client(owner.token).orgs.listSpacesInOrganizationById(o.id)).data.items.map((s) => s.id)).toEqual([inSub.id]);
  });

  it('leaves the collection alone for other organizations and non-admins', async () => {
    const c = await buildCollection(api.em(), org, admin);
    expect((await api.request('DELETE', col(c.id), { token: outsider.token })).status).toBe(204);
    expectError(await api.request('DELETE', col(c.id), { token: creator.token }), 403);
    expect((await api.request('DELETE', col('unknown'), { token: admin.token })).status).toBe(204);
    expect((await api.client(admin.token).collections.getCollectionById(c.id)).data.id).toBe(c.id);
  });
});

describe('GET /collections/{collectionId}/spaces and GET /orgs/{organizationId}/collections', () => {
  it('lists spaces of one collection, and collections nested or top-level only', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const a = await buildCollection(em, o, owner, { title: 'A' });
    const b = await buildCollection(em, o, owner, { title: 'B', parent: a });
    const s1 = await buildSpace(em, o, owner, { parent: a });
    await buildSpace(em, o, owner, { parent: b });
    const spaces = await api.client(owner.token).collections.listSpacesInCollectionById(a.id);
    expectPublishedShape(spaces, 'GET', '/collections/{collectionId}/spaces');
    expect(spaces.data.items.map((s) => s.id)).toEqual([s1.id]);
    const all = await api.client(owner.token).orgs.listCollectionsInOrganizationById(o.id);
    expectPublishedShape(all, 'GET', '/orgs/{organizationId}/collections');
    expect(all.data.items.map((c) => c.title).sort()).toEqual(['A', 'B']);
    const top = await api.client(owner.token).orgs.listCollectionsInOrganizationById(o.id, { nested: false });
    expect(top.data.items.map((c) => c.title)).toEqual(['A']);
    expectError(await api.request('GET', `/v1/orgs/${o.id}/collections?nested=maybe`, { token: owner.token }), 400, /nested/);
    expectError(await api.request('GET', `/v1/orgs/${o.id}/collections`, { token: outsider.token }), 404);
    expectError(await api.request('GET', col(a.id, '/spaces'), { token: outsider.token }), 404);
    expectError(await api.request('GET', col('unknown', '/spaces'), { token: owner.token }), 404);
    expectError(await api.request('GET', col(a.id, '/spaces?page=%%%'), { token: owner.token }), 400);
    const g = await buildMember(em, o, null);
    expect((await api.client(g.token).orgs.listCollectionsInOrganizationById(o.id)).data.items).toEqual([]);
  });
});

describe('POST /collections/{collectionId}/move', () => {
  it('reorders among spaces and collections, nests, and refuses cycles and no-ops', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const a = await buildCollection(em, o, owner, { title: 'A' });
    const s = await buildSpace(em, o, owner, { title: 'S' });
    const b = await buildCollection(em, o, owner, { title: 'B' });
    const move = (id: string, body: unknown, token = owner.token) => api.request('POST', col(id, '/move'), { token, body });
    const moved = await move(b.id, { position: { before: { type: 'space', space: s.id } } });
    expect(moved.status).toBe(200);
    expectPublishedShape(moved, 'POST', '/collections/{collectionId}/move');
    const top = await api.client(owner.token).orgs.listCollectionsInOrganizationById(o.id, { nested: false });
    expect(top.data.items.map((c) => c.title)).toEqual(['A', 'B']);
    expect((await move(b.id, { parent: a.id })).body.parent).toBe(a.id);
    expectError(await move(a.id, { parent: b.id }), 400, /inside itself/);
    expectError(await move(a.id, { parent: a.id }), 400, /inside itself/);
    expectError(await move(b.id, { parent: a.id }), 409);
    expectError(await move(a.id, { position: { after: { type: 'collection', collection: b.id } } }), 400, /position/);
    expectError(await move('unknown', { parent: null }), 404);
    expectError(await move(a.id, { parent: null }, outsider.token), 404);
    const member = await buildMember(em, o, 'create');
    expectError(await move(a.id, { parent: null }, member.token), 403);
  });
});

describe('POST /collections/{collectionId}/transfer', () => {
  it('moves a collection with its sub-collections and spaces to another organization', async () => {
    const em = api.em();
    const { org: source, owner } = await buildOrg(em);
    const { org: target } = await buildOrg(em, { owner });
    const c = await buildCollection(em, source, owner);
    const sub = await buildCollection(em, source, owner, { parent: c });
    const s = await buildSpace(em, source, owner, { parent: sub });
    const transferred = await api.client(owner.token).collections.transferCollection(c.id, { organization: target.id });
    expectPublishedShape(transferred, 'POST', '/collections/{collectionId}/transfer');
    expect(transferred.data.organization).toBe(target.id);
    expect((await api.client(owner.token).collections.getCollectionById(sub.id)).data.organization).toBe(target.id);
    expect((await api.client(owner.token).spaces.getSpaceById(s.id)).data.organization).toBe(target.id);
    expectError(await api.request('POST', col(c.id, '/transfer'), { token: owner.token, body: { organization: target.id } }), 409);
    expectError(await api.request('POST', col(c.id, '/transfer'), { token: owner.token, body: { organization: target.id, parent: sub.id } }), 400, /inside itself/);
    expectError(await api.request('POST', col(c.id, '/transfer'), { token: owner.token, body: {} }), 400);
    expectError(await api.request('POST', col('unknown', '/transfer'), { token: owner.token, body: { organization: target.id } }), 404);
    expectError(await api.request('POST', col(c.id, '/transfer'), { token: outsider.token, body: { organization: target.id } }), 404);
    const member = await buildMember(em, target, 'edit');
    expectError(await api.request('POST', col(c.id, '/transfer'), { token: member.token, body: { organization: source.id } }), 403);
  });
});

describe('POST /collections/{collectionId}/permissions', () => {
  it('shares a collection and everything inside it with a guest', async () => {
    const em = api.em();
    const c = await buildCollection(em, org, admin);
    const s = await buildSpace(em, org, admin, { parent: c });
    const res = await api.request('POST', col(c.id, '/permissions'), { token: admin.token, body: { role: 'read', users: [guest.user.id] } });
    expect(res.status).toBe(204);
    expectPublishedShape(res, 'POST', '/collections/{collectionId}/permissions');
    expect((await api.client(guest.token).spaces.getSpaceById(s.id)).data.permissions.view).toBe(true);
    expectError(await api.request('POST', col(c.id, '/permissions'), { token: admin.token, body: { role: 'master', users: [guest.user.id] } }), 400);
    expectError(await api.request('POST', col(c.id, '/permissions'), { token: reader.token, body: { role: 'read', users: [guest.user.id] } }), 403);
    expectError(await api.request('POST', col(c.id, '/permissions'), { token: outsider.token, body: { role: 'read', users: [guest.user.id] } }), 404);
    expectError(await api.request('POST', col('unknown', '/permissions'), { token: admin.token, body: { role: 'read', users: [guest.user.id] } }), 404);
  });
});
