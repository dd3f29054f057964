import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { buildOrg, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let admin: Caller;
let orgId: string;

beforeAll(async () => {
  api = await startTestApi({ BODY_LIMIT: '2kb' });
  const built = await buildOrg(api.em());
  admin = built.owner;
  orgId = built.org.id;
});
afterAll(() => api.close());

describe('error shape', () => {
  it('answers unknown routes with 404 in the error shape', async () => {
    expectError(await api.request('GET', '/v1/nothing-here', { token: admin.token }), 404);
    expectError(await api.request('GET', '/elsewhere'), 404);
  });

  it('answers a known path with a wrong method with 405 in the error shape', async () => {
    expectError(await api.request('DELETE', '/v1/user', { token: admin.token }), 405);
  });

  it('answers a missing or unknown token with 401', async () => {
    expectError(await api.request('GET', '/v1/user'), 401, /token/);
    expectError(await api.request('GET', '/v1/user', { token: 'gb_api_unknown' }), 401);
    expectError(await api.request('GET', '/v1/user', { headers: { authorization: 'Basic abc' } }), 401);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, rawBody: '{"title": ' });
    expectError(res, 400, /Malformed JSON/);
  });

  it('answers JSON that is not an object with 400', async () => {
    expectError(await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, rawBody: '"title"' }), 400);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, body: { title: 'x'.repeat(5000) } });
    expectError(res, 413);
  });

  it('names the offending field in a 400', async () => {
    const res = await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, body: { title: 'x' } });
    expectError(res, 400, /body\.title/);
  });

  it('answers an installation token on a user-only operation with 403', async () => {
    const { buildInstallation } = await import('../support/factories.ts');
    const em = api.em();
    const { org } = await buildOrg(em);
    const { token } = await buildInstallation(em, org);
    expectError(await api.request('GET', '/v1/user', { token }), 403, /user token/);
  });
});

describe('operations endpoints', () => {
  it('reports liveness and readiness', async () => {
    expect((await api.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await api.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'up', redis: 'up' } });
  });

  it('exports request metrics by route template and status', async () => {
    await api.request('GET', `/v1/orgs/${orgId}`, { token: admin.token });
    const res = await fetch(`${api.baseUrl}/metrics`);
    const text = await res.text();
    expect(text).toMatch(/vellum_http_requests_total\{method="GET",route="\/v1\/orgs\/:organizationId",status="200"\} \d+/);
    expect(text).toContain('vellum_http_request_duration_seconds_bucket');
    for (const queue of ['maintenance', 'imports', 'openapi']) {
      expect(text).toMatch(new RegExp(`vellum_queue_jobs\\{queue="${queue}",state="waiting"\\} \\d+`));
      expect(text).toMatch(new RegExp(`vellum_queue_oldest_waiting_seconds\\{queue="${queue}"\\} [\\d.]+`));
    }
  });

  it('echoes a sane request id and makes one otherwise', async () => {
    const given = await api.request('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await api.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('OpenAPI document', () => {
  it('lists every implemented operation with the seed operationIds', async () => {
    const res = await api.request('GET', '/v1/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    const ids = Object.values(res.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    for (const id of [
      'listOrganizationsForAuthenticatedUser',
      'getOrganizationById',
      'updateOrganizationById',
      'deleteOrganizationInviteById',
      'joinOrganization',
      'getOrganizationAgentInstructions',
      'updateOrganizationAgentInstructions',
      'getOrganizationsForEmailDomain',
      'listMembersInOrganizationById',
      'getMemberInOrganizationById',
      'removeMemberFromOrganizationById',
      'updateMemberInOrganizationById',
      'updateOrganizationMemberLastSeenAt',
      'setUserAsSSOMemberForOrganization',
      'listTeamsForOrganizationMember',
      'listTeamsInOrganizationById',
      'createOrganizationTeam',
      'getTeamInOrganizationById',
      'removeTeamFromOrganizationById',
      'updateTeamInOrganizationById',
      'listSAMLProvidersInOrganizationById',
      'createOrganizationSAMLProvider',
      'getOrganizationSAMLProviderById',
      'deleteOrganizationSAMLProvider',
      'updateOrganizationSAMLProvider',
      'listSSOProviderLoginsInOrganization',
      'createOrganizationInvite',
      'inviteUsersToOrganization',
      'getAuthenticatedUser',
      'listCollectionsInOrganizationById',
      'createCollection',
      'getCollectionById',
      'updateCollectionById',
      'deleteCollectionById',
      'listSpacesInCollectionById',
      'moveCollection',
      'transferCollection',
      'createSpace',
      'getSpaceById',
      'updateSpaceById',
      'deleteSpaceById',
      'duplicateSpace',
      'restoreSpace',
      'moveSpace',
      'transferSpace',
      'listSpacesInOrganizationById',
      'listSpacesForOrganizationMember',
      'listSpaceLinks',
      'getCurrentRevision',
      'listPages',
      'getPageById',
      'listFiles',
      'getFileById',
      'listPageLinksInSpace',
      'listSpacePageBacklinks',
      'listSpaceFileBacklinks',
      'getRevisionById',
      'applyTemplateToSpace',
      'searchSpaceContent',
      'searchOrganizationContent',
      'importGitRepository',
      'startImportRun',
      'cancelImportRun',
    ]) {
      expect(ids).toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(res.body.components.schemas.Organization.properties.permissions).toBeDefined();
  });
});

describe('input the database cannot store', () => {
  it('refuses NUL characters in body, query and path with 400, changing nothing', async () => {
    const body = await api.request('PATCH', `/v1/orgs/${orgId}`, { token: admin.token, rawBody: '{"title":"ab\\u0000cd"}' });
    expectError(body, 400, /body\.title.*NUL/);
    expectError(await api.request('GET', `/v1/orgs/${orgId}/members?search=a%00b`, { token: admin.token }), 400, /query\.search/);
    expectError(await api.request('GET', `/v1/orgs/a%00b`, { token: admin.token }), 400, /organizationId/);
    const key = await api.request('PUT', `/v1/orgs/${orgId}/agent-instructions`, {
      token: admin.token,
      rawBody: '{"instructions":{"object":"document","data":{"a\\u0000":1},"nodes":[]}}',
    });
    expectError(key, 400, /NUL/);
  });

  it('turns an unexpected failure into a bare 500 that reveals nothing', async () => {
    const { mapError } = await import('../../src/api/middleware/errors.ts');
    expect(mapError(new Error('password=hunter2 at db.internal'))).toEqual({ status: 500, message: 'Internal server error' });
    expect(mapError(new TypeError('x is undefined'))).toEqual({ status: 500, message: 'Internal server error' });
  });
});
