import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { fixedClock } from '../../src/domain/shared/clock.ts';
import { expectClientError, expectError } from '../support/assertions.ts';
import { buildCast, buildCollection, buildMember, buildOrg, buildSpace, buildTeam, type Caller } from '../support/factories.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { role, startTestApi, type TestApi } from '../support/harness.ts';

const clock = fixedClock(new Date('2026-06-01T12:00:00Z'));
const DAY = 24 * 3600 * 1000;
let api: TestApi;
let org: Organization;
let admin: Caller;
let creator: Caller;
let editor: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;

beforeAll(async () => {
  api = await startTestApi({}, { clock });
  const em = api.em();
  ({ org, admin, outsider, members: { create: creator, edit: editor, read: reader, guest } } = await buildCast(em, ['create', 'edit', 'read', 'guest'] as const));
});
afterAll(() => api.close());

const space = (id: string, suffix = '') => `/v1/spaces/${id}${suffix}`;

describe('POST /orgs/{organizationId}/spaces', () => {
  it('creates a space (201, Location) with an empty first revision', async () => {
    const res = await api.request('POST', `/v1/orgs/${org.id}/spaces`, { token: creator.token, body: { title: 'Handbook', emoji: '📘' } });
    expect(res.status).toBe(201);
    expectPublishedShape(res, 'POST', '/orgs/{organizationId}/spaces');
    expect(res.headers.get('location')).toBe(`http://vellum.test/v1/spaces/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      visibility: 'private',
      editMode: 'live',
      organization: org.id,
      defaultLevel: 'inherit',
      mergeRules: { type: 'inherit' },
      comments: 0,
      changeRequests: 0,
    });
    const revision = await api.em().findOne(Revision, { id: res.body.revision });
    expect(revision?.space.id).toBe(res.body.id);
  });

  it('creates inside a collection, also through the published client', async () => {
    const collection = await buildCollection(api.em(), org, admin);
    const created = await api.client(creator.token).orgs.createSpace(org.id, { title: 'Inside', parent: collection.id } as never);
    expectPublishedShape(created, 'POST', '/orgs/{organizationId}/spaces');
    const { data } = created;
    expect(data).toMatchObject({ parent: collection.id, visibility: 'in-collection' });
  });

  it('accepts an empty body sent with a JSON content type', async () => {
    const res = await api.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Untitled');
  });

  it('answers 400, 404, other organization and role too low, creating nothing', async () => {
    const url = `/v1/orgs/${org.id}/spaces`;
    expectError(await api.request('POST', url, { token: admin.token, body: { title: 'x'.repeat(51) } }), 400, /title/);
    expectError(await api.request('POST', url, { token: admin.token, body: { parent: 'nope' } }), 400, /parent/);
    expectError(await api.request('POST', url, { token: admin.token, body: { language: 'xx' } }), 400, /language/);
    expectError(await api.request('POST', url, { token: admin.token, body: { template: { id: 'x' } } }), 400, /template/);
    expectError(await api.request('POST', '/v1/orgs/unknown/spaces', { token: admin.token, body: {} }), 404);
    expectError(await api.request('POST', url, { token: outsider.token, body: {} }), 404);
    expectError(await api.request('POST', url, { token: editor.token, body: {} }), 403);
  });
});

describe('GET /spaces/{spaceId}', () => {
  it('returns the space with the caller’s permissions', async () => {
    const s = await buildSpace(api.em(), org, admin);
    const asAdmin = await api.client(admin.token).spaces.getSpaceById(s.id);
    expectPublishedShape(asAdmin, 'GET', '/spaces/{spaceId}');
    expect(asAdmin.data.permissions).toMatchObject({ admin: true, edit: true, view: true });
    const asReader = await api.client(reader.token).spaces.getSpaceById(s.id);
    expect(asReader.data.permissions).toMatchObject({ view: true, comment: false, edit: false, admin: false });
    const asEditor = await api.client(editor.token).spaces.getSpaceById(s.id);
    expect(asEditor.data.permissions).toMatchObject({ edit: true, review: true, admin: false });
  });

  it('hides a space from guests and other organizations (404) until it is shared', async () => {
    const s = await buildSpace(api.em(), org, admin);
    expectError(await api.request('GET', space(s.id), { token: guest.token }), 404);
    expectError(await api.request('GET', space(s.id), { token: outsider.token }), 404);
    expectError(await api.request('GET', space('unknown'), { token: admin.token }), 404);
    expectError(await api.request('GET', space('x'.repeat(101)), { token: admin.token }), 400, /spaceId/);
    const res = await api.request('POST', space(s.id, '/permissions'), { token: admin.token, body: { role: 'comment', users: [guest.user.id] } });
    expect(res.status).toBe(204);
    const { data } = await api.client(guest.token).spaces.getSpaceById(s.id);
    expect(data.permissions).toMatchObject({ view: true, comment: true, edit: false });
  });
});

describe('PATCH /spaces/{spaceId}', () => {
  it('lets editors change content settings and admins access settings', async () => {
    const s = await buildSpace(api.em(), org, admin);
    const renamed = await api.client(editor.token).spaces.updateSpaceById(s.id, { title: 'Renamed', emoji: '🚀' } as never);
    expectPublishedShape(renamed, 'PATCH', '/spaces/{spaceId}');
    expect(renamed.data).toMatchObject({ title: 'Renamed', emoji: '🚀' });
    const locked = await api.client(admin.token).spaces.updateSpaceById(s.id, { editMode: 'locked', defaultLevel: null } as never);
    expectPublishedShape(locked, 'PATCH', '/spaces/{spaceId}');
    expect(locked.data).toMatchObject({ editMode: 'locked', defaultLevel: null });
    expect(locked.data.permissions.edit).toBe(false);
    expectError(await api.request('GET', space(s.id), { token: reader.token }), 404);
    const icon = await api.request('PATCH', space(s.id), { token: admin.token, body: { icon: 'https://cdn.example.test/i.png' } });
    expect(icon.body).toMatchObject({ emoji: '', urls: { icon: 'https://cdn.example.test/i.png' } });
  });

  it('answers 400, 404, other organization and role too low, changing nothing', async () => {
    const s = await buildSpace(api.em(), org, admin, { title: 'Stays' });
    expectError(await api.request('PATCH', space(s.id), { token: admin.token, body: { emoji: '🚀', icon: 'https://x.test/i.png' } }), 400, /icon/);
    expectError(await api.request('PATCH', space(s.id), { token: admin.token, body: { visibility: 'everyone' } }), 400, /visibility/);
    expectError(await api.request('PATCH', space(s.id), { token: admin.token, body: { visibility: 'in-collection' } }), 400, /visibility/);
    expectError(await api.request('PATCH', space(s.id), { token: admin.token, body: { defaultLevel: 'owner' } }), 400, /defaultLevel/);
    expectError(await api.request('PATCH', space('unknown'), { token: admin.token, body: { title: 'x' } }), 404);
    expectError(await api.request('PATCH', space(s.id), { token: outsider.token, body: { title: 'x' } }), 404);
    expectError(await api.request('PATCH', space(s.id), { token: reader.token, body: { title: 'x' } }), 403);
    expectError(await api.request('PATCH', space(s.id), { token: editor.token, body: { defaultLevel: 'admin' } }), 403);
    expect((await api.client(admin.token).spaces.getSpaceById(s.id)).data.title).toBe('Stays');
  });
});

describe('defaultLevel is capped at the organization role', () => {
  it('a read member under defaultLevel admin can neither PATCH visibility, delete, nor grant', async () => {
    const s = await buildSpace(api.em(), org, admin, { title: 'Capped' });
    await api.request('PATCH', space(s.id), { token: admin.token, body: { defaultLevel: 'admin' } });
    const read = await api.client(reader.token).spaces.getSpaceById(s.id);
    expect(read.data.permissions).toMatchObject({ view: true, admin: false, edit: false });
    expectError(await api.request('PATCH', space(s.id), { token: reader.token, body: { visibility: 'public' } }), 403);
    expectError(await api.request('DELETE', space(s.id), { token: reader.token }), 403);
    expectError(await api.request('POST', space(s.id, '/permissions'), { token: reader.token, body: { role: 'admin', users: [reader.user.id] } }), 403);
    const after = await api.client(admin.token).spaces.getSpaceById(s.id);
    expect(after.data).toMatchObject({ visibility: 'private', title: 'Capped' });
    expect(after.data.deletedAt).toBeUndefined();
  });
});

describe('the bin: DELETE, restore, retention', () => {
  it('soft-deletes (204, also when absent), keeps the space readable by id and out of lists', async () => {
    const s = await buildSpace(api.em(), org, admin);
    expect((await api.request('DELETE', space(s.id), { token: admin.token })).status).toBe(204);
    expect((await api.request('DELETE', space(s.id), { token: admin.token })).status).toBe(204);
    expect((await api.request('DELETE', space('unknown'), { token: admin.token })).status).toBe(204);
    const deleted = await api.client(admin.token).spaces.getSpaceById(s.id);
    expectPublishedShape(deleted, 'GET', '/spaces/{spaceId}');
    expect(deleted.data.deletedAt).toBe(clock.now().toISOString());
    const listed = await api.client(admin.token).orgs.listSpacesInOrganizationById(org.id, { limit: 1000 });
    expect(listed.data.items.map((i) => i.id)).not.toContain(s.id);
    expectError(await api.request('PATCH', space(s.id), { token: admin.token, body: { title: 'x' } }), 412);
  });

  it('restores within the retention window, and refuses after it (412)', async () => {
    const s = await buildSpace(api.em(), org, admin);
    await api.client(admin.token).spaces.deleteSpaceById(s.id);
    clock.advance(6 * DAY);
    const restored = await api.client(admin.token).spaces.restoreSpace(s.id);
    expectPublishedShape(restored, 'POST', '/spaces/{spaceId}/restore');
    expect(restored.data.deletedAt).toBeUndefined();
    await api.client(admin.token).spaces.deleteSpaceById(s.id);
    clock.advance(8 * DAY);
    expectError(await api.request('POST', space(s.id, '/restore'), { token: admin.token }), 412);
  });

  it('refuses other organizations and non-admins (delete leaves the space alone)', async () => {
    const s = await buildSpace(api.em(), org, admin);
    expect((await api.request('DELETE', space(s.id), { token: outsider.token })).status).toBe(204);
    expectError(await api.request('DELETE', space(s.id), { token: editor.token }), 403);
    expect((await api.client(admin.token).spaces.getSpaceById(s.id)).data.deletedAt).toBeUndefined();
    expectError(await api.request('POST', space(s.id, '/restore'), { token: editor.token }), 403);
    expectError(await api.request('POST', space(s.id, '/restore'), { token: outsider.token }), 404);
    expectError(await api.request('POST', space('unknown', '/restore'), { token: admin.token }), 404);
    expectError(await api.request('POST', space('x'.repeat(101), '/restore'), { token: admin.token }), 400);
  });
});

describe('POST /spaces/{spaceId}/duplicate', () => {
  it('copies the space right after the original, sharing its content', async () => {
    const { org: o, owner } = await buildOrg(api.em());
    const a = await buildSpace(api.em(), o, owner, { title: 'A' });
    const b = await buildSpace(api.em(), o, owner, { title: 'B' });
    const res = await api.request('POST', space(a.id, '/duplicate'), { token: owner.token });
    expect(res.status).toBe(201);
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/duplicate');
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(res.body.title).toBe('A (copy)');
    const revision = await api.em().findOneOrFail(Revision, { id: res.body.revision });
    expect(revision.parents).toEqual([a.revision]);
    const list = await api.client(owner.token).orgs.listSpacesInOrganizationById(o.id);
    expect(list.data.items.map((s) => s.id)).toEqual([a.id, res.body.id, b.id]);
  });

  it('answers 404, other organization and role too low', async () => {
    const s = await buildSpace(api.em(), org, admin);
    expectError(await api.request('POST', space('unknown', '/duplicate'), { token: admin.token }), 404);
    expectError(await api.request('POST', space(s.id, '/duplicate'), { token: outsider.token }), 404);
    expectError(await api.request('POST', space(s.id, '/duplicate'), { token: editor.token }), 403);
    expectError(await api.request('POST', space('x'.repeat(101), '/duplicate'), { token: admin.token }), 400);
  });
});

describe('POST /spaces/{spaceId}/move', () => {
  it('reorders siblings and moves into and out of collections; lists follow', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const a = await buildSpace(em, o, owner, { title: 'A' });
    const b = await buildSpace(em, o, owner, { title: 'B' });
    const c = await buildSpace(em, o, owner, { title: 'C' });
    const client = api.client(owner.token);
    const order = async () => (await client.orgs.listSpacesInOrganizationById(o.id)).data.items.map((s) => s.title);
    await client.spaces.moveSpace(c.id, { position: { before: { type: 'space', space: a.id } } } as never);
    expect(await order()).toEqual(['C', 'A', 'B']);
    await client.spaces.moveSpace(c.id, { position: { after: { type: 'space', space: b.id } } } as never);
    expect(await order()).toEqual(['A', 'B', 'C']);
    const col = await buildCollection(em, o, owner);
    const moved = await client.spaces.moveSpace(b.id, { parent: col.id } as never);
    expectPublishedShape(moved, 'POST', '/spaces/{spaceId}/move');
    expect(moved.data.parent).toBe(col.id);
    expect((await client.collections.listSpacesInCollectionById(col.id)).data.items.map((s) => s.id)).toEqual([b.id]);
    const back = await client.spaces.moveSpace(b.id, { parent: null, position: { after: { type: 'space', space: a.id } } } as never);
    expect(back.data.parent).toBeUndefined();
    expect(await order()).toEqual(['A', 'B', 'C']);
  });

  it('answers 409 for a move that changes nothing and 400 for invalid positions', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const a = await buildSpace(em, o, owner);
    const b = await buildSpace(em, o, owner);
    const elsewhere = await buildSpace(em, org, admin);
    const move = (id: string, body: unknown) => api.request('POST', space(id, '/move'), { token: owner.token, body });
    expectError(await move(b.id, { position: { after: { type: 'space', space: a.id } } }), 409);
    expectError(await move(a.id, { parent: null }), 409);
    expectError(await move(a.id, {}), 400);
    expectError(await move(a.id, { position: { after: { type: 'space', space: a.id } } }), 400, /itself/);
    expectError(await move(a.id, { position: { after: { type: 'space', space: elsewhere.id } } }), 400, /position/);
    expectError(await move(a.id, { position: { after: { type: 'page', page: 'x' } } }), 400);
    expectError(await move(a.id, { parent: 'no-such-collection' }), 400, /parent/);
    expectError(await api.request('POST', space('unknown', '/move'), { token: owner.token, body: { parent: null } }), 404);
    expectError(await api.request('POST', space(a.id, '/move'), { token: outsider.token, body: { parent: null } }), 404);
    const member = await buildMember(em, o, 'edit');
    expectError(await api.request('POST', space(a.id, '/move'), { token: member.token, body: { parent: null } }), 403);
  });
});

describe('POST /spaces/{spaceId}/transfer', () => {
  it('moves a space to another organization the caller administers; grants stay behind', async () => {
    const em = api.em();
    const { org: source, owner } = await buildOrg(em);
    const { org: target } = await buildOrg(em, { owner });
    const s = await buildSpace(em, source, owner);
    const member = await buildMember(em, source, 'read');
    await api.client(owner.token).spaces.inviteToSpace(s.id, { role: role('edit'), users: [member.user.id] } as never);
    const transferred = await api.client(owner.token).spaces.transferSpace(s.id, { organization: target.id });
    expectPublishedShape(transferred, 'POST', '/spaces/{spaceId}/transfer');
    expect(transferred.data.organization).toBe(target.id);
    expectError(await api.request('GET', space(s.id), { token: member.token }), 404);
    const targetSpaces = await api.client(owner.token).orgs.listSpacesInOrganizationById(target.id);
    expect(targetSpaces.data.items.map((i) => i.id)).toContain(s.id);
  });

  it('answers 409 no-op, 412 deleted, 400 foreign target, 403 not admin of both, 404', async () => {
    const em = api.em();
    const { org: source, owner } = await buildOrg(em);
    const s = await buildSpace(em, source, owner);
    const transfer = (id: string, body: unknown, token = owner.token) => api.request('POST', space(id, '/transfer'), { token, body });
    expectError(await transfer(s.id, { organization: source.id }), 409);
    expectError(await transfer(s.id, { organization: org.id }), 400, /organization/);
    expectError(await transfer(s.id, {}), 400, /organization/);
    const { org: readOnly } = await buildOrg(em);
    const { Member } = await import('../../src/domain/entities/member.entity.ts');
    em.create(Member, { organization: readOnly, user: owner.user, role: 'read' });
    await em.flush();
    expectError(await transfer(s.id, { organization: readOnly.id }), 403);
    const { org: target } = await buildOrg(em, { owner });
    const deleted = await buildSpace(em, source, owner);
    await api.client(owner.token).spaces.deleteSpaceById(deleted.id);
    expectError(await transfer(deleted.id, { organization: target.id }), 412);
    expectError(await transfer('unknown', { organization: target.id }), 404);
    expectError(await transfer(s.id, { organization: target.id }, outsider.token), 404);
  });
});

describe('GET /orgs/{organizationId}/spaces', () => {
  it('pages through readable spaces in order; guests see only what is shared', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const spaces = [];
    for (let i = 0; i < 5; i++) spaces.push(await buildSpace(em, o, owner, { title: `S${i}` }));
    const client = api.client(owner.token).orgs;
    const first = await client.listSpacesInOrganizationById(o.id, { limit: 2 });
    expectPublishedShape(first, 'GET', '/orgs/{organizationId}/spaces');
    const rest = await client.listSpacesInOrganizationById(o.id, { limit: 10, page: first.data.next!.page });
    expect([...first.data.items, ...rest.data.items].map((s) => s.title)).toEqual(['S0', 'S1', 'S2', 'S3', 'S4']);
    expect(first.data.count).toBe(5);
    const g = await buildMember(em, o, null);
    await client.updateOrganizationById(o.id, {});
    await api.client(owner.token).spaces.inviteToSpace(spaces[3]!.id, { role: role('read'), users: [g.user.id] } as never);
    const mine = await api.client(g.token).orgs.listSpacesInOrganizationById(o.id);
    expect(mine.data.items.map((s) => s.id)).toEqual([spaces[3]!.id]);
    expectError(await api.request('GET', `/v1/orgs/${o.id}/spaces?limit=5000`, { token: owner.token }), 400, /limit/);
    expectError(await api.request('GET', `/v1/orgs/${o.id}/spaces`, { token: outsider.token }), 404);
  });
});

describe('GET /orgs/{organizationId}/members/{userId}/spaces', () => {
  it('lists the spaces a member can read with their role', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const s1 = await buildSpace(em, o, owner);
    const s2 = await buildSpace(em, o, owner);
    const r = await buildMember(em, o, 'read');
    await api.client(owner.token).spaces.inviteToSpace(s2.id, { role: role('edit'), users: [r.user.id] } as never);
    const listed = await api.client(owner.token).orgs.listSpacesForOrganizationMember(o.id, r.user.id, { order: 'asc' } as never);
    expectPublishedShape(listed, 'GET', '/orgs/{organizationId}/members/{userId}/spaces');
    const { data } = listed;
    expect(data.items.map((i) => [i.space.id, i.permission])).toEqual([
      [s1.id, 'read'],
      [s2.id, 'edit'],
    ]);
    const member = await api.client(owner.token).orgs.getMemberInOrganizationById(o.id, r.user.id);
    expect(member.data.spaces).toBe(1);
    const g = await buildMember(em, o, null);
    expectError(await api.request('GET', `/v1/orgs/${o.id}/members/${r.user.id}/spaces`, { token: g.token }), 403);
    expectError(await api.request('GET', `/v1/orgs/${o.id}/members/nobody/spaces`, { token: owner.token }), 404);
    expectError(await api.request('GET', `/v1/orgs/${o.id}/members/${r.user.id}/spaces`, { token: outsider.token }), 404);
    expectError(await api.request('GET', `/v1/orgs/${o.id}/members/${r.user.id}/spaces?order=sideways`, { token: owner.token }), 400);
  });
});

describe('POST /spaces/{spaceId}/permissions', () => {
  it('grants to teams (team counts follow), removes with null, and validates', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin);
    const team = await buildTeam(em, org, [{ user: guest.user }]);
    const granted = await api.request('POST', space(s.id, '/permissions'), { token: admin.token, body: { role: 'read', teams: [team.id] } });
    expect(granted.status).toBe(204);
    expectPublishedShape(granted, 'POST', '/spaces/{spaceId}/permissions');
    expect((await api.client(guest.token).spaces.getSpaceById(s.id)).data.id).toBe(s.id);
    expect((await api.client(admin.token).orgs.getTeamInOrganizationById(org.id, team.id)).data.spaces).toBe(1);
    await api.request('POST', space(s.id, '/permissions'), { token: admin.token, body: { role: null, teams: [team.id] } });
    expectError(await api.request('GET', space(s.id), { token: guest.token }), 404);
    expectError(await api.request('POST', space(s.id, '/permissions'), { token: admin.token, body: { role: 'read' } }), 400);
    expectError(await api.request('POST', space(s.id, '/permissions'), { token: admin.token, body: { role: 'read', users: [outsider.user.id] } }), 400, /users/);
    expectError(await api.request('POST', space(s.id, '/permissions'), { token: editor.token, body: { role: 'read', users: [guest.user.id] } }), 403);
    expectError(await api.request('POST', space(s.id, '/permissions'), { token: outsider.token, body: { role: 'read', users: [guest.user.id] } }), 404);
    expectError(await api.request('POST', space('unknown', '/permissions'), { token: admin.token, body: { role: 'read', users: [guest.user.id] } }), 404);
    await expectClientError(api.client(guest.token).spaces.getSpaceById(s.id), 404);
  });
});
