import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { TranslationRun } from '../../src/domain/entities/translation-run.entity.ts';
import { Translation } from '../../src/domain/entities/translation.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let creator: Caller;
let reviewer: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;
let source: Space;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { create: creator, review: reviewer, read: reader, guest } } = await buildCast(em, ['create', 'review', 'read', 'guest'] as const));
  source = await buildSpace(em, org, admin, { title: 'Handbook' });
});
afterAll(() => api.close());

const base = (o: { id: string } = org) => `/v1/orgs/${o.id}/translations`;
const doc = (text: string) => ({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', key: 'k1', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] });
const create = (as: Caller, body: unknown, o: { id: string } = org) => api.request('POST', base(o), { token: as.token, body });
const fr = (space = source.id) => ({ language: 'fr', source: { space, language: 'en' } });

async function made(as: Caller = admin, body: unknown = fr()) {
  const res = await create(as, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; updatedAt: string; instructions: unknown };
}

/** How many translations the organization has, read as its admin. */
const count = async () => (await api.request('GET', `${base()}?limit=0`, { token: admin.token })).body.count as number;

describe('POST /orgs/{organizationId}/translations', () => {
  it('creates a pending translation (201, Location) from what the published client sends', async () => {
    const res = await api.client(creator.token).orgs.createTranslation(org.id, { language: 'de' as never, source: { space: source.id, language: 'en' as never } });
    expect(res.status).toBe(201);
    expectPublishedShape(res, 'POST', '/orgs/{organizationId}/translations');
    const t = res.data;
    expect(res.headers.get('location')).toBe(`http://vellum.test${base()}/${t.id}`);
    expect(t).toMatchObject({
      object: 'translation',
      status: 'pending',
      language: 'de',
      source: { space: source.id, language: 'en' },
      instructions: { object: 'document', data: {}, nodes: [] },
      stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
      permissions: { view: true, edit: true },
      urls: { location: `http://vellum.test${base()}/${t.id}` },
    });
    expect(t).not.toHaveProperty('result');
    expect(t).not.toHaveProperty('lastRun');
    const read = await api.request('GET', `${base()}/${t.id}`, { token: reader.token });
    expect(read.body).toEqual({ ...t, permissions: { view: true, edit: false } });
  });

  it('keeps the instructions given', async () => {
    const t = await made(admin, { ...fr(), instructions: doc('Keep product names in English.') });
    expect(t.instructions).toEqual(doc('Keep product names in English.'));
  });

  it('refuses bad languages and a missing source with a 400 naming the field, creating nothing', async () => {
    const before = await count();
    expectError(await create(admin, { ...fr(), language: 'xx' }), 400, /body\.language/);
    expectError(await create(admin, { language: 'fr' }), 400, /body\.source/);
    expectError(await create(admin, { ...fr(), source: { space: source.id } }), 400, /body\.source\.language/);
    expectError(await create(admin, { ...fr(), source: { space: source.id, language: 'klingon' } }), 400, /body\.source\.language/);
    expectError(await create(admin, { language: 'en', source: { space: source.id, language: 'en' } }), 400, /^body\.language: must differ from source\.language/);
    expectError(await create(admin, { ...fr(), instructions: { object: 'document', nodes: 'no' } }), 400, /body\.instructions/);
    expect(await count()).toBe(before);
  });

  it('answers the same 400 on source.space for a space that is unknown, elsewhere, in the bin or unreadable', async () => {
    const em = api.em();
    const elsewhere = await buildSpace(em, (await buildOrg(em, { owner: outsider })).org, outsider);
    const binned = await buildSpace(em, org, admin);
    expect((await api.request('DELETE', `/v1/spaces/${binned.id}`, { token: admin.token })).status).toBe(204);
    // Opened to nobody but admins: the creator cannot read it.
    const closed = await buildSpace(em, org, admin);
    expect((await api.request('PATCH', `/v1/spaces/${closed.id}`, { token: admin.token, body: { defaultLevel: null } })).status).toBe(200);
    expect((await api.request('GET', `/v1/spaces/${closed.id}`, { token: creator.token })).status).toBe(404);

    const before = await count();
    const messages = [];
    for (const space of ['nosuchspace000000000', elsewhere.id, binned.id, closed.id]) {
      const res = await create(creator, fr(space));
      expectError(res, 400, /^body\.source\.space: /);
      messages.push((res.body.error.message as string).replace(space, '<id>'));
    }
    expect(new Set(messages).size).toBe(1);
    expect(await count()).toBe(before);
    // The admin reads the closed space, so may translate it.
    await made(admin, fr(closed.id));
  });

  it('refuses a role below create (403) and another organization’s admin (404), creating nothing', async () => {
    const before = await count();
    expectError(await create(reviewer, fr()), 403);
    expectError(await create(guest, fr()), 403);
    expectError(await create(outsider, fr()), 404);
    expect(await count()).toBe(before);
  });

  it('creates concurrent translations of one space side by side', async () => {
    const before = await count();
    const results = await Promise.all(Array.from({ length: 10 }, () => create(admin, fr())));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(10);
    expect(await count()).toBe(before + 10);
  });
});

describe('GET /orgs/{organizationId}/translations', () => {
  it('pages newest first and shows only this organization’s translations', async () => {
    const { org: other, owner } = await buildOrg(api.em());
    const otherSpace = await buildSpace(api.em(), other, owner);
    const theirs = await create(owner, fr(otherSpace.id), other);
    expect(theirs.status).toBe(201);
    const a = await made();
    const b = await made();

    const first = await api.request('GET', `${base()}?limit=1`, { token: reader.token });
    expect(first.status).toBe(200);
    expectPublishedShape(first, 'GET', '/orgs/{organizationId}/translations');
    expect(first.body.items.map((t: { id: string }) => t.id)).toEqual([b.id]);
    const second = await api.request('GET', `${base()}?limit=1&page=${first.body.next.page}`, { token: reader.token });
    expect(second.body.items.map((t: { id: string }) => t.id)).toEqual([a.id]);

    const all = await api.request('GET', `${base()}?limit=1000`, { token: admin.token });
    expect(all.body.count).toBe(all.body.items.length);
    expect(all.body.items.map((t: { id: string }) => t.id)).not.toContain(theirs.body.id);
    const times = all.body.items.map((t: { createdAt: string }) => t.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('refuses a bad limit, guests (403) and outsiders (404)', async () => {
    expectError(await api.request('GET', `${base()}?limit=-1`, { token: admin.token }), 400, /query\.limit/);
    expectError(await api.request('GET', base(), { token: guest.token }), 403);
    expectError(await api.request('GET', base(), { token: outsider.token }), 404);
  });
});

describe('GET /orgs/{organizationId}/translations/{translationId}', () => {
  it('reads a translation, with its result, stats and last run once a run wrote them', async () => {
    const t = await made();
    const em = api.em();
    const result = await buildSpace(em, org, admin, { title: 'Handbook (fr)' });
    const startedAt = '2026-11-20T10:00:00.000Z';
    await em.nativeUpdate(Translation, { id: t.id }, {
      status: 'completed',
      resultSpace: result.id,
      resultRevision: 'rev00000000000000001',
      runs: 2, totalWords: 900, totalPages: 12, totalDuration: 40, latestRunDuration: 15, latestPages: 3, latestWords: 200,
      lastRun: { run: 'run00000000000000001', outcome: 'failed', startedAt, finishedAt: '2026-11-20T10:00:05.000Z', error: { code: 'provider_unavailable', message: 'could not reach https://user:secret@mt.example.test/v1' } },
    });
    const res = await api.request('GET', `${base()}/${t.id}`, { token: reader.token });
    expect(res.status).toBe(200);
    expectPublishedShape(res, 'GET', '/orgs/{organizationId}/translations/{translationId}');
    expect(res.body).toMatchObject({
      status: 'completed',
      result: { space: result.id, revision: 'rev00000000000000001' },
      stats: { runs: 2, totalWords: 900, totalPages: 12, totalDuration: 40, latestRunDuration: 15, latestPages: 3, latestWords: 200 },
      lastRun: { run: 'run00000000000000001', outcome: 'failed', startedAt, error: { code: 'provider_unavailable' } },
    });
    expect(res.body.lastRun.error.message).not.toContain('secret');
  });

  it('answers 404 for an unknown id, another organization’s translation and an outsider; 403 for a guest', async () => {
    const t = await made();
    const { org: other, owner } = await buildOrg(api.em());
    const theirs = await create(owner, fr((await buildSpace(api.em(), other, owner)).id), other);
    expectError(await api.request('GET', `${base()}/nosuchtranslation000`, { token: admin.token }), 404);
    expectError(await api.request('GET', `${base()}/${theirs.body.id}`, { token: admin.token }), 404);
    const leak = await api.request('GET', `${base()}/${t.id}`, { token: outsider.token });
    expectError(leak, 404);
    expect(JSON.stringify(leak.body)).not.toContain(org.title);
    expectError(await api.request('GET', `${base()}/${t.id}`, { token: guest.token }), 403);
  });
});

describe('PUT /orgs/{organizationId}/translations/{translationId}', () => {
  const put = (as: Caller, id: string, body: unknown) => api.request('PUT', `${base()}/${id}`, { token: as.token, body });

  it('replaces the instructions (200)', async () => {
    const t = await made();
    const res = await put(creator, t.id, { instructions: doc('Formal register.') });
    expect(res.status).toBe(200);
    expectPublishedShape(res, 'PUT', '/orgs/{organizationId}/translations/{translationId}');
    expect(res.body.instructions).toEqual(doc('Formal register.'));
    expect(res.body.updatedAt >= t.updatedAt).toBe(true);
    expect((await api.request('GET', `${base()}/${t.id}`, { token: admin.token })).body.instructions).toEqual(doc('Formal register.'));
  });

  it('refuses missing or malformed instructions (400), low roles (403), outsiders and unknown ids (404), changing nothing', async () => {
    const t = await made(admin, { ...fr(), instructions: doc('Original.') });
    expectError(await put(admin, t.id, {}), 400, /body\.instructions/);
    expectError(await put(admin, t.id, { instructions: { object: 'page', nodes: [] } }), 400, /body\.instructions\.object/);
    expectError(await put(reviewer, t.id, { instructions: doc('Mine.') }), 403);
    expectError(await put(outsider, t.id, { instructions: doc('Mine.') }), 404);
    expectError(await put(admin, 'nosuchtranslation000', { instructions: doc('Mine.') }), 404);
    expect((await api.request('GET', `${base()}/${t.id}`, { token: admin.token })).body.instructions).toEqual(doc('Original.'));
  });

  it('does not change another organization’s translation named through this one (404)', async () => {
    const { org: other, owner } = await buildOrg(api.em());
    const theirs = await create(owner, fr((await buildSpace(api.em(), other, owner)).id), other);
    expectError(await put(admin, theirs.body.id, { instructions: doc('Mine.') }), 404);
    expect((await api.request('GET', `${base(other)}/${theirs.body.id}`, { token: owner.token })).body.instructions).toEqual(theirs.body.instructions);
  });
});

describe('DELETE /orgs/{organizationId}/translations/{translationId}', () => {
  const del = (as: Caller, id: string) => api.request('DELETE', `${base()}/${id}`, { token: as.token });

  it('deletes (205) with its runs and leaves the result space alone; again it is 204', async () => {
    const t = await made();
    const em = api.em();
    const result = await buildSpace(em, org, admin);
    await em.nativeUpdate(Translation, { id: t.id }, { resultSpace: result.id, resultRevision: 'rev00000000000000001' });
    em.create(TranslationRun, { translation: t.id, status: 'completed' });
    await em.flush();

    const res = await del(creator, t.id);
    expect(res.status).toBe(205);
    expect(res.body).toBeUndefined();
    expectError(await api.request('GET', `${base()}/${t.id}`, { token: admin.token }), 404);
    expect(await api.em().count(TranslationRun, { translation: t.id })).toBe(0);
    expect((await api.request('GET', `/v1/spaces/${result.id}`, { token: admin.token })).status).toBe(200);
    expect((await del(creator, t.id)).status).toBe(204);
  });

  it('refuses a low role (403) and an outsider (404), deleting nothing', async () => {
    const t = await made();
    expectError(await del(reviewer, t.id), 403);
    expectError(await del(outsider, t.id), 404);
    expect((await api.request('GET', `${base()}/${t.id}`, { token: admin.token })).status).toBe(200);
  });

  it('does not delete another organization’s translation named through this one', async () => {
    const { org: other, owner } = await buildOrg(api.em());
    const theirs = await create(owner, fr((await buildSpace(api.em(), other, owner)).id), other);
    expect((await del(admin, theirs.body.id)).status).toBe(204);
    expect((await api.request('GET', `${base(other)}/${theirs.body.id}`, { token: owner.token })).status).toBe(200);
  });

  it('answers 20 concurrent deletes with one 205 and 204 for the rest', async () => {
    const t = await made();
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => del(admin, t.id)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 205)).toHaveLength(1);
    expect(statuses.filter((s) => s === 204)).toHaveLength(19);
  });
});

describe('GET /orgs/{organizationId}/translations/{translationId}/runs (beyond GitBook)', () => {
  const runs = (as: Caller, id: string, query = '') => api.request('GET', `${base()}/${id}/runs${query}`, { token: as.token });

  it('pages the run history newest first, with durations in seconds and failures', async () => {
    const t = await made();
    const em = api.em();
    const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, s));
    em.create(TranslationRun, {
      translation: t.id, status: 'completed', provider: 'pseudo', createdAt: at(0), startedAt: at(1), finishedAt: at(3),
      pages: 4, words: 321, durationMs: 1500, rejected: [{ page: 'page0000000000000001', segment: 2, reason: 'placeholder missing' }],
    });
    em.create(TranslationRun, {
      translation: t.id, status: 'failed', provider: 'openai', createdAt: at(10), startedAt: at(11), finishedAt: at(12),
      durationMs: 1000, errorCode: 'provider_unavailable', errorMessage: 'GET https://mt.example.test/v1?api_key=secret failed',
    });
    em.create(TranslationRun, { translation: t.id, status: 'queued', createdAt: at(20) });
    await em.flush();

    const first = await runs(reader, t.id, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(3);
    const [queued, failed] = first.body.items;
    expect(queued).toMatchObject({ object: 'translation-run', status: 'queued', provider: null, startedAt: null, finishedAt: null, duration: null, pages: 0, words: 0, rejected: [], error: null });
    expect(failed).toMatchObject({ status: 'failed', provider: 'openai', duration: 1, error: { code: 'provider_unavailable' } });
    expect(failed.error.message).not.toContain('secret');
    const second = await runs(reader, t.id, `?limit=2&page=${first.body.next.page}`);
    expect(second.body.items).toEqual([
      {
        object: 'translation-run', id: expect.any(String), status: 'completed', provider: 'pseudo',
        createdAt: at(0).toISOString(), startedAt: at(1).toISOString(), finishedAt: at(3).toISOString(),
        pages: 4, words: 321, duration: 1.5, rejected: [{ page: 'page0000000000000001', segment: 2, reason: 'placeholder missing' }], error: null,
      },
    ]);
    expect(second.body.next).toBeUndefined();
  });

  it('answers 404 for an unknown translation and an outsider, 403 for a guest, 400 for a bad limit', async () => {
    const t = await made();
    expectError(await runs(admin, 'nosuchtranslation000'), 404);
    expectError(await runs(outsider, t.id), 404);
    expectError(await runs(guest, t.id), 403);
    expectError(await runs(admin, t.id, '?limit=-1'), 400, /query\.limit/);
  });
});
