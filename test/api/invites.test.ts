import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { expectClientError, expectError } from '../support/assertions.ts';
import { buildCast, buildOrg, buildUser, type Caller } from '../support/factories.ts';
import { role, startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let outsider: Caller;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { edit: editor } } = await buildCast(em, ['edit'] as const));
});
afterAll(() => api.close());

const links = (suffix = '') => `/v1/orgs/${org.id}/link-invites${suffix}`;

describe('invite links', () => {
  it('creates a link (201) that lets a stranger join with its role', async () => {
    const created = await api.client(admin.token).orgs.createOrganizationInvite(org.id, { role: role('comment') });
    expectPublishedShape(created, 'POST', '/orgs/{organizationId}/link-invites');
    const invite = created.data;
    expect(invite).toMatchObject({ object: 'invite', role: 'comment', redundant: false });
    const stranger = await buildUser(api.em());
    const joined = await api.client(stranger.token).orgs.joinOrganizationWithInvite(org.id, invite.id);
    expect(joined.data).toEqual({});
    expectPublishedShape(joined, 'POST', '/orgs/{organizationId}/invites/{inviteId}');
    const member = await api.client(admin.token).orgs.getMemberInOrganizationById(org.id, stranger.user.id);
    expect(member.data.role).toBe('comment');
  });

  it('lists, reads, changes and deletes links (205, then 204 when absent)', async () => {
    const client = api.client(admin.token).orgs;
    const { data: invite } = await client.createOrganizationInvite(org.id, { role: role('read') });
    const listed = await client.listOrganizationInviteLinks(org.id);
    expectPublishedShape(listed, 'GET', '/orgs/{organizationId}/link-invites');
    expect(listed.data.items.map((i) => i.id)).toContain(invite.id);
    const patched = await client.updateOrganizationInviteById(org.id, invite.id, { role: role('edit') });
    expectPublishedShape(patched, 'PATCH', '/orgs/{organizationId}/link-invites/{inviteId}');
    expect((patched.data as { role?: string }).role).toBe('edit');
    expect((await api.request('DELETE', links(`/${invite.id}`), { token: admin.token })).status).toBe(205);
    expect((await api.request('DELETE', links(`/${invite.id}`), { token: admin.token })).status).toBe(204);
    const stranger = await buildUser(api.em());
    await expectClientError(api.client(stranger.token).orgs.joinOrganizationWithInvite(org.id, invite.id), 404);
  });

  it('refuses joining while invite links are disabled', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const { data: invite } = await api.client(owner.token).orgs.createOrganizationInvite(o.id, { role: role('read') });
    await api.client(owner.token).orgs.updateOrganizationById(o.id, { inviteLinks: false });
    const stranger = await buildUser(em);
    expectError(await api.request('POST', `/v1/orgs/${o.id}/invites/${invite.id}`, { token: stranger.token }), 403, /disabled/);
  });

  it('makes a link for guests (role null)', async () => {
    const res = await api.client(admin.token).orgs.createOrganizationInvite(org.id, { role: null });
    expectPublishedShape(res, 'POST', '/orgs/{organizationId}/link-invites');
    expect(res.data).toMatchObject({ object: 'invite', role: null });
  });

  it('answers 400, 404, other organization and role too low', async () => {
    const { data: invite } = await api.client(admin.token).orgs.createOrganizationInvite(org.id, { role: role('read') });
    expectError(await api.request('POST', links(), { token: admin.token, body: { role: 'chief' } }), 400, /role/);
    expectError(await api.request('POST', links(), { token: admin.token, body: {} }), 400, /role/);
    expectError(await api.request('GET', links('/unknown'), { token: admin.token }), 404);
    expectError(await api.request('DELETE', links(`/${invite.id}`), { token: outsider.token }), 404);
    expectError(await api.request('POST', links(), { token: outsider.token, body: { role: 'read' } }), 404);
    expectError(await api.request('POST', links(), { token: editor.token, body: { role: 'read' } }), 403);
    expectError(await api.request('DELETE', links(`/${invite.id}`), { token: editor.token }), 403);
    expectError(await api.request('GET', links(), { token: editor.token }), 403);
    const got = await api.client(admin.token).orgs.getOrganizationInviteLink(org.id, invite.id);
    expectPublishedShape(got, 'GET', '/orgs/{organizationId}/link-invites/{inviteId}');
    expect(got.data.id).toBe(invite.id);
  });
});

describe('POST /orgs/{organizationId}/invites', () => {
  it('adds existing users, creates accounts for new addresses and skips members', async () => {
    const existing = await buildUser(api.em());
    const fresh = `new-${Date.now()}@invited.test`;
    const res = await api.client(admin.token).orgs.inviteUsersToOrganization(org.id, {
      emails: [existing.user.email, { email: fresh, role: role('edit') }, editor.user.email, fresh.toUpperCase()],
      role: role('comment'),
    });
    expectPublishedShape(res, 'POST', '/orgs/{organizationId}/invites');
    const { data } = res;
    expect(data.invited).toBe(2);
    expect(data.users).toHaveLength(2);
    expect(data.users).toContain(existing.user.id);
    const members = await api.client(admin.token).orgs.listMembersInOrganizationById(org.id, { search: 'new-' });
    expect(members.data.items.map((m) => m.role)).toEqual(['edit']);
    const existingMember = await api.client(admin.token).orgs.getMemberInOrganizationById(org.id, existing.user.id);
    expect(existingMember.data.role).toBe('comment');
  });

  it('rejects bad addresses without adding anyone, other organizations and non-admins', async () => {
    const before = (await api.client(admin.token).orgs.listMembersInOrganizationById(org.id)).data.count;
    const url = `/v1/orgs/${org.id}/invites`;
    expectError(await api.request('POST', url, { token: admin.token, body: { emails: ['ok@x.test', 'not-an-email'] } }), 400, /emails/);
    expectError(await api.request('POST', url, { token: admin.token, body: { emails: [] } }), 400, /emails/);
    expect((await api.client(admin.token).orgs.listMembersInOrganizationById(org.id)).data.count).toBe(before);
    expectError(await api.request('POST', url, { token: outsider.token, body: { emails: ['a@b.test'] } }), 404);
    expectError(await api.request('POST', '/v1/orgs/unknown/invites', { token: admin.token, body: { emails: ['a@b.test'] } }), 404);
    expectError(await api.request('POST', url, { token: editor.token, body: { emails: ['a@b.test'] } }), 403);
  });
});
