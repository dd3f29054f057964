import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { RunningWorkers } from '../../src/workers/worker.ts';
import { buildCast, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { waitFor } from '../support/test-jobs.ts';

/** A site of one index and PAGES pages; the last page is held back until `release` opens it. */
const PAGES = 12;
const LAST = `/site/p${PAGES - 1}.html`;

let api: TestApi;
let org: Organization;
let admin: Caller;
let server: Server;
let base: string;
let workers: RunningWorkers;
let held: Array<() => void> = [];

beforeAll(async () => {
  api = await startTestApi();
  ({ org, admin } = await buildCast(api.em(), [] as const));
  server = createServer((req, res) => {
    const path = req.url!.split('?')[0]!;
    const send = (html: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (path === '/site/index.html') {
      const links = Array.from({ length: PAGES }, (_, i) => `<a href="p${i}.html">${i}</a>`).join(' ');
      return send(`<html><body><main><h1>Index</h1>${links}</main></body></html>`);
    }
    const page = /^\/site\/p(\d+)\.html$/.exec(path);
    if (!page) return res.writeHead(404).end();
    const html = `<html><body><main><h1>Page ${page[1]}</h1><p>Text ${page[1]}.</p></main></body></html>`;
    if (path === LAST) held.push(() => send(html));
    else send(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workers = startTestWorkers(api, ['imports']);
});
afterAll(async () => {
  await workers.close();
  await new Promise<void>((r) => server.close(() => r()));
  await api.close();
});

/** Lets the held last pages through once `count` crawls are waiting on them, so their commits meet. */
async function releaseWhenWaiting(count: number) {
  await waitFor(async () => held.length >= count, 20_000, 'crawls at the last page');
  const waiting = held;
  held = [];
  for (const send of waiting) send();
}

async function startImport(spaceId: string): Promise<string> {
  const res = await api.request('POST', `/v1/org/${org.id}/imports`, { token: admin.token, body: { source: { type: 'website', url: `${base}/site/index.html` }, target: { space: spaceId } } });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function run(runId: string): Promise<{ status: string; pages?: Array<{ id: string }> }> {
  return (await api.request('GET', `/v1/org/${org.id}/imports/${runId}`, { token: admin.token })).body;
}

async function finished(runId: string) {
  await waitFor(async () => ['completed', 'failed', 'cancelled'].includes((await run(runId)).status), 30_000, 'import run');
  return run(runId);
}

async function pageIds(spaceId: string): Promise<string[]> {
  const { data } = await api.client(admin.token).spaces.listPages(spaceId);
  return data.pages.map((p) => p.id);
}

describe('imports committing alongside other writers', () => {
  it('two website imports into one space at once both keep their pages', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const runs = [await startImport(space.id), await startImport(space.id)];
    await releaseWhenWaiting(2);
    const done = await Promise.all(runs.map(finished));
    expect(done.map((r) => r.status)).toEqual(['completed', 'completed']);
    const ids = await pageIds(space.id);
    expect(ids).toHaveLength(2 * (PAGES + 1));
    for (const r of done) expect(ids).toEqual(expect.arrayContaining(r.pages!.map((p) => p.id)));
  });

  it('templates applied while a website import commits keep both changes', async () => {
    const space = await buildSpace(api.em(), org, admin);
    await buildContent(api.em(), space, [{ kind: 'document', title: 'Existing', markdown: 'kept' }]);
    const runId = await startImport(space.id);
    await releaseWhenWaiting(1);
    // One template at a time, for as long as the import is committing: only the two kinds of writer meet.
    let applied = 0;
    while (!['completed', 'failed'].includes((await run(runId)).status)) {
      const res = await api.request('POST', `/v1/spaces/${space.id}/content/template`, { token: admin.token, body: { id: 'getting-started' } });
      expect(res.status).toBe(204);
      applied++;
    }
    const done = await run(runId);
    expect(done.status).toBe('completed');
    const ids = await pageIds(space.id);
    expect(ids).toHaveLength(1 + (PAGES + 1) + 3 * applied);
    expect(ids).toEqual(expect.arrayContaining(done.pages!.map((p) => p.id)));
  });
});
