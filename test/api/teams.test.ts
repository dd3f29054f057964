import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { expectClientError, expectError } from '../support/assertions.ts';
import { buildCast, buildMember, buildTeam, type Caller } from '../support/factories.ts';
import { teamRole, startTestApi, type TestApi } from '../support/harness.ts';
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
  const em = api.em();
  ({ org, admin, outsider, members: { edit: editor, read: reader, guest } } = await buildCast(em, ['edit', 'read', 'guest'] as const));
});
afterAll(() => api.close());

const teams = (suffix = '') => `/v1/orgs/${org.id}/teams${suffix}`;

describe('PUT teams (create)', () => {
  it('creates a team with members: 201, Location, counts', async () => {
    const res = await api.request('PUT', teams(), { token: admin.token, body: { title: 'Writers', members: [editor.user.id, reader.user.id] } });
    expect(res.status).toBe(201);
    expectPublishedShape(res, 'PUT', '/orgs/{organizationId}/teams');
    expect(res.body).toMatchObject({ object: 'team', title: 'Writers', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    expect(res.headers.get('location')).toBe(`http://vellum.test/v1/orgs/${org.id}/teams/${res.body.id}`);
    const member = await api.client(admin.token).orgs.getMemberInOrganizationById(org.id, editor.user.id);
    expect(member.data.teams).toBe(1);
  });

  it('works through the published client', async () => {
    const { data } = await api.client(admin.token).orgs.createOrganizationTeam(org.id, { title: 'Client team' });
    expect(data).toMatchObject({ title: 'Client team', members: 0 });
  });

  it('rejects a missing title, non-members, other organizations and non-admins', async () => {
    expectError(await api.request('PUT', teams(), { token: admin.token, body: {} }), 400, /title/);
    expectError(await api.request('PUT', teams(), { token: admin.token, body: { title: 'x'.repeat(65) } }), 400, /title/);
    expectError(await api.request('PUT', teams(), { token: admin.token, body: { title: 'T', members: [outsider.user.id] } }), 400, /not members/);
    expectError(await api.request('PUT', teams(), { token: outsider.token, body: { title: 'T' } }), 404);
    expectError(await api.request('PUT', '/v1/orgs/unknown/teams', { token: admin.token, body: { title: 'T' } }), 404);
    expectError(await api.request('PUT', teams(), { token: editor.token, body: { title: 'T' } }), 403);
  });
});

describe('GET teams', () => {
  it('lists teams with the title filter and the owner filter', async () => {
    const em = api.em();
    const owned = await buildTeam(em, org, [{ user: editor.user, role: 'owner' }]);
    owned.title = 'Owned by editor';
    await em.flush();
    const client = api.client(reader.token).orgs;
    const all = await client.listTeamsInOrganizationById(org.id);
    expectPublishedShape(all, 'GET', '/orgs/{organizationId}/teams');
    expect(all.data.items.length).toBeGreaterThanOrEqual(3);
    expect((await client.listTeamsInOrganizationById(org.id, { title: 'OWNED BY' })).data.items.map((t) => t.id)).toEqual([owned.id]);
    expect((await client.listTeamsInOrganizationById(org.id, { owner: editor.user.id })).data.items.map((t) => t.id)).toEqual([owned.id]);
    expect((await client.listTeamsInOrganizationById(org.id, { owner: admin.user.id })).data.count).toBe(all.data.count);
    const asOwner = await api.client(editor.token).orgs.getTeamInOrganizationById(org.id, owned.id);
    expect(asOwner.data.permissions).toEqual({ admin: true, view: true });
  });

  it('refuses guests, other organizations and bad paging', async () => {
    expectError(await api.request('GET', teams(), { token: guest.token }), 403);
    expectError(await api.request('GET', teams(), { token: outsider.token }), 404);
    expectError(await api.request('GET', teams('?limit=-1'), { token: admin.token }), 400, /limit/);
  });
});

describe('GET, PATCH, DELETE one team', () => {
  it('reads, renames (admin or owner) and deletes (205 then 204)', async () => {
    const em = api.em();
    const team = await buildTeam(em, org, [{ user: editor.user, role: 'owner' }, { user: reader.user }]);
    const got = await api.client(reader.token).orgs.getTeamInOrganizationById(org.id, team.id);
    expectPublishedShape(got, 'GET', '/orgs/{organizationId}/teams/{teamId}');
    expect(got.data.members).toBe(2);
    const renamed = await api.client(editor.token).orgs.updateTeamInOrganizationById(org.id, team.id, { title: 'Renamed' });
    expectPublishedShape(renamed, 'PATCH', '/orgs/{organizationId}/teams/{teamId}');
    expect(renamed.data.title).toBe('Renamed');
    expect((await api.request('DELETE', teams(`/${team.id}`), { token: admin.token })).status).toBe(205);
    expect((await api.request('DELETE', teams(`/${team.id}`), { token: admin.token })).status).toBe(204);
    await expectClientError(api.client(admin.token).orgs.getTeamInOrganizationById(org.id, team.id), 404);
    const member = await api.client(admin.token).orgs.getMemberInOrganizationById(org.id, reader.user.id);
    expect(member.data.teams).toBe(1);
  });

  it('answers 400, 404, other organization and role too low', async () => {
    const team = await buildTeam(api.em(), org);
    expectError(await api.request('PATCH', teams(`/${team.id}`), { token: admin.token, body: { title: '' } }), 400, /title/);
    expectError(await api.request('GET', teams('/unknown'), { token: admin.token }), 404);
    expectError(await api.request('PATCH', teams('/unknown'), { token: admin.token, body: { title: 'x' } }), 404);
    expectError(await api.request('GET', teams(`/${team.id}`), { token: outsider.token }), 404);
    expectError(await api.request('DELETE', teams(`/${team.id}`), { token: outsider.token }), 404);
    expectError(await api.request('PATCH', teams(`/${team.id}`), { token: reader.token, body: { title: 'x' } }), 403);
    expectError(await api.request('DELETE', teams(`/${team.id}`), { token: editor.token }), 403);
    expectError(await api.request('GET', teams(`/${team.id}`), { token: guest.token }), 403);
  });
});

describe('team members', () => {
  it('adds, re-roles and removes members in bulk and one by one; counts follow', async () => {
    const team = await buildTeam(api.em(), org);
    const client = api.client(admin.token).orgs;
    await client.updateMembersInOrganizationTeam(org.id, team.id, {
      add: [editor.user.id, reader.user.id],
      memberships: { [editor.user.id]: { role: teamRole('owner') } },
    });
    let listed = await client.listTeamMembersInOrganizationById(org.id, team.id);
    expectPublishedShape(listed, 'GET', '/orgs/{organizationId}/teams/{teamId}/members');
    expect(listed.data.items.map((i) => [i.organization.id, i.team.role]).sort()).toEqual(
      [
        [editor.user.id, 'owner'],
        [reader.user.id, 'member'],
      ].sort(),
    );
    expect((await client.getTeamInOrganizationById(org.id, team.id)).data.members).toBe(2);
    await client.updateMembersInOrganizationTeam(org.id, team.id, { remove: [reader.user.id] });
    await client.addMemberToOrganizationTeamById(org.id, team.id, guest.user.id, { role: teamRole('member') });
    listed = await client.listTeamMembersInOrganizationById(org.id, team.id);
    // Now with a guest in the team: its organization membership has role null.
    expectPublishedShape(listed, 'GET', '/orgs/{organizationId}/teams/{teamId}/members');
    expect(listed.data.items.map((i) => i.organization.id).sort()).toEqual([editor.user.id, guest.user.id].sort());
    expect((await api.request('DELETE', teams(`/${team.id}/members/${guest.user.id}`), { token: editor.token })).status).toBe(205);
    expect((await api.request('DELETE', teams(`/${team.id}/members/${guest.user.id}`), { token: editor.token })).status).toBe(204);
    expect((await client.getTeamInOrganizationById(org.id, team.id)).data.members).toBe(1);
  });

  it('rejects empty changes, strangers, other organizations and non-owners', async () => {
    const team = await buildTeam(api.em(), org);
    const url = teams(`/${team.id}/members`);
    expectError(await api.request('PUT', url, { token: admin.token, body: {} }), 400);
    expectError(await api.request('PUT', url, { token: admin.token, body: { add: [outsider.user.id] } }), 400, /not members/);
    expectError(await api.request('PUT', url, { token: admin.token, body: { memberships: { [reader.user.id]: { role: 'boss' } } } }), 400);
    expectError(await api.request('PUT', teams('/unknown/members'), { token: admin.token, body: { add: [reader.user.id] } }), 404);
    expectError(await api.request('PUT', url, { token: outsider.token, body: { add: [reader.user.id] } }), 404);
    expectError(await api.request('PUT', url, { token: reader.token, body: { add: [reader.user.id] } }), 403);
    expectError(await api.request('PUT', `${url}/${reader.user.id}`, { token: reader.token }), 403);
    expect((await api.client(admin.token).orgs.getTeamInOrganizationById(org.id, team.id)).data.members).toBe(0);
  });
});

describe('GET members/{userId}/teams', () => {
  it('lists a member’s teams with their role, filtered by title', async () => {
    const em = api.em();
    const person = await buildMember(em, org, 'read');
    const a = await buildTeam(em, org, [{ user: person.user, role: 'owner' }]);
    a.title = 'Alpha squad';
    await em.flush();
    await buildTeam(em, org, [{ user: person.user }]);
    const res = await api.client(admin.token).orgs.listTeamsForOrganizationMember(org.id, person.user.id);
    expectPublishedShape(res, 'GET', '/orgs/{organizationId}/members/{userId}/teams');
    const { data } = res;
    expect(data.count).toBe(2);
    expect(data.items.find((i) => i.team.id === a.id)!.member.role).toBe('owner');
    const filtered = await api.client(person.token).orgs.listTeamsForOrganizationMember(org.id, person.user.id, { title: 'alpha' });
    expect(filtered.data.items.map((i) => i.team.id)).toEqual([a.id]);
  });

  it('answers 400, 404, other organization and role too low', async () => {
    const url = `/v1/orgs/${org.id}/members/${reader.user.id}/teams`;
    expectError(await api.request('GET', `${url}?title=${'x'.repeat(100)}`, { token: admin.token }), 400, /title/);
    expectError(await api.request('GET', `/v1/orgs/${org.id}/members/nobody/teams`, { token: admin.token }), 404);
    expectError(await api.request('GET', url, { token: outsider.token }), 404);
    expectError(await api.request('GET', url, { token: guest.token }), 403);
  });
});
