import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GlossaryEntry } from '../../src/domain/entities/glossary-entry.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildOrg, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** A fresh organization per test: the glossary is organization-wide, so tests must not share one. */
async function setup() {
  const { org, admin, outsider, members } = await buildCast(api.em(), ['create', 'review', 'read', 'guest'] as const);
  return { org, admin, outsider, creator: members.create, reviewer: members.review, reader: members.read, guest: members.guest };
}

const path = (org: { id: string }, suffix = '') => `/v1/orgs/${org.id}/translations-glossary${suffix}`;
const batch = (as: Caller, org: Organization, operations: unknown) => api.request('PUT', path(org), { token: as.token, body: { operations } });
const insert = (translations: Record<string, string>) => ({ type: 'insert', translations });

/** The organization's entries as stored: what a refused batch must leave untouched. */
const stored = async (org: Organization) =>
  (await api.em().find(GlossaryEntry, { organization: org.id }, { orderBy: { id: 'asc' } })).map((e) => ({ id: e.id, translations: e.translations }));

async function inserted(as: Caller, org: Organization, translations: Array<Record<string, string>>) {
  const res = await batch(as, org, translations.map(insert));
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  const list = await api.request('GET', path(org, '?limit=1000'), { token: as.token });
  return list.body.items as Array<{ id: string; translations: Record<string, string>; createdAt: string; updatedAt: string }>;
}

describe('PUT /orgs/{organizationId}/translations-glossary', () => {
  it('inserts, updates and deletes in one batch through the published client (204)', async () => {
    const s = await setup();
    const [kept, gone] = await inserted(s.admin, s.org, [{ en: 'Space', fr: 'Espace' }, { en: 'Bin', fr: 'Corbeille' }]);
    const res = await api.client(s.creator.token).orgs.updateGlossaryEntries(s.org.id, {
      operations: [
        { type: 'update', id: kept!.id, translations: { en: 'Space', de: 'Bereich' } },
        { type: 'delete', id: gone!.id },
        { type: 'insert', translations: { en: 'Change request', ja: '変更リクエスト' } },
      ] as never,
    });
    expect(res.status).toBe(204);
    const after = await stored(s.org);
    expect(after).toHaveLength(2);
    // An update replaces the entry's terms (fr is gone).
    expect(after.find((e) => e.id === kept!.id)?.translations).toEqual({ en: 'Space', de: 'Bereich' });
    expect(after.map((e) => e.translations)).toContainEqual({ en: 'Change request', ja: '変更リクエスト' });
    expect(after.map((e) => e.id)).not.toContain(gone!.id);
  });

  it('refuses malformed terms and languages with a 400 naming the operation, applying nothing', async () => {
    const s = await setup();
    await inserted(s.admin, s.org, [{ en: 'Space' }]);
    const before = await stored(s.org);
    const cases: Array<[unknown, RegExp]> = [
      [[insert({ en: 'ok' }), insert({ xx: 'Klingon' })], /body\.operations\.1\.translations/],
      [[insert({ en: 'two\nlines' })], /body\.operations\.0\.translations\.en/],
      [[insert({ en: 'x'.repeat(256) })], /body\.operations\.0\.translations\.en/],
      [[insert({ en: '' })], /body\.operations\.0\.translations\.en/],
      [[insert({})], /body\.operations\.0\.translations/],
      [[{ type: 'rename', id: before[0]!.id }], /body\.operations\.0/],
      [[{ type: 'update', translations: { en: 'x' } }], /body\.operations\.0\.id/],
      ['not a list', /body\.operations/],
    ];
    for (const [operations, message] of cases) expectError(await batch(s.admin, s.org, operations), 400, message);
    expectError(await api.request('PUT', path(s.org), { token: s.admin.token, body: {} }), 400, /body\.operations/);
    expect(await stored(s.org)).toEqual(before);
  });

  it('refuses an unknown, foreign or already deleted id with a 400 naming its operation, applying nothing', async () => {
    const s = await setup();
    const [entry] = await inserted(s.admin, s.org, [{ en: 'Space' }]);
    const other = await setup();
    const [foreign] = await inserted(other.admin, other.org, [{ en: 'Theirs' }]);
    const before = await stored(s.org);
    const cases: Array<[unknown[], string]> = [
      [[insert({ en: 'New' }), { type: 'update', id: 'nosuchentry000000000', translations: { en: 'x' } }], 'body.operations.1.id'],
      [[{ type: 'update', id: entry!.id, translations: { en: 'Changed' } }, { type: 'delete', id: foreign!.id }], 'body.operations.1.id'],
      [[{ type: 'delete', id: entry!.id }, { type: 'update', id: entry!.id, translations: { en: 'x' } }], 'body.operations.1.id'],
    ];
    for (const [operations, field] of cases) {
      const res = await batch(s.admin, s.org, operations);
      expectError(res, 400);
      expect(res.body.error.message.startsWith(`${field}: `), res.body.error.message).toBe(true);
    }
    expect(await stored(s.org)).toEqual(before);
    expect((await stored(other.org)).map((e) => e.id)).toEqual([foreign!.id]);
  });

  it('refuses a role below create (403) and an outsider (404), applying nothing', async () => {
    const s = await setup();
    expectError(await batch(s.reviewer, s.org, [insert({ en: 'x' })]), 403);
    expectError(await batch(s.guest, s.org, [insert({ en: 'x' })]), 403);
    expectError(await batch(s.outsider, s.org, [insert({ en: 'x' })]), 404);
    expect(await stored(s.org)).toEqual([]);
  });

  it('lands all of 20 concurrent inserting batches', async () => {
    const s = await setup();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => batch(s.admin, s.org, [insert({ en: `Term ${i}a` }), insert({ en: `Term ${i}b` })])));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(204));
    const terms = (await stored(s.org)).map((e) => e.translations.en).sort();
    expect(terms).toEqual(Array.from({ length: 20 }, (_, i) => [`Term ${i}a`, `Term ${i}b`]).flat().sort());
  });

  it('applies exactly one of 20 concurrent batches deleting the same entry, each whole or not at all', async () => {
    const s = await setup();
    const [shared] = await inserted(s.admin, s.org, [{ en: 'Shared' }]);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => batch(s.admin, s.org, [insert({ en: `Winner ${i}` }), { type: 'delete', id: shared!.id }])),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((st) => st === 204)).toHaveLength(1);
    expect(statuses.filter((st) => st === 400)).toHaveLength(19);
    const winner = statuses.indexOf(204);
    expect((await stored(s.org)).map((e) => e.translations)).toEqual([{ en: `Winner ${winner}` }]);
  });
});

describe('GET /orgs/{organizationId}/translations-glossary', () => {
  it('pages the entries newest first for any member with a role', async () => {
    const s = await setup();
    await inserted(s.admin, s.org, [{ en: 'First' }]);
    await inserted(s.admin, s.org, [{ en: 'Second', fr: 'Deuxième' }]);
    const other = await setup();
    await inserted(other.admin, other.org, [{ en: 'Not ours' }]);

    const first = await api.request('GET', path(s.org, '?limit=1'), { token: s.reader.token });
    expect(first.status).toBe(200);
    expectPublishedShape(first, 'GET', '/orgs/{organizationId}/translations-glossary');
    expect(first.body.count).toBe(2);
    const [entry] = first.body.items;
    expect(entry).toEqual({
      object: 'glossary-entry',
      id: expect.any(String),
      translations: { en: 'Second', fr: 'Deuxième' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      urls: { location: `http://vellum.test${path(s.org)}/${entry.id}` },
    });
    const second = await api.request('GET', path(s.org, `?limit=1&page=${first.body.next.page}`), { token: s.reader.token });
    expect(second.body.items.map((e: { translations: unknown }) => e.translations)).toEqual([{ en: 'First' }]);
    expect(second.body.next).toBeUndefined();
  });

  it('refuses a bad limit (400), guests (403) and outsiders (404)', async () => {
    const s = await setup();
    expectError(await api.request('GET', path(s.org, '?limit=-1'), { token: s.admin.token }), 400, /query\.limit/);
    expectError(await api.request('GET', path(s.org), { token: s.guest.token }), 403);
    expectError(await api.request('GET', path(s.org), { token: s.outsider.token }), 404);
  });
});

describe('GET /orgs/{organizationId}/translations-glossary/{glossaryEntryId}', () => {
  it('reads one entry; an update moves its updatedAt', async () => {
    const s = await setup();
    const [entry] = await inserted(s.admin, s.org, [{ en: 'Space' }]);
    const res = await api.client(s.reader.token).orgs.getGlossaryEntry(s.org.id, entry!.id);
    expect(res.status).toBe(200);
    expectPublishedShape(res, 'GET', '/orgs/{organizationId}/translations-glossary/{glossaryEntryId}');
    expect(res.data).toEqual(entry);
    expect((await batch(s.admin, s.org, [{ type: 'update', id: entry!.id, translations: { en: 'Room' } }])).status).toBe(204);
    const after = await api.request('GET', path(s.org, `/${entry!.id}`), { token: s.reader.token });
    expect(after.body.translations).toEqual({ en: 'Room' });
    expect(after.body.createdAt).toBe(entry!.createdAt);
    expect(after.body.updatedAt > entry!.updatedAt).toBe(true);
  });

  it('answers 404 for an unknown id, another organization’s entry and an outsider; 403 for a guest', async () => {
    const s = await setup();
    const [entry] = await inserted(s.admin, s.org, [{ en: 'Space' }]);
    const { org: other, owner } = await buildOrg(api.em());
    const [foreign] = await inserted(owner, other, [{ en: 'Theirs' }]);
    expectError(await api.request('GET', path(s.org, '/nosuchentry000000000'), { token: s.admin.token }), 404);
    expectError(await api.request('GET', path(s.org, `/${foreign!.id}`), { token: s.admin.token }), 404);
    const leak = await api.request('GET', path(s.org, `/${entry!.id}`), { token: s.outsider.token });
    expectError(leak, 404);
    expect(JSON.stringify(leak.body)).not.toContain('Space');
    expectError(await api.request('GET', path(s.org, `/${entry!.id}`), { token: s.guest.token }), 403);
  });
});
