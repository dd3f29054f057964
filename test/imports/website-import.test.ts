import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { RunningWorkers } from '../../src/workers/worker.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { SlowSite } from '../support/slow-site.ts';
import { waitFor } from '../support/test-jobs.ts';
import { testRedisUrl } from '../support/test-env.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { jobs } from '../../src/jobs/registry.ts';

const SITE: Record<string, string> = {
  '/docs/index.html':
    '<html><head><title>Docs home</title></head><body><nav><a href="/docs/nav-only.html">nav</a></nav><main><h1>Home</h1><p>Welcome to the <strong>docs</strong>.</p><a href="a.html">A</a> <a href="/docs/b.html#part">B</a> <a href="/other/x.html">outside</a> <a href="https://elsewhere.example/">far</a></main></body></html>',
  '/docs/a.html': '<html><body><main><h1>Page A</h1><ul><li>one</li><li>two</li></ul><a href="index.html">home</a></main></body></html>',
  '/docs/b.html': '<html><body><article><h1>Page B</h1><pre><code>npm start</code></pre></article></body></html>',
  '/docs/nav-only.html': '<html><body><h1>Nav</h1></body></html>',
  '/other/x.html': '<html><body><h1>Outside</h1></body></html>',
};

const slow = new SlowSite();

let api: TestApi;
let org: Organization;
let admin: Caller;
let reader: Caller;
let outsider: Caller;
let server: Server;
let base: string;
let workers: RunningWorkers;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { read: reader } } = await buildCast(em, ['read'] as const));
  server = createServer((req, res) => {
    if (req.url!.startsWith('/slow/')) return slow.serve(req.url!, res);
    if (req.url === '/docs/to-metadata.html') return res.writeHead(302, { location: 'http://169.254.169.254/latest/' }).end();
    const page = SITE[req.url!.split('?')[0]!];
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workers = startTestWorkers(api, ['imports', 'search']);
});
afterAll(async () => {
  await workers.close();
  await new Promise<void>((r) => server.close(() => r()));
  await api.close();
});

async function finished(runId: string) {
  let run: { status: string; pages?: Array<{ id: string; sourceURL: string }>; error?: string } = { status: 'pending' };
  await waitFor(async () => {
    // Not checked against the published document: it has no GET of one import run (this read is ours).
    run = (await api.request('GET', `/v1/org/${org.id}/imports/${runId}`, { token: admin.token })).body;
    return ['completed', 'failed', 'cancelled'].includes(run.status);
  }, 20_000, 'import run');
  return run;
}

/** The run ids of the import jobs in the given states. */
async function importJobs(states: Array<'completed' | 'failed'>): Promise<string[]> {
  const producer = new QueueProducer({ url: testRedisUrl(), prefix: api.rt.config.queuePrefix }, jobs, api.rt.log);
  try {
    return (await producer.queue('imports').getJobs(states)).map((j) => (j.data as { runId: string }).runId);
  } finally {
    await producer.close();
  }
}

describe('website import runs', () => {
  it('crawls pages under the URL and imports them as pages of the space', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const started = await api.client(admin.token).org.startImportRun(org.id, {
      source: { type: 'website', url: `${base}/docs/index.html` },
      target: { space: space.id },
    } as never);
    expectPublishedShape(started, 'POST', '/org/{organizationId}/imports');
    const { data } = started;
    expect(data).toMatchObject({ id: expect.any(String), status: 'pending' });
    const run = await finished(data.id);
    expect(run.status).toBe('completed');
    // Breadth first, navigation links included (that is how a site's pages are found); never outside /docs/.
    expect(run.pages!.map((p) => new URL(p.sourceURL).pathname)).toEqual(['/docs/index.html', '/docs/nav-only.html', '/docs/a.html', '/docs/b.html']);
    const pages = await api.client(reader.token).spaces.listPages(space.id);
    expect(pages.data.pages.map((p) => p.title)).toEqual(['Home', 'Nav', 'Page A', 'Page B']);
    const a = await api.client(reader.token).spaces.getPageById(space.id, run.pages![2]!.id);
    expect((a.data as { markdown: string }).markdown).toContain('-   one');
    const b = await api.client(reader.token).spaces.getPageById(space.id, run.pages![3]!.id);
    expect((b.data as { markdown: string }).markdown).toContain('```\nnpm start\n```');
  });

  it('imports under a page when one is given', async () => {
    const em = api.em();
    const space = await buildSpace(em, org, admin);
    await buildContent(em, space, [{ id: 'importParent00000000', kind: 'document', title: 'Parent', markdown: 'x' }]);
    const res = await api.request('POST', `/v1/org/${org.id}/imports`, {
      token: admin.token,
      body: { source: { type: 'website', url: `${base}/docs/a.html` }, target: { space: space.id, page: 'importParent00000000' } },
    });
    expect(res.status).toBe(201);
    expect((await finished(res.body.id)).status).toBe('completed');
    const pages = await api.client(reader.token).spaces.listPages(space.id);
    expect((pages.data.pages[0] as { pages: Array<{ title: string }> }).pages.map((p) => p.title)).toEqual(['Page A', 'Home', 'Nav', 'Page B']);
  });

  it('fails a run whose site redirects to a refused address, without retrying', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const res = await api.request('POST', `/v1/org/${org.id}/imports`, {
      token: admin.token,
      body: { source: { type: 'website', url: `${base}/docs/to-metadata.html` }, target: { space: space.id } },
    });
    const run = await finished(res.body.id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/Refused/);
  });

  it('cancels a run while a worker is crawling it: the crawl stops and nothing is imported', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const before = (await api.client(reader.token).spaces.getSpaceById(space.id)).data.revision;
    slow.hits = 0;
    const res = await api.request('POST', `/v1/org/${org.id}/imports`, { token: admin.token, body: { source: { type: 'website', url: `${base}/slow/index.html` }, target: { space: space.id } } });
    await waitFor(async () => slow.hits >= 2, 10_000, 'the crawl to be under way');
    const cancelled = await api.client(admin.token).org.cancelImportRun(org.id, res.body.id);
    expectPublishedShape(cancelled, 'POST', '/org/{organizationId}/imports/{importRunId}/cancel');
    expect(cancelled.data.status).toBe('cancelled');
    const hitsAtCancel = slow.hits;
    expect((await api.request('POST', `/v1/org/${org.id}/imports/${res.body.id}/cancel`, { token: admin.token })).body.status).toBe('cancelled');
    // The worker's job ends (it does not keep crawling the other pages), and the run stays cancelled.
    await waitFor(async () => (await importJobs(['completed', 'failed'])).includes(res.body.id), 10_000, 'the import job to end');
    expect(slow.hits).toBeLessThanOrEqual(hitsAtCancel + 1);
    expect(slow.hits).toBeLessThan(slow.pages + 1);
    expect((await finished(res.body.id)).status).toBe('cancelled');
    expect((await api.client(reader.token).spaces.getSpaceById(space.id)).data.revision).toBe(before);
  });

  it('refuses to cancel a finished run', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const { ImportRun } = await import('../../src/domain/entities/import-run.entity.ts');
    const em = api.em();
    const done = em.create(ImportRun, { organization: org.id, space: space.id, sourceUrl: 'x', status: 'completed' });
    await em.flush();
    expectError(await api.request('POST', `/v1/org/${org.id}/imports/${done.id}/cancel`, { token: admin.token }), 400);
    expectError(await api.request('POST', `/v1/org/${org.id}/imports/${done.id}/cancel`, { token: reader.token }), 403);
  });

  it('re-indexes search: once the import and its index job ran, the imported text is found', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const res = await api.request('POST', `/v1/org/${org.id}/imports`, { token: admin.token, body: { source: { type: 'website', url: `${base}/docs/b.html` }, target: { space: space.id } } });
    expect((await finished(res.body.id)).status).toBe('completed');
    await waitFor(async () => (await api.client(reader.token).spaces.searchSpaceContent(space.id, { query: 'npm start' })).data.items.length > 0, 15_000, 'search to find the imported page');
    const { data } = await api.client(reader.token).spaces.searchSpaceContent(space.id, { query: 'npm start' });
    expect(data.items.map((i) => i.title)).toEqual(['Page B']);
  });

  it('answers 400, 404, other organization and role too low', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const url = `/v1/org/${org.id}/imports`;
    const website = { type: 'website', url: `${base}/docs/index.html` };
    expectError(await api.request('POST', url, { token: admin.token, body: { source: { type: 'website', url: 'ftp://x' }, target: { space: space.id } } }), 400, /source/);
    expectError(await api.request('POST', url, { token: admin.token, body: { source: { type: 'file', files: ['k'] }, target: { space: space.id } } }), 400, /source.type/);
    expectError(await api.request('POST', url, { token: admin.token, body: { source: website } }), 400, /target/);
    expectError(await api.request('POST', url, { token: admin.token, body: { source: website, target: { space: 'nope' } } }), 400, /target.space/);
    expectError(await api.request('POST', url, { token: admin.token, body: { source: website, target: { space: space.id, page: 'nope' } } }), 400, /target.page/);
    expectError(await api.request('POST', url, { token: reader.token, body: { source: website, target: { space: space.id } } }), 403);
    expectError(await api.request('POST', url, { token: outsider.token, body: { source: website, target: { space: space.id } } }), 404);
    expectError(await api.request('GET', `/v1/org/${org.id}/imports/unknown`, { token: admin.token }), 404);
    const res = await api.request('POST', url, { token: admin.token, body: { source: website, target: { space: space.id } } });
    expectError(await api.request('GET', `/v1/org/${org.id}/imports/${res.body.id}`, { token: outsider.token }), 404);
    await finished(res.body.id);
  });
});
