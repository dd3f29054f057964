import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitImport } from '../../src/domain/entities/git-import.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { GuardedHttp, parseAllowlist } from '../../src/domain/net/guarded-http.ts';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import { Space } from '../../src/domain/entities/space.entity.ts';
import { gitImportJob } from '../../src/jobs/git-import.job.ts';
import { finishRow } from '../../src/jobs/outbox-store.ts';
import { JobOutbox } from '../../src/jobs/outbox.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { jobs } from '../../src/jobs/registry.ts';
import type { RunningWorkers } from '../../src/workers/worker.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildSpace, type Caller } from '../support/factories.ts';
import { serveGit, TestRepository } from '../support/git-server.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { testJobServices, testRedisUrl } from '../support/test-env.ts';
import { waitFor } from '../support/test-jobs.ts';

const FILES = {
  '.gitbook.yaml': 'root: ./docs/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'docs/README.md': '# Welcome\n\nStart here. See [install](guides/install.md).\n',
  'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Overview](overview.md)\n\n## Guides\n\n* [Install](guides/install.md)\n  * [On Linux](guides/linux.md)\n* [Secret](guides/secret.md)\n',
  'docs/overview.md': '---\ndescription: What it is\nicon: 📘\n---\n\n# Overview\n\n![diagram](.gitbook/assets/diagram.png)\n',
  'docs/guides/install.md': '# Install\n\nRun the installer.\n',
  'docs/guides/linux.md': '# Linux\n\napt install it\n',
  'docs/guides/secret.md': '---\nhidden: true\n---\n\n# Secret\n',
  'docs/.gitbook/assets/diagram.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  'src/code.ts': 'export {}',
};

let api: TestApi;
let org: Organization;
let admin: Caller;
let reader: Caller;
let outsider: Caller;
let repo: TestRepository;
let git: { url: string; close(): Promise<void> };
let workers: RunningWorkers;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  ({ org, admin, outsider, members: { read: reader } } = await buildCast(em, ['read'] as const));
  repo = await TestRepository.create('docs', FILES);
  git = await serveGit(repo.root);
  workers = startTestWorkers(api, ['imports', 'search']);
}, 60_000);
afterAll(async () => {
  await workers.close();
  await git.close();
  await api.close();
});

async function importInto(spaceId: string) {
  const res = await api.request('POST', `/v1/spaces/${spaceId}/git/import`, {
    token: admin.token,
    body: { url: `${git.url}/docs.git`, ref: 'refs/heads/main' },
  });
  expect(res.status).toBe(204);
  expectPublishedShape(res, 'POST', '/spaces/{spaceId}/git/import');
  let imp: GitImport | null = null;
  await waitFor(async () => {
    imp = await api.em().findOne(GitImport, { space: spaceId }, { orderBy: { createdAt: 'desc' } });
    return imp?.status === 'completed' || imp?.status === 'failed';
  }, 30_000, 'git import');
  return imp!;
}

describe('Git import', () => {
  it('reads the Git Sync layout into pages and files', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const imp = await importInto(space.id);
    expect(imp.error).toBeNull();
    const { data } = await api.client(reader.token).spaces.listPages(space.id);
    const titles = (pages: Array<{ title: string; pages?: unknown[] }>): unknown =>
      pages.map((p) => (p.pages?.length ? [p.title, titles(p.pages as never)] : p.title));
    expect(titles(data.pages as never)).toEqual(['Welcome', 'Overview', ['Guides', [['Install', ['On Linux']], 'Secret']]]);
    const overview = data.pages[1] as { description?: string; emoji?: string; path: string };
    expect(overview).toMatchObject({ description: 'What it is', emoji: '📘', path: 'overview' });
    const secret = (data.pages[2] as { pages: Array<{ hidden?: boolean }> }).pages[1];
    expect(secret!.hidden).toBe(true);
    const files = await api.client(reader.token).spaces.listFiles(space.id);
    expect(files.data.items.map((f) => [f.name, f.contentType])).toEqual([['diagram.png', 'image/png']]);
    const revision = await api.client(reader.token).spaces.getCurrentRevision(space.id);
    expect(revision.data.git).toMatchObject({ url: `${git.url}/docs.git`, ref: 'refs/heads/main', createdByGitBook: false });
    // The import recorded a re-index with its commit; once that job ran, search finds the imported text.
    const search = () => api.client(reader.token).spaces.searchSpaceContent(space.id, { query: 'apt' });
    await waitFor(async () => (await search()).data.items.length > 0, 15_000, 'search to find the imported page');
    expect((await search()).data.items.map((i) => i.title)).toEqual(['On Linux']);
  });

  it('keeps page ids when the same paths are imported again', async () => {
    const space = await buildSpace(api.em(), org, admin);
    await importInto(space.id);
    const before = await api.client(reader.token).spaces.listPages(space.id);
    await repo.commit({ 'docs/guides/install.md': '# Install\n\nRun the new installer.\n' }, 'update install');
    const second = await importInto(space.id);
    // The second import really ran and its content is current, so the ids were carried, not left over.
    expect(second).toMatchObject({ status: 'completed', error: null });
    expect((await api.client(reader.token).spaces.getCurrentRevision(space.id)).data.id).toBe(second.revision);
    const after = await api.client(reader.token).spaces.listPages(space.id);
    const install = ((after.data.pages[2] as { pages: Array<{ id: string }> }).pages[0])!;
    expect(((await api.client(reader.token).spaces.getPageById(space.id, install.id)).data as { markdown: string }).markdown).toContain('new installer');
    const ids = (r: typeof before) => JSON.stringify(r.data.pages, (k, v) => (k === 'title' || k === 'id' || k === 'pages' || typeof k !== 'string' || /^\d+$/.test(k) || k === '' ? v : undefined));
    expect(ids(after)).toEqual(ids(before));
  });

  it('commits once when the run dies right after its commit and is retried', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const em = api.em();
    const imp = em.create(GitImport, { space: space.id, url: `${git.url}/docs.git`, ref: 'refs/heads/main' });
    await em.flush();
    // Its outbox row, as the route records it; the worker hands the handler `finishIn`.
    const row = em.create(OutboxEntry, { id: newId(), queue: gitImportJob.queue, name: gitImportJob.name, payload: { importId: imp.id }, delayMs: 0, enqueuedAt: new Date() });
    await em.flush();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: api.rt.config.queuePrefix }, jobs, api.rt.log);
    const attempt = (n: number, reportProgress: (p: unknown) => Promise<void>) => {
      const finishIn = (tx: EntityManager) => finishRow(tx, row.id);
      const ctx = { em: api.em(), log: api.rt.log, clock: { now: () => new Date() }, outbox: new JobOutbox(producer, api.rt.log), attempt: n, services: testJobServices(), reportProgress, finishIn };
      return gitImportJob.handle({ importId: imp.id }, ctx);
    };
    // Redis failing the progress report after the commit stands for any death past that point.
    const dies = async (p: unknown) => {
      if ((p as { stage?: string }).stage === 'committed') throw new Error('connection lost');
    };
    await expect(attempt(1, dies)).rejects.toThrow(/connection lost/);
    // The record of the job went with the commit that completed it: nothing is owed any more.
    expect(await api.em().findOne(OutboxEntry, { id: row.id })).toBeNull();
    expect(await attempt(2, async () => undefined)).toEqual({ skipped: true });
    await producer.close();
    expect(await api.em().count(Revision, { space: space.id })).toBe(2);
    const done = await api.em().findOneOrFail(GitImport, { id: imp.id });
    expect(done).toMatchObject({ status: 'completed', revision: (await api.em().findOneOrFail(Space, space.id)).revision });
  });

  it('refuses a repository on a private address when it is not allowed (no retry)', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const em = api.em();
    const imp = em.create(GitImport, { space: space.id, url: `${git.url}/docs.git`, ref: 'main' });
    await em.flush();
    const strict = { ...testJobServices(), http: new GuardedHttp({ allow: parseAllowlist(''), timeoutMs: 5000, maxBytes: 1e6, maxRedirects: 3, userAgent: 't' }) };
    const ctx = { em: api.em(), log: api.rt.log, clock: { now: () => new Date() }, outbox: null as never, attempt: 1, services: strict, reportProgress: async () => undefined };
    await expect(gitImportJob.handle({ importId: imp.id }, ctx)).rejects.toThrow(/Refused/);
    await gitImportJob.onFinalFailure!({ importId: imp.id }, new Error('Refused to connect'), ctx);
    const failed = await api.em().findOneOrFail(GitImport, { id: imp.id });
    expect(failed).toMatchObject({ status: 'failed' });
  });

  it('answers 400, 404, other organization and role too low', async () => {
    const space = await buildSpace(api.em(), org, admin);
    const url = `/v1/spaces/${space.id}/git/import`;
    const body = { url: `${git.url}/docs.git`, ref: 'refs/heads/main' };
    expectError(await api.request('POST', url, { token: admin.token, body: { ...body, url: 'ftp://x.test/repo' } }), 400, /url/);
    expectError(await api.request('POST', url, { token: admin.token, body: { url: body.url } }), 400, /ref/);
    expectError(await api.request('POST', url, { token: admin.token, body: { ...body, repoProjectDirectory: '../etc' } }), 400, /repoProjectDirectory/);
    expectError(await api.request('POST', '/v1/spaces/unknown/git/import', { token: admin.token, body }), 404);
    expectError(await api.request('POST', url, { token: outsider.token, body }), 404);
    expectError(await api.request('POST', url, { token: reader.token, body }), 403);
    expect(await api.em().count(GitImport, { space: space.id })).toBe(0);
  });
});
