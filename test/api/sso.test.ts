import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildInstallation, buildMember, buildOrg, buildTeam, type Caller, TEST_CERTIFICATE } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let outsider: Caller;

const valid = () => ({
  label: 'Okta',
  ssoURL: 'https://idp.example.test/sso',
  entityID: 'https://idp.example.test/entity',
  certificate: TEST_CERTIFICATE,
});

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { edit: editor } } = await buildCast(em, ['edit'] as const));
});
afterAll(() => api.close());

const saml = (suffix = '') => `/v1/orgs/${org.id}/saml${suffix}`;

describe('SAML providers', () => {
  it('creates (201 + Location) with service endpoints built from PUBLIC_URL', async () => {
    const team = await buildTeam(api.em(), org);
    const res = await api.request('POST', saml(), { token: admin.token, body: { ...valid(), defaultTeam: team.id, defaultRole: 'read' } });
    expect(res.status).toBe(201);
    expectPublishedShape(res, 'POST', '/orgs/{organizationId}/saml');
    const id = res.body.id;
    expect(res.headers.get('location')).toBe(`http://vellum.test/v1/orgs/${org.id}/saml/${id}`);
    expect(res.body).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      status: 'active',
      defaultRole: 'read',
      defaultTeam: { id: team.id, object: 'team' },
      service: {
        acsURL: `http://vellum.test/sso/saml/${id}/acs`,
        startURL: `http://vellum.test/sso/saml/${id}/start`,
        entityID: `http://vellum.test/sso/saml/${id}/metadata`,
      },
    });
  });

  it('lists, reads, patches and deletes (205 then 204) through the published client', async () => {
    const client = api.client(admin.token).orgs;
    const created = await client.createOrganizationSamlProvider(org.id, valid());
    const id = created.data.id;
    const listed = await client.listSamlProvidersInOrganizationById(org.id);
    expectPublishedShape(listed, 'GET', '/orgs/{organizationId}/saml');
    expect(listed.data.items.map((p) => p.id)).toContain(id);
    const got = await client.getOrganizationSamlProviderById(org.id, id);
    expectPublishedShape(got, 'GET', '/orgs/{organizationId}/saml/{samlProviderId}');
    expect(got.data.entityID).toBe(valid().entityID);
    const patched = await client.updateOrganizationSamlProvider(org.id, id, { label: 'Renamed', defaultRole: null });
    expectPublishedShape(patched, 'PATCH', '/orgs/{organizationId}/saml/{samlProviderId}');
    expect(patched.data).toMatchObject({ label: 'Renamed', defaultRole: null, ssoURL: valid().ssoURL });
    expect((await api.request('DELETE', saml(`/${id}`), { token: admin.token })).status).toBe(205);
    expect((await api.request('DELETE', saml(`/${id}`), { token: admin.token })).status).toBe(204);
    expectError(await api.request('GET', saml(`/${id}`), { token: admin.token }), 404);
  });

  it('rejects a certificate that is not PEM X.509 and an ssoURL that is not https', async () => {
    const bad = async (body: object, field: RegExp) =>
      expectError(await api.request('POST', saml(), { token: admin.token, body: { ...valid(), ...body } }), 400, field);
    await bad({ certificate: 'hello' }, /certificate/);
    const broken = TEST_CERTIFICATE.replace(/\n[A-Za-z0-9+/]{10}/, '\nAAAAAAAAAA');
    await bad({ certificate: broken }, /certificate/);
    await bad({ ssoURL: 'http://idp.example.test/sso' }, /ssoURL/);
    await bad({ ssoURL: 'not a url' }, /ssoURL/);
    await bad({ label: '' }, /label/);
    await bad({ defaultTeam: 'no-such-team' }, /defaultTeam/);
    const list = await api.client(admin.token).orgs.listSamlProvidersInOrganizationById(org.id);
    expect(list.data.items.every((p) => p.label !== '')).toBe(true);
    const existing = list.data.items[0]!;
    expectError(await api.request('PATCH', saml(`/${existing.id}`), { token: admin.token, body: { certificate: 'nope' } }), 400, /certificate/);
  });

  it('answers 404 for unknown providers and other organizations, 403 for non-admins', async () => {
    const { data } = await api.client(admin.token).orgs.createOrganizationSamlProvider(org.id, valid());
    expectError(await api.request('GET', saml('/unknown'), { token: admin.token }), 404);
    expectError(await api.request('PATCH', saml('/unknown'), { token: admin.token, body: { label: 'x' } }), 404);
    expectError(await api.request('GET', saml(`/${data.id}`), { token: outsider.token }), 404);
    expectError(await api.request('DELETE', saml(`/${data.id}`), { token: outsider.token }), 404);
    expectError(await api.request('POST', saml(), { token: outsider.token, body: valid() }), 404);
    expectError(await api.request('GET', saml(), { token: editor.token }), 403);
    expectError(await api.request('POST', saml(), { token: editor.token, body: valid() }), 403);
    expectError(await api.request('PATCH', saml(`/${data.id}`), { token: editor.token, body: { label: 'x' } }), 403);
    expectError(await api.request('DELETE', saml(`/${data.id}`), { token: editor.token }), 403);
  });
});

describe('GET /orgs/{organizationId}/sso', () => {
  it('lists the entry points to members and to the organization’s integrations', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const { data: p } = await api.client(owner.token).orgs.createOrganizationSamlProvider(o.id, valid());
    const reader = await buildMember(em, o, 'read');
    const res = await api.client(reader.token).orgs.listSsoProviderLoginsInOrganization(o.id);
    expectPublishedShape(res, 'GET', '/orgs/{organizationId}/sso');
    const { data } = res;
    expect(data.items).toEqual([{ id: p.id, label: 'Okta', startURL: `http://vellum.test/sso/saml/${p.id}/start` }]);
    const { token } = await buildInstallation(em, o);
    expect((await api.request('GET', `/v1/orgs/${o.id}/sso`, { token })).status).toBe(200);
    expectError(await api.request('GET', `/v1/orgs/${o.id}/sso`, { token: outsider.token }), 404);
    expectError(await api.request('GET', '/v1/orgs/unknown/sso', { token: owner.token }), 404);
    expectError(await api.request('GET', `/v1/orgs/${'x'.repeat(101)}/sso`, { token: owner.token }), 400);
  });
});
