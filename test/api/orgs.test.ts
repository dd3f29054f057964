import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Organization } from '../../src/domain/entities/organization.entity.ts';
import { expectClientError, expectError } from '../support/assertions.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { buildInstallation, buildMember, buildOrg, buildUser, type Caller } from '../support/factories.ts';
import { role, startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let admin: Caller;
let orgId: string;
let reader: Caller;
let outsider: Caller;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const built = await buildOrg(em);
  admin = built.owner;
  orgId = built.org.id;
  reader = await buildMember(em, built.org, 'read');
  outsider = (await buildOrg(em)).owner;
});
afterAll(() => api.close());

describe('GET /orgs', () => {
  it('lists only the caller’s organizations, paged', async () => {
    const em = api.em();
    const caller = await buildUser(em);
    for (let i = 0; i < 3; i++) await buildOrg(em, { owner: caller });
    const first = await api.client(caller.token).orgs.listOrganizationsForAuthenticatedUser({ limit: 2 });
    expect(first.data.items).toHaveLength(2);
    expect(first.data.count).toBe(3);
    expect(first.data.next?.page).toEqual(expect.any(String));
    expectPublishedShape(first, 'GET', '/orgs');
    const second = await api.client(caller.token).orgs.listOrganizationsForAuthenticatedUser({ limit: 2, page: first.data.next!.page });
    expect(second.data.items).toHaveLength(1);
    expect(second.data.next).toBeUndefined();
    const ids = [...first.data.items, ...second.data.items].map((o) => o.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids).not.toContain(orgId);
  });

  it('rejects a limit over 1000 and a malformed page token', async () => {
    expectError(await api.request('GET', '/v1/orgs?limit=1001', { token: admin.token }), 400, /limit/);
    expectError(await api.request('GET', '/v1/orgs?page=not-a-token', { token: admin.token }), 400, /page/);
    const foreign = Buffer.from(JSON.stringify(['x'])).toString('base64url');
    expectError(await api.request('GET', `/v1/orgs?page=${foreign}`, { token: admin.token }), 400, /page/);
  });
});

describe('GET /orgs/{organizationId}', () => {
  it('returns the organization with the caller’s permissions', async () => {
    const res = await api.client(admin.token).orgs.getOrganizationById(orgId);
    expectPublishedShape(res, 'GET', '/orgs/{organizationId}');
    const { data } = res;
    expect(data).toMatchObject({ object: 'organization', id: orgId, type: 'business', internal_isOnNewTrial: true });
    expect(data.permissions.admin).toBe(true);
    expect(data.urls.location).toBe(`http://vellum.test/v1/orgs/${orgId}`);
    const asReader = await api.client(reader.token).orgs.getOrganizationById(orgId);
    expect(asReader.data.permissions).toMatchObject({ view: true, admin: false, createContent: false, listMembers: true });
  });

  it('accepts an integration installation token of that organization', async () => {
    const em = api.em();
    const org = await em.findOneOrFail(Organization, { id: orgId });
    const { token } = await buildInstallation(em, org);
    const { data } = await api.client(token).orgs.getOrganizationById(orgId);
    expect(data.permissions).toMatchObject({ view: true, ingestConversations: true, admin: false });
    expectError(await api.request('GET', `/v1/orgs/${(await buildOrg(em)).org.id}`, { token }), 404);
  });

  it('answers 404 for an unknown id and for another organization', async () => {
    await expectClientError(api.client(admin.token).orgs.getOrganizationById('doesnotexist'), 404);
    await expectClientError(api.client(outsider.token).orgs.getOrganizationById(orgId), 404);
  });
});

describe('PATCH /orgs/{organizationId}', () => {
  it('updates the given fields and nothing else', async () => {
    const res = await api.client(admin.token).orgs.updateOrganizationById(orgId, {
      title: 'Renamed org',
      emailDomains: ['Example.TEST', 'example.test'],
      defaultRole: role('comment'),
      inviteLinks: false,
      logo: 'https://cdn.example.test/logo.png',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
    });
    expectPublishedShape(res, 'PATCH', '/orgs/{organizationId}');
    const { data } = res;
    expect(data).toMatchObject({ title: 'Renamed org', emailDomains: ['example.test'], defaultRole: 'comment', inviteLinks: false });
    expect(data.urls.logo).toBe('https://cdn.example.test/logo.png');
    const again = await api.client(admin.token).orgs.getOrganizationById(orgId);
    expect(again.data.mergeRules).toEqual({ type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] });
    await api.client(admin.token).orgs.updateOrganizationById(orgId, { inviteLinks: true, defaultRole: role('read') });
  });

  it('rejects bad input with 400 naming the field, changing nothing', async () => {
    expectError(await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, body: { title: 'ok title', hostname: 'NO' } }), 400, /hostname/);
    expectError(await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, body: { emailDomains: ['not a domain'] } }), 400, /emailDomains/);
    expectError(await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, body: { defaultRole: 'owner' } }), 400, /defaultRole/);
    expectError(
      await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, body: { defaultContent: { type: 'site', site: 'nope' } } }),
      400,
      /defaultContent/,
    );
    expectError(
      await api.request('PATCH', `/v1/orgs/${orgId}`, {
        token: admin.token,
        body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['ghost'] }] } },
      }),
      400,
      /ghost/,
    );
    const { data } = await api.client(admin.token).orgs.getOrganizationById(orgId);
    expect(data.title).not.toBe('ok title');
  });

  it('answers 409 when the hostname is taken by another organization', async () => {
    const other = await buildOrg(api.em());
    const hostname = `h${Date.now()}`;
    const withHostname = await api.client(other.owner.token).orgs.updateOrganizationById(other.org.id, { hostname });
    expectPublishedShape(withHostname, 'PATCH', '/orgs/{organizationId}');
    expect(withHostname.data.hostname).toBe(hostname);
    expectError(await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, body: { hostname } }), 409);
  });

  it('answers 404 unknown, 404 other organization, 403 role too low', async () => {
    expectError(await api.request('PATCH', '/v1/orgs/unknown', { token: admin.token, body: { title: 'New title' } }), 404);
    expectError(await api.request('PATCH', `/v1/orgs/${orgId}`, { token: outsider.token, body: { title: 'New title' } }), 404);
    expectError(await api.request('PATCH', `/v1/orgs/${orgId}`, { token: reader.token, body: { title: 'New title' } }), 403);
  });
});

describe('POST /orgs/{organizationId}/join', () => {
  it('admits a caller whose e-mail domain is allowed, with the default role', async () => {
    const em = api.em();
    const { org, owner } = await buildOrg(em);
    await api.client(owner.token).orgs.updateOrganizationById(org.id, { emailDomains: ['joiners.test'], defaultRole: role('edit') });
    const joiner = await buildUser(em, { email: `j${Date.now()}@joiners.test` });
    const res = await api.client(joiner.token).orgs.joinOrganization(org.id);
    expect(res.status).toBe(204);
    const member = await api.client(owner.token).orgs.getMemberInOrganizationById(org.id, joiner.user.id);
    expect(member.data.role).toBe('edit');
    expect((await api.client(joiner.token).orgs.joinOrganization(org.id)).status).toBe(204);
  });

  it('answers an outsider from another domain exactly as for an unknown organization (404)', async () => {
    const stranger = await buildUser(api.em(), { email: `s${Date.now()}@elsewhere.test` });
    const refused = await api.request('POST', `/v1/orgs/${orgId}/join`, { token: stranger.token });
    const unknown = await api.request('POST', '/v1/orgs/no-such-org/join', { token: stranger.token });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(unknown.body);
    await expectClientError(api.client(stranger.token).orgs.joinOrganization('no-such-org'), 404);
    await expectClientError(api.client(stranger.token).orgs.getOrganizationById(orgId), 404);
  });
});

describe('agent instructions', () => {
  const doc = { object: 'document' as const, data: { schemaVersion: 1 }, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }] };

  it('stores and returns the document', async () => {
    await expectClientError(api.client(admin.token).orgs.getOrganizationAgentInstructions(orgId), 404);
    const put = await api.client(admin.token).orgs.updateOrganizationAgentInstructions(orgId, { instructions: doc as never });
    expectPublishedShape(put, 'PUT', '/orgs/{organizationId}/agent-instructions');
    expect(put.data).toMatchObject({ object: 'agent-instructions', instructions: doc, updatedBy: admin.user.id });
    const got = await api.client(reader.token).orgs.getOrganizationAgentInstructions(orgId);
    expectPublishedShape(got, 'GET', '/orgs/{organizationId}/agent-instructions');
    expect(got.data.instructions).toEqual(doc);
    expect(got.data.urls.location).toBe(`http://vellum.test/v1/orgs/${orgId}/agent-instructions`);
  });

  it('rejects a body that is not a document, other organizations and readers writing', async () => {
    const path = `/v1/orgs/${orgId}/agent-instructions`;
    expectError(await api.request('PUT', path, { token: admin.token, body: { instructions: 'text' } }), 400, /instructions/);
    expectError(await api.request('PUT', path, { token: reader.token, body: { instructions: doc } }), 403);
    expectError(await api.request('GET', path, { token: outsider.token }), 404);
    expectError(await api.request('PUT', '/v1/orgs/unknown/agent-instructions', { token: admin.token, body: { instructions: doc } }), 404);
  });
});

describe('GET /email-domains/{emailDomain}/orgs', () => {
  it('lists organizations that admit the caller’s own domain, and only that domain', async () => {
    const em = api.em();
    const domain = `d${Date.now()}.test`;
    const { org, owner } = await buildOrg(em);
    await api.client(owner.token).orgs.updateOrganizationById(org.id, { emailDomains: [domain] });
    const person = await buildUser(em, { email: `p@${domain}` });
    const found = await api.client(person.token).emailDomains.getOrganizationsForEmailDomain(domain);
    expectPublishedShape(found, 'GET', '/email-domains/{emailDomain}/orgs');
    const { data } = found;
    expect(data.organizations.map((o) => o.id)).toEqual([org.id]);
    expect(data.organizations[0]!.permissions.view).toBe(false);
    expectError(await api.request('GET', '/v1/email-domains/other.test/orgs', { token: person.token }), 403, /your own e-mail domain/);
    expectError(await api.request('GET', '/v1/email-domains/not_a_domain/orgs', { token: person.token }), 400);
  });
});
