import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { Conversation } from '../../src/domain/entities/conversation.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildInstallation, buildMember, buildOrg, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { testRedisUrl } from '../support/test-env.ts';

let api: TestApi;
let queue: Queue;

beforeAll(async () => {
  api = await startTestApi();
  queue = new Queue('conversations', { connection: { url: testRedisUrl() }, prefix: api.rt.config.queuePrefix });
});
afterAll(async () => {
  await queue.close();
  await api.close();
});

/** A fresh organization with its admin, a reader and an installed integration. */
async function setup() {
  const em = api.em();
  const { org, owner } = await buildOrg(em);
  const reader = await buildMember(em, org, 'read');
  const { installation, token } = await buildInstallation(em, org);
  return { org, owner, reader, installation, token, source: `integration:test-integration:${installation.id}` };
}
type Setup = Awaited<ReturnType<typeof setup>>;

const ask = (id: string, question: string, extra: Record<string, unknown> = {}) => ({
  id,
  subject: `About ${id}`,
  parts: [
    { type: 'message', role: 'user', body: question },
    { type: 'message', role: 'team-member', body: 'Open Settings, then Security.' },
  ],
  ...extra,
});
const ingest = (s: Setup, body: unknown) => api.request('POST', `/v1/orgs/${s.org.id}/conversations`, { token: s.token, body });
const list = (s: Setup, as: Caller, query = '') => api.request('GET', `/v1/orgs/${s.org.id}/conversations${query}`, { token: as.token });
const rows = (s: Setup) => api.em().find(Conversation, { organization: s.org.id }, { orderBy: { externalId: 'asc' } });

describe('POST /orgs/{organizationId}/conversations (ingest)', () => {
  it('stores one conversation under the installation’s source; members read it back', async () => {
    const s = await setup();
    const res = await ingest(s, ask('c-1', 'How do I enable two-factor login?', { metadata: { url: 'https://support.example.test/c/1', attributes: { plan: 'pro' }, createdAt: '2026-11-02T10:00:00+02:00' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(res.body).toBeUndefined();

    const page = await list(s, s.reader);
    expect(page.status).toBe(200);
    expectPublishedShape(page, 'GET', '/orgs/{organizationId}/conversations');
    expect(page.body.count).toBe(1);
    const [item] = page.body.items;
    expect(item).toMatchObject({ object: 'conversation', subject: 'About c-1', source: s.source, createdAt: '2026-11-02T08:00:00.000Z', urls: { source: 'https://support.example.test/c/1' } });
    expect(item.processedAt).toBeUndefined();

    const detail = await api.request('GET', `/v1/orgs/${s.org.id}/conversations/${item.id}`, { token: s.reader.token });
    expect(detail.status).toBe(200);
    expectPublishedShape(detail, 'GET', '/orgs/{organizationId}/conversations/{conversationId}');
    expect(detail.body.parts).toEqual(ask('c-1', 'How do I enable two-factor login?').parts);
    expect(detail.body.metadata).toEqual({ url: 'https://support.example.test/c/1', attributes: { plan: 'pro' }, createdAt: '2026-11-02T08:00:00.000Z' });
    expect(detail.body.conversation.urls.location).toBe(`http://vellum.test/v1/orgs/${s.org.id}/conversations/${item.id}`);
  });

  it('takes a batch of 1000 in one request and records one extraction job for it', async () => {
    const s = await setup();
    const before = await queue.getJobCounts('waiting', 'delayed', 'active', 'completed', 'failed');
    const batch = Array.from({ length: 1000 }, (_, i) => ask(`b-${i}`, `Why does export ${i} fail?`));
    expect((await ingest(s, batch)).status).toBe(204);
    expect((await list(s, s.owner, '?limit=0')).body.count).toBe(1000);
    const after = await queue.getJobCounts('waiting', 'delayed', 'active', 'completed', 'failed');
    const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
    expect(total(after) - total(before)).toBe(1);
    const [job] = await queue.getJobs(['waiting'], 0, 0);
    expect(job?.data).toEqual({ organizationId: s.org.id });
  });

  it('is all or nothing: one bad conversation is a 400 naming its index and field, and nothing is stored', async () => {
    const s = await setup();
    const batch = [ask('ok-1', 'How?'), ask('ok-2', 'Why?'), { id: 'bad', parts: [{ type: 'message', role: 'robot', body: 'beep' }] }, ask('ok-3', 'When?')];
    expectError(await ingest(s, batch), 400, /body\.2\.parts\.0\.role/);
    expectError(await ingest(s, [ask('ok-1', 'How?'), { ...ask('x', 'y'), id: '' }]), 400, /body\.1\.id/);
    expectError(await ingest(s, { ...ask('x', 'y'), metadata: { createdAt: 'yesterday' } }), 400, /body\.metadata\.createdAt/);
    expectError(await ingest(s, []), 400);
    // A date ISO 8601 allows but PostgreSQL cannot store (there is no year 0) is the client's mistake.
    expectError(await ingest(s, [ask('ok-1', 'How?'), { ...ask('x', 'y'), metadata: { createdAt: '0000-06-01T00:00:00Z' } }]), 400, /body\.1\.metadata\.createdAt/);
    expect(await rows(s)).toHaveLength(0);
  });

  it('re-posting an id updates that conversation (same id), clears processedAt and extracts again', async () => {
    const s = await setup();
    await ingest(s, ask('same', 'How do I rotate an API token?'));
    await extractPendingIssues(api.em(), s.org.id, { now: () => new Date() });
    const [first] = await rows(s);
    expect(first!.processedAt).not.toBeNull();
    const issuesBefore = (await api.request('GET', `/v1/orgs/${s.org.id}/conversations-issues`, { token: s.owner.token })).body.items;
    expect(issuesBefore).toHaveLength(1);

    expect((await ingest(s, ask('same', 'Why is my custom domain not working?'))).status).toBe(204);
    const [again] = await rows(s);
    expect(again!.id).toBe(first!.id);
    expect(again!.processedAt).toBeNull();
    expect(again!.parts[0]!.body).toBe('Why is my custom domain not working?');

    await extractPendingIssues(api.em(), s.org.id, { now: () => new Date() });
    const issuesAfter = (await api.request('GET', `/v1/orgs/${s.org.id}/conversations-issues`, { token: s.owner.token })).body.items;
    expect(issuesAfter).toHaveLength(1);
    // The same issue (same id), rewritten from the new content.
    expect(issuesAfter[0].issue.id).toBe(issuesBefore[0].issue.id);
    expect(issuesAfter[0].issue.title).toBe('Why is my custom domain not working?');
  });

  it('keeps the date a conversation first got when a re-post carries none', async () => {
    const s = await setup();
    await ingest(s, ask('dated', 'How?'));
    const [first] = await rows(s);
    await ingest(s, ask('dated', 'How now?'));
    expect((await rows(s))[0]!.createdAt.toISOString()).toBe(first!.createdAt.toISOString());
  });

  it('within one batch the last conversation of an id wins', async () => {
    const s = await setup();
    expect((await ingest(s, [ask('dup', 'First version?'), ask('other', 'Other?'), ask('dup', 'Second version?')])).status).toBe(204);
    const stored = await rows(s);
    expect(stored.map((c) => c.externalId)).toEqual(['dup', 'other']);
    expect(stored[0]!.parts[0]!.body).toBe('Second version?');
  });

  it('the same id in 20 concurrent requests makes one conversation', async () => {
    const s = await setup();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => ingest(s, [ask('race', `Attempt ${i}?`), ask(`own-${i}`, 'Mine?')])));
    expect(answers.map((r) => r.status)).toEqual(new Array(20).fill(204));
    const stored = await rows(s);
    expect(stored.filter((c) => c.externalId === 'race')).toHaveLength(1);
    expect(stored).toHaveLength(21);
  });

  it('the same id from two installations is two conversations, one per source; ?source= filters', async () => {
    const s = await setup();
    const second = await buildInstallation(api.em(), s.org);
    await ingest(s, ask('shared', 'From the first?'));
    await api.request('POST', `/v1/orgs/${s.org.id}/conversations`, { token: second.token, body: ask('shared', 'From the second?') });
    expect((await list(s, s.owner)).body.count).toBe(2);
    const filtered = await list(s, s.owner, `?source=${encodeURIComponent(s.source)}`);
    expect(filtered.body.items.map((c: { source: string }) => c.source)).toEqual([s.source]);
    expect((await list(s, s.owner, '?source=email')).body.count).toBe(0);
  });

  it('refuses user tokens (even the admin’s) and other organizations’ installations', async () => {
    const s = await setup();
    expectError(await api.request('POST', `/v1/orgs/${s.org.id}/conversations`, { token: s.owner.token, body: ask('u', 'How?') }), 403, /installation/);
    const elsewhere = await buildInstallation(api.em(), (await buildOrg(api.em())).org);
    expectError(await api.request('POST', `/v1/orgs/${s.org.id}/conversations`, { token: elsewhere.token, body: ask('u', 'How?') }), 404);
    expectError(await api.request('POST', `/v1/orgs/${s.org.id}/conversations`, { body: ask('u', 'How?') }), 401);
    expect(await rows(s)).toHaveLength(0);
  });
});

describe('reading conversations and issues', () => {
  it('lists issues with their conversations, filtered by conversation; one issue by id; guests are refused', async () => {
    const s = await setup();
    await ingest(s, [ask('q1', 'How do I invite my team?'), ask('q2', 'Can I export to PDF?'), { id: 'bye', parts: [{ type: 'message', role: 'user', body: 'Thanks, bye!' }] }]);
    await extractPendingIssues(api.em(), s.org.id, { now: () => new Date() });
    const all = await api.request('GET', `/v1/orgs/${s.org.id}/conversations-issues`, { token: s.reader.token });
    expect(all.status).toBe(200);
    expectPublishedShape(all, 'GET', '/orgs/{organizationId}/conversations-issues');
    expect(all.body.items.map((i: { issue: { title: string } }) => i.issue.title).sort()).toEqual(['Can I export to PDF?', 'How do I invite my team?']);

    const conversationId = all.body.items[0].conversation.id as string;
    const one = await api.request('GET', `/v1/orgs/${s.org.id}/conversations-issues?conversation=${conversationId}`, { token: s.reader.token });
    expect(one.body.items).toHaveLength(1);
    expect(one.body.items[0].issue.conversation).toBe(conversationId);
    expect(one.body.items[0].conversation.processedAt).toEqual(expect.any(String));

    const byId = await api.request('GET', `/v1/orgs/${s.org.id}/conversations-issues/${one.body.items[0].issue.id}`, { token: s.reader.token });
    expect(byId.status).toBe(200);
    expectPublishedShape(byId, 'GET', '/orgs/{organizationId}/conversations-issues/{issueId}');
    expect(byId.body).toEqual(one.body.items[0]);

    const guest = await buildMember(api.em(), s.org, null);
    expectError(await api.request('GET', `/v1/orgs/${s.org.id}/conversations-issues`, { token: guest.token }), 403);
    expectError(await list(s, guest), 403);
  });

  it('pages conversations with tokens that only this list accepts', async () => {
    const s = await setup();
    await ingest(s, Array.from({ length: 5 }, (_, i) => ask(`p${i}`, 'How?', { metadata: { createdAt: `2026-01-0${i + 1}T00:00:00Z` } })));
    const first = await list(s, s.owner, '?limit=2');
    expect(first.body.items.map((c: { subject: string }) => c.subject)).toEqual(['About p4', 'About p3']);
    const second = await list(s, s.owner, `?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((c: { subject: string }) => c.subject)).toEqual(['About p2', 'About p1']);
    expectError(await api.request('GET', `/v1/orgs/${s.org.id}/conversations-issues?page=${first.body.next.page}`, { token: s.owner.token }), 400);
  });
});
