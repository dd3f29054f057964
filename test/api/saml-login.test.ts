import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Member } from '../../src/domain/entities/member.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { TeamMembership } from '../../src/domain/entities/team-membership.entity.ts';
import { User } from '../../src/domain/entities/user.entity.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { expectError } from '../support/assertions.ts';
import { buildOrg, buildTeam, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { authnRequestOf, IDP_CERT, IDP_ENTITY_ID, signedResponse, strangerKey } from '../support/test-idp.ts';

/**
 * The SAML endpoints each provider advertises (`service.acsURL/startURL/entityID`) are
 * served: an identity provider configured from the metadata signs people in.
 */
let api: TestApi;
let org: Organization;
let admin: Caller;
let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };
let teamId: string;

beforeAll(async () => {
  api = await startTestApi();
  ({ org, owner: admin } = await buildOrg(api.em()));
  teamId = (await buildTeam(api.em(), org)).id;
  const res = await api.request('POST', `/v1/orgs/${org.id}/saml`, {
    token: admin.token,
    body: { label: 'Test IdP', ssoURL: 'https://idp.example.test/sso', entityID: IDP_ENTITY_ID, certificate: IDP_CERT, defaultRole: 'read', defaultTeam: teamId },
  });
  expect(res.status).toBe(201);
  provider = res.body;
});
afterAll(() => api.close());

const path = (url: string) => new URL(url).pathname;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const postAcs = (samlResponse: string, accept = 'application/json') =>
  api.request('POST', path(provider.service.acsURL), { rawBody: form({ SAMLResponse: samlResponse }), headers: { 'content-type': 'application/x-www-form-urlencoded', accept } });

/** Starts a login the way a browser does and returns the request id the identity provider must answer. */
async function startLogin(): Promise<string> {
  const res = await fetch(`${api.baseUrl}${path(provider.service.startURL)}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = res.headers.get('location')!;
  expect(location.startsWith('https://idp.example.test/sso?')).toBe(true);
  return authnRequestOf(location).id;
}

const answer = (inResponseTo: string, email: string, extra: Partial<Parameters<typeof signedResponse>[0]> = {}) =>
  signedResponse({ inResponseTo, email, acsURL: provider.service.acsURL, audience: provider.service.entityID, ...extra });

describe('SAML service-provider endpoints', () => {
  it('serves metadata naming the advertised entity id and assertion consumer', async () => {
    const res = await api.request('GET', path(provider.service.entityID));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    expect(res.body).toContain(`entityID="${provider.service.entityID}"`);
    expect(res.body).toContain(`Location="${provider.service.acsURL}"`);
  });

  it('starts a login with an AuthnRequest for the advertised assertion consumer', async () => {
    const res = await fetch(`${api.baseUrl}${path(provider.service.startURL)}`, { redirect: 'manual' });
    const request = authnRequestOf(res.headers.get('location')!);
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
    expect(request.xml).toContain(`<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${provider.service.entityID}</saml:Issuer>`);
  });

  it('signs a new person in: account, membership with the default role and team, marked sso, and a working token', async () => {
    const email = `saml-${newId()}@example.test`.toLowerCase();
    const res = await postAcs(answer(await startLogin(), email));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ user: { email }, organization: org.id });
    const me = await api.request('GET', '/v1/user', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    const member = await api.em().findOneOrFail(Member, { organization: org, user: { email } });
    expect(member).toMatchObject({ role: 'read', sso: true });
    expect(await api.em().count(TeamMembership, { team: teamId, member })).toBe(1);
  });

  it('keeps an existing member’s role and shows the token on a page that runs nothing', async () => {
    const email = `saml-${newId()}@example.test`.toLowerCase();
    await postAcs(answer(await startLogin(), email));
    await api.em().nativeUpdate(Member, { organization: org, user: { email } }, { role: 'edit' });
    const res = await postAcs(answer(await startLogin(), email), 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.body).toMatch(/gb_api_\w+/);
    expect((await api.em().findOneOrFail(Member, { organization: org, user: { email } })).role).toBe('edit');
  });

  it('refuses a disabled member (403) and issues no token', async () => {
    const email = `saml-${newId()}@example.test`.toLowerCase();
    await postAcs(answer(await startLogin(), email));
    await api.em().nativeUpdate(Member, { organization: org, user: { email } }, { disabled: true });
    expectError(await postAcs(answer(await startLogin(), email)), 403);
  });

  it('accepts a response once: a replay, even of concurrent copies, signs in no one else', async () => {
    const email = `saml-${newId()}@example.test`.toLowerCase();
    const response = answer(await startLogin(), email);
    const results = await Promise.all(Array.from({ length: 6 }, () => postAcs(response)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    const replay = await postAcs(response);
    expectError(replay, 401);
    expect(await api.em().count(User, { email })).toBe(1);
  });

  it('refuses what the trusted identity provider did not sign, or nobody asked for, and creates nothing', async () => {
    const forged = `saml-${newId()}@example.test`.toLowerCase();
    expectError(await postAcs(answer(await startLogin(), forged, { signingKey: strangerKey() })), 401);
    expectError(await postAcs(answer(`_unsolicited${newId()}`, forged)), 401);
    expectError(await postAcs(answer(await startLogin(), forged, { issuer: 'https://evil.example.test' })), 401);
    expectError(await postAcs(answer(await startLogin(), forged, { audience: 'https://someone-else.example.test' })), 401);
    expect(await api.em().count(User, { email: forged })).toBe(0);
  });

  it('answers bad input with 400 and unknown providers with 404, in the error shape', async () => {
    expectError(await api.request('POST', path(provider.service.acsURL), { rawBody: 'nothing=here', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 400);
    expectError(await postAcs('bm90IHhtbA=='), 401);
    expectError(await api.request('GET', `/sso/saml/${newId()}/metadata`), 404);
    expectError(await api.request('GET', '/sso/saml/..%2F..%2Fetc/start'), 404);
    expectError(await api.request('GET', path(provider.service.acsURL)), 405);
  });
});
