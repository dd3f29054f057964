import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specsOf } from '../../src/domain/content/current-pages.ts';
import type { PageSpec } from '../../src/domain/content/page-tree.ts';
import { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import type { RunningWorkers } from '../../src/workers/worker.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildChangeRequestContent, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { spawnWorker } from '../support/spawn-worker.ts';
import { SlowSite } from '../support/slow-site.ts';
import { waitFor } from '../support/test-jobs.ts';

const SITE: Record<string, string> = {
  '/docs/index.html': '<html><body><main><h1>Home</h1><p>Imported <strong>docs</strong>.</p><a href="a.html">A</a></main></body></html>',
  '/docs/a.html': '<html><body><main><h1>Page A</h1><p>Alpha text.</p></main></body></html>',
};
const slow = new SlowSite();

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let reader: Caller;
let server: Server;
let base: string;

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), ['edit', 'read'] as const);
  ({ org, admin } = cast);
  ({ edit: editor, read: reader } = cast.members);
  server = createServer((req, res) => {
    if (req.url!.startsWith('/slow/')) return slow.serve(req.url!, res);
    const page = SITE[req.url!.split('?')[0]!];
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await api.close();
});

/** A space with one page (Home) in main, and an open change request that added a page of its own (Draft). */
async function spaceWithChangeRequest() {
  const em = api.em();
  const space = await buildSpace(em, org, admin);
  const main = await buildContent(em, space, [{ id: 'mainHome000000000000', kind: 'document', title: 'Home', markdown: 'home' }]);
  const cr = await buildChangeRequest(em, space, editor);
  await buildChangeRequestContent(em, space, cr, editor, [
    { id: 'mainHome000000000000', kind: 'document', title: 'Home', markdown: 'home' },
    { id: `draft${cr.id.slice(0, 15)}`, kind: 'document', title: 'Draft', markdown: 'draft' },
  ]);
  return { space, cr, mainRevision: main.id, draftId: `draft${cr.id.slice(0, 15)}` };
}

async function changeRequestPages(cr: ChangeRequest): Promise<PageSpec[]> {
  const em = api.em();
  const fresh = await em.findOneOrFail(ChangeRequest, { id: cr.id });
  return specsOf(em, await em.findOneOrFail(Revision, { id: fresh.revision }));
}

async function mainRevisionOf(space: Space) {
  return (await api.em().execute<{ revision: string }[]>('select revision from spaces where id = ?', [space.id]))[0]!.revision;
}

/** Jobs recorded to re-index the space's search (none may follow a change request's commit). */
async function indexJobsFor(space: Space) {
  const rows = await api.em().execute<{ n: string }[]>("select count(*) as n from job_outbox where name = 'search.index-space' and payload->>'spaceId' = ?", [space.id]);
  return Number(rows[0]!.n);
}

async function finished(runId: string) {
  let run: { status: string; pages?: Array<{ id: string; sourceURL: string }>; error?: string } = { status: 'pending' };
  await waitFor(async () => {
    run = (await api.request('GET', `/v1/org/${org.id}/imports/${runId}`, { token: admin.token })).body;
    return ['completed', 'failed', 'cancelled'].includes(run.status);
  }, 30_000, 'import run');
  return run;
}

describe('import runs into a change request', () => {
  let workers: RunningWorkers;
  beforeAll(() => {
    workers = startTestWorkers(api, ['imports']);
  });
  afterAll(() => workers.close());

  it('imports the pages into the change request (named by number), under one of its own pages, leaving main untouched', async () => {
    const { space, cr, mainRevision, draftId } = await spaceWithChangeRequest();
    const started = await api.client(editor.token).org.startImportRun(org.id, {
      source: { type: 'website', url: `${base}/docs/index.html` },
      target: { space: space.id, changeRequest: String(cr.number), page: draftId },
    } as never);
    expectPublishedShape(started, 'POST', '/org/{organizationId}/imports');
    const run = await finished(started.data.id);
    expect(run.status).toBe('completed');
    const pages = await changeRequestPages(cr);
    expect(pages.map((p) => p.title)).toEqual(['Home', 'Draft']);
    expect(pages[1]!.children!.map((p) => [p.id, p.title])).toEqual(run.pages!.map((p, i) => [p.id, ['Home', 'Page A'][i]]));
    expect(await mainRevisionOf(space)).toBe(mainRevision);
    expect(await indexJobsFor(space)).toBe(0);
    const contributors = await api.em().execute('select user_id from change_request_contributors where change_request_id = ? order by user_id', [cr.id]);
    expect(contributors).toEqual([{ user_id: editor.user.id }]);
  });

  it('refuses a change request of another space, an unknown one, a page it lacks (400) and a closed one (409)', async () => {
    const { space, cr } = await spaceWithChangeRequest();
    const other = await spaceWithChangeRequest();
    const url = `/v1/org/${org.id}/imports`;
    const source = { type: 'website', url: `${base}/docs/a.html` };
    const runsBefore = await api.em().execute('select count(*) as n from import_runs where space_id = ?', [space.id]);
    expectError(await api.request('POST', url, { token: admin.token, body: { source, target: { space: space.id, changeRequest: other.cr.id } } }), 400, /target.changeRequest/);
    expectError(await api.request('POST', url, { token: admin.token, body: { source, target: { space: space.id, changeRequest: '99999' } } }), 400, /target.changeRequest/);
    expectError(await api.request('POST', url, { token: admin.token, body: { source, target: { space: space.id, changeRequest: cr.id, page: other.draftId } } }), 400, /target.page/);
    expectError(await api.request('POST', url, { token: reader.token, body: { source, target: { space: space.id, changeRequest: cr.id } } }), 403);
    await api.em().nativeUpdate(ChangeRequest, { id: cr.id }, { status: 'archived' });
    expectError(await api.request('POST', url, { token: admin.token, body: { source, target: { space: space.id, changeRequest: cr.id } } }), 409, /archived/);
    expect(await api.em().execute('select count(*) as n from import_runs where space_id = ?', [space.id])).toEqual(runsBefore);
  });

  it('fails the run for good when the change request is merged before the import commits', async () => {
    const { space, cr, mainRevision } = await spaceWithChangeRequest();
    slow.hits = 0;
    const res = await api.request('POST', `/v1/org/${org.id}/imports`, { token: admin.token, body: { source: { type: 'website', url: `${base}/slow/index.html` }, target: { space: space.id, changeRequest: cr.id } } });
    expect(res.status).toBe(201);
    const revision = (await api.em().findOneOrFail(ChangeRequest, { id: cr.id })).revision;
    await waitFor(async () => slow.hits >= 1, 10_000, 'the crawl to start');
    await api.em().nativeUpdate(ChangeRequest, { id: cr.id }, { status: 'merged' });
    const run = await finished(res.body.id);
    expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/merged/) });
    expect((await api.em().findOneOrFail(ChangeRequest, { id: cr.id })).revision).toBe(revision);
    expect(await mainRevisionOf(space)).toBe(mainRevision);
  });
});

describe('a worker killed mid-import into a change request', () => {
  it('re-runs the import and commits its pages once', async () => {
    const { space, cr, mainRevision } = await spaceWithChangeRequest();
    const revisionsBefore = await api.em().count(Revision, { changeRequest: cr.id });
    const children: ChildProcess[] = [];
    const spawnImporter = () => spawnWorker(api.rt.config.queuePrefix, { WORKER_QUEUES: 'imports' });
    try {
      const first = await spawnImporter();
      children.push(first);
      slow.hits = 0;
      const res = await api.request('POST', `/v1/org/${org.id}/imports`, { token: admin.token, body: { source: { type: 'website', url: `${base}/slow/index.html` }, target: { space: space.id, changeRequest: cr.id } } });
      expect(res.status).toBe(201);
      await waitFor(async () => slow.hits >= 3, 15_000, 'the crawl to be under way');
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      expect((await api.request('GET', `/v1/org/${org.id}/imports/${res.body.id}`, { token: admin.token })).body.status).toBe('in-progress');
      expect(await api.em().count(Revision, { changeRequest: cr.id })).toBe(revisionsBefore);

      // The killed job's lock lapses and another worker runs it again, through to the commit.
      children.push(await spawnImporter());
      const run = await finished(res.body.id);
      expect(run.status).toBe('completed');
      const pages = await changeRequestPages(cr);
      const imported = pages.slice(2);
      expect(imported).toHaveLength(slow.pages + 1);
      expect(imported.map((p) => p.id)).toEqual(run.pages!.map((p) => p.id));
      expect(new Set(imported.map((p) => p.title)).size).toBe(slow.pages + 1);
      expect(await api.em().count(Revision, { changeRequest: cr.id })).toBe(revisionsBefore + 1);
      expect(await mainRevisionOf(space)).toBe(mainRevision);
    } finally {
      for (const child of children) child.kill('SIGKILL');
    }
  }, 90_000);
});

describe('templates into a change request', () => {
  it('appends the template’s pages to the change request (by id or number), leaving main untouched', async () => {
    const { space, cr, mainRevision } = await spaceWithChangeRequest();
    const res = await api.request('POST', `/v1/spaces/${space.id}/content/template`, { token: editor.token, body: { id: 'knowledge-base', changeRequestId: cr.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect((await changeRequestPages(cr)).map((p) => p.title)).toEqual(['Home', 'Draft', 'Welcome', 'Troubleshooting']);
    const again = await api.request('POST', `/v1/spaces/${space.id}/content/template`, { token: admin.token, body: { id: 'getting-started', changeRequestId: String(cr.number) } });
    expect(again.status).toBe(204);
    expect((await changeRequestPages(cr)).map((p) => p.title)).toEqual(['Home', 'Draft', 'Welcome', 'Troubleshooting', 'Introduction', 'Quickstart', 'FAQ']);
    expect(await mainRevisionOf(space)).toBe(mainRevision);
    expect(await indexJobsFor(space)).toBe(0);
    const contributors = await api.em().execute('select user_id from change_request_contributors where change_request_id = ?', [cr.id]);
    expect((contributors as Array<{ user_id: string }>).map((c) => c.user_id).sort()).toEqual([admin.user.id, editor.user.id].sort());
  });

  it('keeps all of 10 templates applied to one change request at once', async () => {
    const { space, cr } = await spaceWithChangeRequest();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api.request('POST', `/v1/spaces/${space.id}/content/template`, { token: editor.token, body: { id: 'knowledge-base', changeRequestId: cr.id } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(204));
    expect((await changeRequestPages(cr)).filter((p) => p.title === 'Welcome')).toHaveLength(10);
  });

  it('refuses a change request of another space or none (400), a closed one (409) and a reader (403), changing nothing', async () => {
    const { space, cr, mainRevision } = await spaceWithChangeRequest();
    const other = await spaceWithChangeRequest();
    const before = await changeRequestPages(cr);
    const apply = (token: string, changeRequestId: string) => api.request('POST', `/v1/spaces/${space.id}/content/template`, { token, body: { id: 'knowledge-base', changeRequestId } });
    expectError(await apply(admin.token, other.cr.id), 400, /changeRequestId/);
    expectError(await apply(admin.token, '424242'), 400, /changeRequestId/);
    expectError(await apply(reader.token, cr.id), 403);
    await api.em().nativeUpdate(ChangeRequest, { id: cr.id }, { status: 'merged' });
    expectError(await apply(admin.token, cr.id), 409, /merged/);
    expect(await changeRequestPages(cr)).toEqual(before);
    expect(await mainRevisionOf(space)).toBe(mainRevision);
  });
});
