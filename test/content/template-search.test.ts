import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { indexSpace } from '../../src/domain/search/index-space.ts';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { SearchSection } from '../../src/domain/entities/search-section.entity.ts';
import { expectError } from '../support/assertions.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { jobs } from '../../src/jobs/registry.ts';
import { testRedisUrl } from '../support/test-env.ts';
import { buildCast, buildContent, buildMember, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let reader: Caller;
let outsider: Caller;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { edit: editor, read: reader } } = await buildCast(em, ['edit', 'read'] as const));
});
afterAll(() => api.close());

describe('POST /spaces/{spaceId}/content/template', () => {
  it('appends the template’s pages in a new revision and records a search re-index', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin);
    await buildContent(em, s, [{ kind: 'document', title: 'Existing', markdown: 'kept' }]);
    const res = await api.request('POST', `/v1/spaces/${s.id}/content/template`, { token: editor.token, body: { id: 'getting-started' } });
    // Not checked against the published document, which answers 201 (no body): the seed
    // (Space content and search, S/content/template) answers 204 no content and wins.
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const pages = await api.client(reader.token).spaces.listPages(s.id);
    expectPublishedShape(pages, 'GET', '/spaces/{spaceId}/content/pages');
    const { data } = pages;
    expect(data.pages.map((p) => p.title)).toEqual(['Existing', 'Introduction', 'Quickstart', 'FAQ']);
    // The re-index was committed with the revision and published to the search queue.
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: api.rt.config.queuePrefix }, jobs, api.rt.log);
    const waiting = await producer.queue('search').getJobs(['waiting', 'active', 'completed']);
    await producer.close();
    expect(waiting.map((j) => j.data)).toContainEqual({ spaceId: s.id });
    // Its outbox row stays, marked enqueued, as the record of the job until a worker finishes it.
    const rows = await api.em().find(OutboxEntry, { payload: { spaceId: s.id } });
    expect(rows.map((r) => r.enqueuedAt)).toEqual([expect.any(Date)]);
    const client = await api.client(editor.token).spaces.applyTemplateToSpace(s.id, { id: 'knowledge-base' } as never);
    expect(client.status).toBe(204);
  });

  it('answers 400, 404, other organization and role too low, changing nothing', async () => {
    const s = await buildSpace(api.em(), org, admin);
    const before = (await api.client(reader.token).spaces.getSpaceById(s.id)).data.revision;
    const url = `/v1/spaces/${s.id}/content/template`;
    expectError(await api.request('POST', url, { token: editor.token, body: { id: 'nope' } }), 400, /id/);
    expectError(await api.request('POST', url, { token: editor.token, body: {} }), 400, /id/);
    expectError(await api.request('POST', url, { token: editor.token, body: { id: 'getting-started', params: { contentRefs: { logo: { kind: 'file', file: 'x' } } } } }), 400, /contentRefs/);
    expectError(await api.request('POST', url, { token: editor.token, body: { id: 'getting-started', changeRequestId: 'cr1' } }), 400, /changeRequestId/);
    expectError(await api.request('POST', '/v1/spaces/unknown/content/template', { token: editor.token, body: { id: 'getting-started' } }), 404);
    expectError(await api.request('POST', url, { token: outsider.token, body: { id: 'getting-started' } }), 404);
    expectError(await api.request('POST', url, { token: reader.token, body: { id: 'getting-started' } }), 403);
    expect((await api.client(reader.token).spaces.getSpaceById(s.id)).data.revision).toBe(before);
  });
});

describe('search', () => {
  it('finds pages by words and word fragments, split into sections, and follows changes', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin);
    await buildContent(em, s, [
      { id: 'searchInstall0000000', kind: 'document', title: 'Installation', markdown: 'Intro text.\n\n## Requirements\n\nYou need PostgreSQL and Redis running.\n\n## Upgrading\n\nRun the migrations.' },
      { id: 'searchBilling0000000', kind: 'document', title: 'Billing', markdown: 'Invoices are sent monthly.' },
    ]);
    await indexSpace(api.em(), s.id);
    const res = await api.client(reader.token).spaces.searchSpaceContent(s.id, { query: 'postgresql redis' });
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/search');
    const { data } = res;
    expect(data.items.map((i) => i.id)).toEqual(['searchInstall0000000']);
    const hit = data.items[0]!;
    expect(hit.sections?.[0]).toMatchObject({ id: 'requirements', title: 'Requirements', path: 'installation#requirements' });
    expect(hit.sections?.[0]?.body).toContain('PostgreSQL');
    const partial = await api.client(reader.token).spaces.searchSpaceContent(s.id, { query: 'invoic' });
    expect(partial.data.items.map((i) => i.id)).toEqual(['searchBilling0000000']);

    await buildContent(api.em(), s, [{ id: 'searchBilling0000000', kind: 'document', title: 'Billing', markdown: 'Payments by card.' }]);
    await indexSpace(api.em(), s.id);
    await indexSpace(api.em(), s.id);
    expect((await api.client(reader.token).spaces.searchSpaceContent(s.id, { query: 'invoices' })).data.items).toEqual([]);
    expect((await api.client(reader.token).spaces.searchSpaceContent(s.id, { query: 'postgresql' })).data.items).toEqual([]);
    expect((await api.client(reader.token).spaces.searchSpaceContent(s.id, { query: 'payments' })).data.count).toBe(1);
  });

  it('stores each section once when many index runs of one space race', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin);
    await buildContent(em, s, Array.from({ length: 12 }, (_, i) => ({ kind: 'document' as const, title: `Race ${i}`, markdown: `Intro ${i}.\n\n## Part one\n\nFirst.\n\n## Part two\n\nSecond.` })));
    await Promise.all(Array.from({ length: 10 }, () => indexSpace(api.em(), s.id)));
    const rows = await api.em().find(SearchSection, { space: s.id });
    expect(rows).toHaveLength(12 * 3);
    expect(new Set(rows.map((r) => `${r.indexKey}/${r.ordinal}`)).size).toBe(rows.length);
  });

  it('pages results', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin);
    await buildContent(em, s, Array.from({ length: 5 }, (_, i) => ({ kind: 'document' as const, title: `Widget ${i}`, markdown: `All about widgets, part ${i}.` })));
    await indexSpace(api.em(), s.id);
    const first = await api.client(reader.token).spaces.searchSpaceContent(s.id, { query: 'widgets', limit: 3 });
    expect(first.data.items).toHaveLength(3);
    expect(first.data.count).toBe(5);
    const second = await api.client(reader.token).spaces.searchSpaceContent(s.id, { query: 'widgets', limit: 3, page: first.data.next!.page });
    expect(second.data.items).toHaveLength(2);
    expect(second.data.next).toBeUndefined();
    expect(new Set([...first.data.items, ...second.data.items].map((i) => i.id)).size).toBe(5);
  });

  it('searches an organization over the spaces the caller can read, grouped by space', async () => {
    const em = api.em();
    const { org: o, owner } = await buildOrg(em);
    const open = await buildSpace(em, o, owner, { title: 'Open space' });
    const closed = await buildSpace(em, o, owner, { title: 'Closed space' });
    await buildContent(em, open, [{ kind: 'document', title: 'Tea', markdown: 'Green tea and oolong.' }]);
    await buildContent(em, closed, [{ kind: 'document', title: 'Secret tea', markdown: 'Secret oolong.' }]);
    await indexSpace(api.em(), open.id);
    await indexSpace(api.em(), closed.id);
    const g = await buildMember(em, o, null);
    await api.request('POST', `/v1/spaces/${open.id}/permissions`, { token: owner.token, body: { role: 'read', users: [g.user.id] } });
    const asOwner = await api.client(owner.token).orgs.searchOrganizationContent(o.id, { query: 'oolong' });
    expectPublishedShape(asOwner, 'GET', '/orgs/{organizationId}/search');
    expect(asOwner.data.items.map((i) => i.title).sort()).toEqual(['Closed space', 'Open space']);
    const asGuest = await api.client(g.token).orgs.searchOrganizationContent(o.id, { query: 'oolong' });
    expect(asGuest.data.items.map((i) => i.id)).toEqual([open.id]);
    expect(asGuest.data.items[0]!.pages[0]!.title).toBe('Tea');
  });

  it('answers 400, 404 and other organization', async () => {
    const s = await buildSpace(api.em(), org, admin);
    expectError(await api.request('GET', `/v1/spaces/${s.id}/search`, { token: reader.token }), 400, /query/);
    expectError(await api.request('GET', `/v1/spaces/${s.id}/search?query=${'x'.repeat(513)}`, { token: reader.token }), 400, /query/);
    expectError(await api.request('GET', `/v1/spaces/${s.id}/search?query=a&page=bad`, { token: reader.token }), 400, /page/);
    expect((await api.request('GET', `/v1/spaces/${s.id}/search?query=${encodeURIComponent("'):* & !(")}`, { token: reader.token })).status).toBe(200);
    expectError(await api.request('GET', '/v1/spaces/unknown/search?query=a', { token: reader.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${s.id}/search?query=a`, { token: outsider.token }), 404);
    expectError(await api.request('GET', `/v1/orgs/${org.id}/search?query=a`, { token: outsider.token }), 404);
    expectError(await api.request('GET', `/v1/orgs/${org.id}/search`, { token: reader.token }), 400, /query/);
  });
});

describe('search after duplicating a space', () => {
  it('indexes the copy from the shared content', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin);
    await buildContent(em, s, [{ kind: 'document', title: 'Glossary', markdown: 'Every term explained: idempotency.' }]);
    const copy = await api.request('POST', `/v1/spaces/${s.id}/duplicate`, { token: admin.token });
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: api.rt.config.queuePrefix }, jobs, api.rt.log);
    const queued = await producer.queue('search').getJobs(['waiting']);
    await producer.close();
    expect(queued.map((j) => j.data)).toContainEqual({ spaceId: copy.body.id });
    await indexSpace(api.em(), copy.body.id);
    const { data } = await api.client(reader.token).spaces.searchSpaceContent(copy.body.id, { query: 'idempotency' });
    expect(data.items.map((i) => i.title)).toEqual(['Glossary']);
  });
});
