import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { expectClientError, expectError } from '../support/assertions.ts';
import { buildMember, buildOrg, buildTeam, TEST_CERTIFICATE, type Caller } from '../support/factories.ts';
import { role, startTestApi, type TestApi } from '../support/harness.ts';

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
  ({ org, owner: admin } = await buildOrg(em));
  editor = await buildMember(em, org, 'edit', { displayName: 'Edith Editor', email: `edith-${Date.now()}@example.test` });
  reader = await buildMember(em, org, 'read', { displayName: 'Rita Reader' });
  guest = await buildMember(em, org, null);
  outsider = (await buildOrg(em)).owner;
});
afterAll(() => api.close());

const path = (suffix = '') => `/v1/orgs/${org.id}/members${suffix}`;

describe('GET members', () => {
  it('lists members newest first by default, with team counts', async () => {
    await buildTeam(api.em(), org, [{ user: editor.user }]);
    const { data } = await api.client(admin.token).orgs.listMembersInOrganizationById(org.id);
    expect(data.count).toBe(4);
    expect(data.items.map((m) => m.id)).toEqual([guest.user.id, reader.user.id, editor.user.id, admin.user.id]);
    const edith = data.items.find((m) => m.id === editor.user.id)!;
    expect(edith).toMatchObject({ object: 'member', role: 'edit', teams: 1, spaces: 0, sso: false, disabled: false });
    expect(edith.user).toMatchObject({ object: 'user', id: editor.user.id, displayName: 'Edith Editor' });
  });

  it('filters by role (guest included), by search on name and e-mail, and orders', async () => {
    const client = api.client(admin.token).orgs;
    expect((await client.listMembersInOrganizationById(org.id, { role: role('edit') })).data.items.map((m) => m.id)).toEqual([editor.user.id]);
    expect((await client.listMembersInOrganizationById(org.id, { role: 'guest' })).data.items.map((m) => m.id)).toEqual([guest.user.id]);
    expect((await client.listMembersInOrganizationById(org.id, { search: 'rita' })).data.items.map((m) => m.id)).toEqual([reader.user.id]);
    expect((await client.listMembersInOrganizationById(org.id, { search: 'edith-' })).data.items.map((m) => m.id)).toEqual([editor.user.id]);
    expect((await client.listMembersInOrganizationById(org.id, { search: '%' })).data.items).toEqual([]);
    const asc = await client.listMembersInOrganizationById(org.id, { order: 'asc' });
    expect(asc.data.items[0]!.id).toBe(admin.user.id);
  });

  it('sorts by lastSeenAt listing only members who have been seen', async () => {
    await api.client(reader.token).orgs.updateOrganizationMemberLastSeenAt(org.id);
    await new Promise((r) => setTimeout(r, 5));
    await api.client(editor.token).orgs.updateOrganizationMemberLastSeenAt(org.id);
    const { data } = await api.client(admin.token).orgs.listMembersInOrganizationById(org.id, { sort: 'lastSeenAt' });
    expect(data.items.map((m) => m.id)).toEqual([editor.user.id, reader.user.id]);
    expect(data.items[0]!.lastSeenAt).toEqual(expect.any(String));
  });

  it('pages with stable tokens while members are added', async () => {
    const client = api.client(admin.token).orgs;
    const first = await client.listMembersInOrganizationById(org.id, { limit: 2, order: 'asc' });
    const extra = await buildMember(api.em(), org, 'comment');
    const second = await client.listMembersInOrganizationById(org.id, { limit: 10, order: 'asc', page: first.data.next!.page });
    const seen = [...first.data.items, ...second.data.items].map((m) => m.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(extra.user.id);
    await client.removeMemberFromOrganizationById(org.id, extra.user.id);
  });

  it('rejects bad filters, other organizations and guests', async () => {
    expectError(await api.request('GET', path('?role=owner'), { token: admin.token }), 400, /role/);
    expectError(await api.request('GET', path('?sort=name'), { token: admin.token }), 400, /sort/);
    expectError(await api.request('GET', path('?order=up'), { token: admin.token }), 400, /order/);
    expectError(await api.request('GET', path(), { token: outsider.token }), 404);
    expectError(await api.request('GET', '/v1/orgs/unknown/members', { token: admin.token }), 404);
    expectError(await api.request('GET', path(), { token: guest.token }), 403);
  });
});

describe('GET one member', () => {
  it('returns a member; a guest may read only themselves', async () => {
    const { data } = await api.client(reader.token).orgs.getMemberInOrganizationById(org.id, editor.user.id);
    expect(data.role).toBe('edit');
    expect((await api.client(guest.token).orgs.getMemberInOrganizationById(org.id, guest.user.id)).data.role).toBeNull();
    expectError(await api.request('GET', path(`/${editor.user.id}`), { token: guest.token }), 403);
    expectError(await api.request('GET', path('/nobody'), { token: admin.token }), 404);
    expectError(await api.request('GET', path(`/${outsider.user.id}`), { token: admin.token }), 404);
    expectError(await api.request('GET', path(`/${admin.user.id}`), { token: outsider.token }), 404);
    expectError(await api.request('GET', path(`/${'x'.repeat(200)}`), { token: admin.token }), 400, /userId/);
  });
});

describe('PATCH member', () => {
  it('changes a role', async () => {
    const target = await buildMember(api.em(), org, 'read');
    const { data } = await api.client(admin.token).orgs.updateMemberInOrganizationById(org.id, target.user.id, { role: role('review') });
    expect(data.role).toBe('review');
    const guestNow = await api.client(admin.token).orgs.updateMemberInOrganizationById(org.id, target.user.id, { role: null });
    expect(guestNow.data.role).toBeNull();
  });

  it('never demotes the last admin, but allows it when another admin remains', async () => {
    const em = api.em();
    const solo = await buildOrg(em);
    await expectClientError(
      api.client(solo.owner.token).orgs.updateMemberInOrganizationById(solo.org.id, solo.owner.user.id, { role: role('edit') }),
      400,
    );
    const second = await buildMember(em, solo.org, 'admin');
    const { data } = await api.client(second.token).orgs.updateMemberInOrganizationById(solo.org.id, solo.owner.user.id, { role: role('edit') });
    expect(data.role).toBe('edit');
    expectError(
      await api.request('PATCH', `/v1/orgs/${solo.org.id}/members/${second.user.id}`, { token: second.token, body: { role: 'read' } }),
      400,
      /last admin/,
    );
  });

  it('rejects bad roles, unknown members, other organizations and non-admins', async () => {
    expectError(await api.request('PATCH', path(`/${reader.user.id}`), { token: admin.token, body: { role: 'boss' } }), 400, /role/);
    expectError(await api.request('PATCH', path('/nobody'), { token: admin.token, body: { role: 'read' } }), 404);
    expectError(await api.request('PATCH', path(`/${reader.user.id}`), { token: outsider.token, body: { role: 'admin' } }), 404);
    expectError(await api.request('PATCH', path(`/${reader.user.id}`), { token: editor.token, body: { role: 'admin' } }), 403);
    expect((await api.client(admin.token).orgs.getMemberInOrganizationById(org.id, reader.user.id)).data.role).toBe('read');
  });
});

describe('DELETE member', () => {
  it('removes a member (204, also when absent) and members may leave', async () => {
    const em = api.em();
    const target = await buildMember(em, org, 'read');
    const leaver = await buildMember(em, org, 'read');
    expect((await api.request('DELETE', path(`/${target.user.id}`), { token: admin.token })).status).toBe(204);
    expect((await api.request('DELETE', path(`/${target.user.id}`), { token: admin.token })).status).toBe(204);
    expect((await api.request('DELETE', path(`/${leaver.user.id}`), { token: leaver.token })).status).toBe(204);
    expectError(await api.request('GET', `/v1/orgs/${org.id}`, { token: leaver.token }), 404);
  });

  it('keeps the last admin, and refuses other organizations and non-admins', async () => {
    const solo = await buildOrg(api.em());
    expectError(await api.request('DELETE', `/v1/orgs/${solo.org.id}/members/${solo.owner.user.id}`, { token: solo.owner.token }), 400);
    expectError(await api.request('DELETE', path(`/${reader.user.id}`), { token: outsider.token }), 404);
    expectError(await api.request('DELETE', path(`/${reader.user.id}`), { token: editor.token }), 403);
    expectError(await api.request('DELETE', '/v1/orgs/unknown/members/x', { token: admin.token }), 404);
  });
});

describe('POST ping', () => {
  it('updates the caller’s last-seen time', async () => {
    const before = Date.now();
    const res = await api.client(guest.token).orgs.updateOrganizationMemberLastSeenAt(org.id);
    expect(res.status).toBe(200);
    const member = await api.client(admin.token).orgs.getMemberInOrganizationById(org.id, guest.user.id);
    expect(Date.parse(member.data.lastSeenAt!)).toBeGreaterThanOrEqual(before - 1000);
    expectError(await api.request('POST', `/v1/orgs/${org.id}/ping`, { token: outsider.token }), 404);
    expectError(await api.request('POST', '/v1/orgs/unknown/ping', { token: admin.token }), 404);
  });
});

describe('POST members/{userId}/sso', () => {
  it('marks a member as SSO once the organization has a SAML provider', async () => {
    const em = api.em();
    const { org: ssoOrg, owner } = await buildOrg(em);
    const member = await buildMember(em, ssoOrg, 'read');
    const url = `/v1/orgs/${ssoOrg.id}/members/${member.user.id}/sso`;
    expectError(await api.request('POST', url, { token: owner.token }), 400, /SAML/);
    await api.client(owner.token).orgs.createOrganizationSamlProvider(ssoOrg.id, {
      label: 'Okta',
      ssoURL: 'https://idp.example.test/sso',
      entityID: 'https://idp.example.test/entity',
      certificate: TEST_CERTIFICATE,
    });
    const { data } = await api.client(owner.token).orgs.setUserAsSsoMemberForOrganization(ssoOrg.id, member.user.id);
    expect(data.sso).toBe(true);
    expectError(await api.request('POST', url, { token: member.token }), 403);
    expectError(await api.request('POST', url, { token: outsider.token }), 404);
    expectError(await api.request('POST', `/v1/orgs/${ssoOrg.id}/members/nobody/sso`, { token: owner.token }), 404);
  });
});
