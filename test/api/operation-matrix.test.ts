import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildMember, buildSpace } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { callerFor, fillPath, roleJustTooLow, unknownParams, type Cast, type MatrixCase, type MatrixRow, type PathParams } from '../support/operation-matrix.ts';
import { rows } from './operation-matrix.rows.ts';
import { Space } from '../../src/domain/entities/space.entity.ts';

type Operation = { operationId: string; method: string; path: string; permission?: { resource: string | null; actions: string[]; rules?: Record<string, string> } };

/**
 * The only operations without matrix rows, each with the reason: they have no subject to
 * build (so no unknown id, other organization or role to ask about), or their caller is
 * by design not a member. A new operation is in neither list and fails the check below.
 */
const WITHOUT_MATRIX: Record<string, string> = {
  getAuthenticatedUser: 'the caller itself',
  getApiInformation: 'public, no resource',
  listOrganizationsForAuthenticatedUser: "the caller's own organizations",
  downloadFile: 'signed link, the signature is the authority',
  downloadPdfExport: 'signed link, the signature is the authority',
  // The caller of these is by design not (yet) a member, so "another organization" and
  // "role too low" have no meaning; test/api/invites.test.ts and orgs.test.ts cover them.
  joinOrganizationWithInvite: 'an invite link admits whoever holds it',
  getOrganizationsForEmailDomain: "the subject is the caller's own e-mail domain",
};


let api: TestApi;
let cast: Cast;
const operations = new Map<string, Operation>();

beforeAll(async () => {
  // No worker runs the exports queue here: PDF exports answer their link without waiting.
  api = await startTestApi({ PDF_WAIT_MS: '0' });
  cast = await buildCast(api.em(), ['create', 'edit', 'review', 'comment', 'read', 'guest'] as const);
  const doc = (await api.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; 'x-vellum-permission'?: Operation['permission'] }>> };
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      operations.set(op.operationId, { operationId: op.operationId, method: method.toUpperCase(), path: `/v1${path.replace(/^\/v1/, '')}`, permission: op['x-vellum-permission'] });
    }
  }
});
afterAll(() => api.close());

const ctx = () => ({ api, cast });
const call = async (op: Operation, row: MatrixRow, params: PathParams, token: string, input: { body?: unknown; query?: string } = row) => {
  if (typeof input.body === 'function') input = { ...input, body: await input.body(ctx()) };
  const query = input.query ? `?${input.query}` : '';
  return api.request(op.method, `${fillPath(op.path, params)}${query}`, { token, ...(input.body !== undefined ? { body: input.body } : op.method === 'GET' || op.method === 'DELETE' ? {} : { body: {} }) });
};
const snapshot = async (row: MatrixRow, params: PathParams) => (row.observe ? JSON.stringify((await api.request('GET', row.observe(params), { token: cast.admin.token })).body) : null);

describe('the matrix covers the served document', () => {
  it('has a row, or a stated reason, for every operation', () => {
    const covered = new Set(rows.map((r) => r.operationId));
    expect(rows.map((r) => r.operationId).filter((id) => id in WITHOUT_MATRIX)).toEqual([]);
    expect(new Set(rows.map((r) => r.operationId)).size).toBe(rows.length);
    const missing = [...operations.keys()].filter((id) => !covered.has(id) && !(id in WITHOUT_MATRIX));
    expect(missing).toEqual([]);
    // A row or an exception for an operation the document no longer has is stale.
    expect([...covered, ...Object.keys(WITHOUT_MATRIX)].filter((id) => !operations.has(id))).toEqual([]);
  });
});

describe.each(rows.map((row) => [row.operationId, row] as const))('%s', (_, row) => {
  const op = () => operations.get(row.operationId)!;
  const subject = () => row.subject(ctx());
  // A case a known bug breaks is declared it.fails (see the row's knownBug).
  const test = (name: MatrixCase, skip = false) => (skip ? it.skip : row.knownBug?.case === name ? it.fails : it);

  // The organization admin, or for installation-only operations the organization's installation.
  const allowed = async () => (row.callers ? (await row.callers(ctx())).allowed : cast.admin.token);

  test('success')('succeeds for the organization admin', async () => {
    const res = await call(op(), row, await subject(), await allowed());
    expect(res.status, JSON.stringify(res.body)).toBe(row.status);
    if (res.body !== undefined) expect(res.body).not.toHaveProperty('error');
  });

  test('badInput')('refuses bad input with 400 and changes nothing', async () => {
    const params = await subject();
    const before = await snapshot(row, params);
    // Rows that take no body or query get the input every operation has: a path id
    // longer than any id may be (common.schema.ts Id, max 100).
    const res = row.bad
      ? await call(op(), row, params, await allowed(), { ...row, ...row.bad })
      : await call(op(), row, Object.fromEntries(Object.keys(params).map((k) => [k, 'x'.repeat(101)])), await allowed());
    expectError(res, 400);
    expect(await snapshot(row, params)).toBe(before);
  });

  test('unknownId')('answers 404 (or its documented status) for ids that do not exist', async () => {
    const res = await call(op(), row, unknownParams(await subject()), await allowed());
    if (row.ifMissing) expect(res.status).toBe(row.ifMissing);
    else expectError(res, 404);
  });

  test('otherOrganization')("answers 404 to another organization's admin and shows nothing of this one", async () => {
    const params = await subject();
    const before = await snapshot(row, params);
    const res = await call(op(), row, params, row.callers ? (await row.callers(ctx())).outsider : cast.outsider.token);
    if (row.ifMissing) expect(res.status).toBe(row.ifMissing);
    else expectError(res, 404);
    expect(JSON.stringify(res.body ?? '')).not.toContain(cast.org.title);
    expect(await snapshot(row, params)).toBe(before);
  });

  test('roleTooLow', row.tooLow === null)('refuses a role just too low and changes nothing', async () => {
    const params = await subject();
    const before = await snapshot(row, params);
    if (row.callers) {
      const { tooLow } = await row.callers(ctx());
      expectError(await call(op(), row, params, tooLow.token), tooLow.status);
    } else {
      const tooLow = row.tooLow === undefined ? roleJustTooLow(op().permission) : row.tooLow;
      expect(tooLow, `${row.operationId}: no role in x-vellum-permission; state one in the row`).not.toBeNull();
      expectError(await call(op(), row, params, callerFor(cast, tooLow!.role).token), tooLow!.status);
    }
    expect(await snapshot(row, params)).toBe(before);
  });
});

describe('privilege escalation through defaultLevel (issue 8)', () => {
  // A read member under defaultLevel "admin" must not act as an admin: levels are capped at the organization role.
  let spaceId: string;
  let reader: { token: string; user: { id: string } };
  beforeAll(async () => {
    reader = await buildMember(api.em(), cast.org, 'read');
    spaceId = (await buildSpace(api.em(), cast.org, cast.admin)).id;
    expect((await api.request('PATCH', `/v1/spaces/${spaceId}`, { token: cast.admin.token, body: { defaultLevel: 'admin' } })).status).toBe(200);
  });
  const stillPrivate = async () => {
    const space = await api.em().findOneOrFail(Space, { id: spaceId });
    expect(space.visibility).toBe('private');
    expect(space.deletedAt ?? null).toBeNull();
  };

  it('a read member may not change visibility', async () => {
    expectError(await api.request('PATCH', `/v1/spaces/${spaceId}`, { token: reader.token, body: { visibility: 'public' } }), 403);
    await stillPrivate();
  });

  it('a read member may not delete the space', async () => {
    expectError(await api.request('DELETE', `/v1/spaces/${spaceId}`, { token: reader.token }), 403);
    await stillPrivate();
  });

  it('a read member may not grant itself admin', async () => {
    expectError(await api.request('POST', `/v1/spaces/${spaceId}/permissions`, { token: reader.token, body: { role: 'admin', users: [reader.user.id] } }), 403);
    // The grant must not outlive a lowered default level either.
    await api.request('PATCH', `/v1/spaces/${spaceId}`, { token: cast.admin.token, body: { defaultLevel: 'inherit' } });
    const res = await api.request('GET', `/v1/spaces/${spaceId}`, { token: reader.token });
    expect(res.body.permissions.admin).toBe(false);
  });
});
