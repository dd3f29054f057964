import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { Space } from '../../src/domain/entities/space.entity.ts';
import { TranslationPage } from '../../src/domain/entities/translation-page.entity.ts';
import { TranslationRun } from '../../src/domain/entities/translation-run.entity.ts';
import { Translation } from '../../src/domain/entities/translation.entity.ts';
import { ProviderError } from '../../src/domain/translations/provider.ts';
import { pseudoTranslate } from '../../src/domain/translations/pseudo-translate.ts';
import { translationRunJob } from '../../src/jobs/translation-run.job.ts';
import type { RunningWorkers } from '../../src/workers/worker.ts';
import { buildCast, buildCollection, buildMember, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { serveGit, TestRepository } from '../support/git-server.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { testJobServices } from '../support/test-env.ts';
import { waitFor } from '../support/test-jobs.ts';
import { TestProvider } from '../support/test-providers.ts';

const CODE = '```bash\nnpm install --save vellum # keep me\n```';
const HINT = '{% hint style="info" %}\nUse apt on Debian.\n{% endhint %}';
const FILES = {
  '.gitbook.yaml': 'root: ./docs/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'docs/README.md': '# Welcome\n\nStart here. See [install](guides/install.md).\n',
  'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Overview](overview.md)\n\n## Guides\n\n* [Install](guides/install.md)\n  * [On Linux](guides/linux.md)\n',
  'docs/overview.md': '---\ndescription: What the product is\n---\n\n# Overview\n\nA short overview of the product.\n',
  'docs/guides/install.md': `# Install\n\nRun the installer:\n\n${CODE}\n\nThen call \`vellum.init()\` and read [the docs](https://example.com/docs?a=1).\n`,
  'docs/guides/linux.md': `# Linux\n\n${HINT}\n\nThat is all.\n`,
};

let api: TestApi;
let org: Organization;
let admin: Caller;
let repo: TestRepository;
let git: { url: string; close(): Promise<void> };
let workers: RunningWorkers;
const provider = new TestProvider();

beforeAll(async () => {
  api = await startTestApi();
  ({ org, admin } = await buildCast(api.em(), [] as const));
  repo = await TestRepository.create('docs', FILES);
  git = await serveGit(repo.root);
  workers = startTestWorkers(api, ['imports', 'search', 'translations'], { ...testJobServices(), translation: provider });
}, 60_000);
afterAll(async () => {
  await workers.close();
  await git.close();
  await api.close();
});

const runUrl = (t: Translation, query = '') => `/v1/orgs/${org.id}/translations/${t.id}/run${query}`;
const get = (path: string) => api.request('GET', `/v1${path}`, { token: admin.token });

/** A source space holding the repository's current content, imported through the API as users do. */
async function importInto(spaceId: string) {
  const res = await api.request('POST', `/v1/spaces/${spaceId}/git/import`, { token: admin.token, body: { url: `${git.url}/docs.git`, ref: 'refs/heads/main' } });
  expect(res.status).toBe(204);
  const revisionBefore = (await api.em().findOneOrFail(Space, { id: spaceId })).revision;
  await waitFor(async () => (await api.em().findOneOrFail(Space, { id: spaceId })).revision !== revisionBefore, 30_000, 'git import');
}

async function sourceWithContent(title = 'Product docs') {
  const space = await buildSpace(api.em(), org, admin, { title });
  await importInto(space.id);
  return space;
}

async function newTranslation(space: Space, language = 'fr') {
  const em = api.em();
  const t = em.create(Translation, { organization: org, sourceSpace: space, sourceLanguage: 'en', language, instructions: { object: 'document', data: {}, nodes: [] } });
  await em.flush();
  return t;
}

const runsOf = (t: Translation) => api.em().find(TranslationRun, { translation: t.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
const reload = (t: Translation) => api.em().findOneOrFail(Translation, { id: t.id });

/** Asks for a run and waits until no run of the translation is queued or running. */
async function run(t: Translation): Promise<TranslationRun> {
  const res = await api.request('POST', runUrl(t), { token: admin.token });
  expect(res.status).toBe(204);
  expect(res.body).toBeUndefined();
  await waitFor(async () => (await api.em().count(TranslationRun, { translation: t.id, status: { $in: ['queued', 'running'] } })) === 0, 30_000, 'translation run');
  return (await runsOf(t)).at(-1)!;
}

type WirePage = { id: string; title: string; description?: string; pages?: WirePage[] };
const flat = (pages: WirePage[]): WirePage[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);
const resultPages = async (spaceId: string) => flat((await get(`/spaces/${spaceId}/content/pages`)).body.pages as WirePage[]);
/** The result page translated from the source page titled `title` (the trees have the same shape). */
const counterpart = (result: WirePage[], source: WirePage[], title: string) => result[source.findIndex((p) => p.title === title)]!;
const markdownOf = async (spaceId: string, pageId: string) => (await get(`/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown as string;

describe('a translation run', () => {
  it('writes the translated tree into a new result space, readable through the content operations', async () => {
    const source = await sourceWithContent('Product documentation for the whole of Vellum, now');
    const t = await newTranslation(source);
    const done = await run(t);
    expect(done).toMatchObject({ status: 'completed', provider: 'pseudo', errorCode: null });

    const after = await reload(t);
    expect(after.status).toBe('completed');
    const space = await api.em().findOneOrFail(Space, { id: after.resultSpace!.id });
    // `<source title> (<language>)`, the source title cut to keep within the 50-character limit.
    expect(space.title).toBe('Product documentation for the whole of Vellum (fr)');
    expect(space.language).toBe('fr');
    expect(space.parent?.id ?? null).toBe(source.parent?.id ?? null);
    expect(space.revision).toBe(after.resultRevision);

    const sourcePages = await resultPages(source.id);
    const translated = await resultPages(space.id);
    // The same structure and order, every title pseudo-translated.
    expect(translated.map((p) => p.pages?.length ?? 0)).toEqual(sourcePages.map((p) => p.pages?.length ?? 0));
    expect(translated.map((p) => p.title)).toEqual(sourcePages.map((p) => expect.stringMatching(/^\[.+\]$/)));
    expect(counterpart(translated, sourcePages, 'Overview').description).toBe(pseudoTranslate('What the product is'));

    const install = counterpart(translated, sourcePages, 'Install');
    const body = await markdownOf(space.id, install.id);
    expect(body).toContain(CODE);
    expect(body).toContain('`vellum.init()`');
    expect(body).toContain('](https://example.com/docs?a=1)');
    expect(body).toContain(pseudoTranslate('Run the installer:'));
    expect(await markdownOf(space.id, counterpart(translated, sourcePages, 'On Linux').id)).toContain(HINT.split('\n')[0]);

    const stats = { runs: after.runs, latestPages: after.latestPages, totalPages: after.totalPages, latestWords: after.latestWords, totalWords: after.totalWords };
    expect(stats).toEqual({ runs: 1, latestPages: sourcePages.length, totalPages: sourcePages.length, latestWords: done.words, totalWords: done.words });
    expect(done.pages).toBe(sourcePages.length);
    expect(done.words).toBeGreaterThan(20);
    expect(after.totalDuration).toBe(after.latestRunDuration);
    expect(after.lastRun).toMatchObject({ run: done.id, outcome: 'completed', error: null });
  });

  it('re-translates only the changed page, keeps result page ids, and drops deleted pages', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    await run(t);
    const first = await reload(t);
    const before = await resultPages(first.resultSpace!.id);
    const sourcePages = await resultPages(source.id);

    await repo.commit({ 'docs/overview.md': '---\ndescription: What the product is\n---\n\n# Overview\n\nA longer overview of the product.\n' }, 'edit overview');
    await importInto(source.id);
    const dry = await api.request('POST', runUrl(t, '?dryRun=true'), { token: admin.token });
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({ pages: 1, words: expect.any(Number) });
    expect(await runsOf(t)).toHaveLength(1);

    provider.calls.length = 0;
    const second = await run(t);
    expect(second).toMatchObject({ status: 'completed', pages: 1, words: dry.body.words });
    expect(provider.calls).toEqual(['Overview']);
    const after = await reload(t);
    expect(after.resultSpace!.id).toBe(first.resultSpace!.id);
    expect(after.resultRevision).not.toBe(first.resultRevision);
    expect(after).toMatchObject({ runs: 2, latestPages: 1, latestWords: second.words, totalPages: first.totalPages + 1, totalWords: first.totalWords + second.words });
    const now = await resultPages(after.resultSpace!.id);
    expect(now.map((p) => p.id)).toEqual(before.map((p) => p.id));
    expect(await markdownOf(after.resultSpace!.id, counterpart(now, sourcePages, 'Overview').id)).toContain(pseudoTranslate('A longer overview of the product.'));

    // A page removed from the source leaves the result (and its stored translation goes).
    await repo.commit({ 'docs/SUMMARY.md': FILES['docs/SUMMARY.md'].replace('  * [On Linux](guides/linux.md)\n', '') }, 'drop linux');
    await importInto(source.id);
    const third = await run(t);
    expect(third.pages).toBe(0);
    const linux = counterpart(now, sourcePages, 'On Linux');
    const last = await resultPages(after.resultSpace!.id);
    expect(last.map((p) => p.id)).toEqual(before.map((p) => p.id).filter((id) => id !== linux.id));
    expect(await api.em().count(TranslationPage, { translation: t.id })).toBe(last.length);
    await repo.commit({ 'docs/SUMMARY.md': FILES['docs/SUMMARY.md'], 'docs/overview.md': FILES['docs/overview.md'] }, 'restore');
  });

  it('answers a dry run with everything before the first run, recording nothing', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    const dry = await api.request('POST', runUrl(t, '?dryRun=true'), { token: admin.token });
    expect(dry.status).toBe(200);
    expect(dry.body.pages).toBe(5);
    expect(dry.body.words).toBeGreaterThan(20);
    expect(await runsOf(t)).toHaveLength(0);
    expect(await api.em().count(OutboxEntry, { name: 'translations.run', payload: { translationId: t.id } })).toBe(0);
    const done = await run(t);
    expect({ pages: done.pages, words: done.words }).toEqual(dry.body);
    expect((await api.request('POST', runUrl(t, '?dryRun=true'), { token: admin.token })).body).toEqual({ pages: 0, words: 0 });
    expect((await api.request('POST', runUrl(t, '?dryRun=maybe'), { token: admin.token })).status).toBe(400);
  });

  it('keeps the source text of a segment whose translation breaks its structure, and reports it in the run', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    // An engine that drops the placeholder of inline code (`vellum.init()`) from what it returns.
    provider.mangle = (text) => text.replace(/⟦\d+⟧/g, '');
    let done: TranslationRun;
    try {
      done = await run(t);
    } finally {
      provider.mangle = null;
    }
    expect(done.status).toBe('completed');
    const translated = await resultPages((await reload(t)).resultSpace!.id);
    const sourcePages = await resultPages(source.id);
    const install = counterpart(translated, sourcePages, 'Install');
    const body = await markdownOf((await reload(t)).resultSpace!.id, install.id);
    expect(body).toContain('Then call `vellum.init()` and read [the docs](https://example.com/docs?a=1).');
    expect(body).toContain(pseudoTranslate('Run the installer:'));
    const installSource = sourcePages.find((p) => p.title === 'Install')!;
    expect(done.rejected).toContainEqual({ page: installSource.id, segment: expect.any(Number), reason: expect.any(String) });
    expect(done.rejected.every((r) => r.reason.length > 0)).toBe(true);
  });

  it('coalesces 20 concurrent asks into one run and one follow-up', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    provider.delayMs = 100;
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => api.request('POST', runUrl(t), { token: admin.token })));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(204));
      expect((await reload(t)).followUp).toBe(true);
      await waitFor(async () => (await runsOf(t)).length === 2 && (await api.em().count(TranslationRun, { translation: t.id, status: 'completed' })) === 2, 30_000, 'run and follow-up');
    } finally {
      provider.delayMs = 0;
    }
    const runs = await runsOf(t);
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed']);
    // The follow-up started after the first ended (never two at once), and found nothing new.
    expect(runs[1]!.startedAt!.getTime()).toBeGreaterThanOrEqual(runs[0]!.finishedAt!.getTime());
    expect(runs[1]!.pages).toBe(0);
    expect(await reload(t)).toMatchObject({ followUp: false, runs: 2, status: 'completed' });
  });

  it('keeps the previous result when the provider fails, returns to the previous status and records the failure', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    await run(t);
    const good = await reload(t);
    await repo.commit({ 'docs/guides/install.md': FILES['docs/guides/install.md'].replace('Run the installer', 'Run the new installer') }, 'edit install');
    await importInto(source.id);

    provider.failure = new ProviderError('QUOTA_EXCEEDED', 'The translation quota is used up');
    let failed: TranslationRun;
    try {
      failed = await run(t);
    } finally {
      provider.failure = null;
    }
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'QUOTA_EXCEEDED', errorMessage: 'The translation quota is used up' });
    // What users see: the translation as it was, and the failure in its run history.
    const read = await get(`/orgs/${org.id}/translations/${t.id}`);
    expect(read.body).toMatchObject({ status: 'completed', result: { space: good.resultSpace!.id, revision: good.resultRevision }, lastRun: { outcome: 'failed', error: { code: 'QUOTA_EXCEEDED' } } });
    const history = await get(`/orgs/${org.id}/translations/${t.id}/runs`);
    expect(history.body.items.map((r: { status: string; error: unknown }) => [r.status, r.error])).toEqual([
      ['failed', { code: 'QUOTA_EXCEEDED', message: 'The translation quota is used up' }],
      ['completed', null],
    ]);
    const after = await reload(t);
    expect(after).toMatchObject({ status: 'completed', resultRevision: good.resultRevision, runs: 1, totalPages: good.totalPages });
    expect(after.lastRun).toMatchObject({ run: failed.id, outcome: 'failed', error: { code: 'QUOTA_EXCEEDED', message: 'The translation quota is used up' } });
    expect((await api.em().findOneOrFail(Space, { id: good.resultSpace!.id })).revision).toBe(good.resultRevision);

    // The next run picks up where the source is now.
    const next = await run(t);
    expect(next).toMatchObject({ status: 'completed', pages: 1 });
    expect((await reload(t)).lastRun).toMatchObject({ outcome: 'completed', error: null });
    await repo.commit({ 'docs/guides/install.md': FILES['docs/guides/install.md'] }, 'restore install');
  });

  it('fails a run at once when its source space is in the bin; a dry run answers 409', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    expect((await api.request('DELETE', `/v1/spaces/${source.id}`, { token: admin.token })).status).toBe(204);
    const dry = await api.request('POST', runUrl(t, '?dryRun=true'), { token: admin.token });
    expect(dry.status).toBe(409);
    expect(dry.body.error.message).toMatch(/source space .* is deleted or no longer in this organization/);
    const failed = await run(t);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'SOURCE_UNAVAILABLE', pages: 0 });
    expect(await reload(t)).toMatchObject({ status: 'pending', resultSpace: null, lastRun: { outcome: 'failed', error: { code: 'SOURCE_UNAVAILABLE' } } });
  });

  it('keeps the source private: its result takes the source’s default level and grants, and only who reads the source may run it', async () => {
    const source = await sourceWithContent();
    const creator = await buildMember(api.em(), org, 'create');
    const reader = await buildMember(api.em(), org, 'read');
    const granted = await buildMember(api.em(), org, 'read');
    // Grants only: `granted` reads it, the others in the organization do not.
    expect((await api.request('PATCH', `/v1/spaces/${source.id}`, { token: admin.token, body: { defaultLevel: null } })).status).toBe(200);
    expect((await api.request('POST', `/v1/spaces/${source.id}/permissions`, { token: admin.token, body: { role: 'read', users: [granted.user.id] } })).status).toBe(204);
    const t = await newTranslation(source);
    for (const query of ['', '?dryRun=true']) {
      const refused = await api.request('POST', runUrl(t, query), { token: creator.token });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/cannot read the source space/);
    }
    await run(t);
    const result = (await reload(t)).resultSpace!.id;
    expect((await api.request('GET', `/v1/spaces/${result}`, { token: reader.token })).status).toBe(404);
    expect((await api.request('GET', `/v1/spaces/${result}/content/pages`, { token: granted.token })).status).toBe(200);
  });

  it('refuses a first run to whoever may not create spaces in the source’s collection', async () => {
    const collection = await buildCollection(api.em(), org, admin);
    const source = await buildSpace(api.em(), org, admin, { parent: collection });
    await importInto(source.id);
    const creator = await buildMember(api.em(), org, 'create');
    // The organization role `create`, but only `read` in this collection.
    expect((await api.request('PATCH', `/v1/collections/${collection.id}`, { token: admin.token, body: { defaultLevel: 'read' } })).status).toBe(200);
    const t = await newTranslation(source);
    const refused = await api.request('POST', runUrl(t), { token: creator.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/creates the result space/);
    expect(await runsOf(t)).toEqual([]);
  });

  it('writes a new result space when the last one is in the bin or in another organization, and never into it', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    await run(t);
    const first = (await reload(t)).resultSpace!.id;
    expect((await api.request('DELETE', `/v1/spaces/${first}`, { token: admin.token })).status).toBe(204);
    await run(t);
    const second = (await reload(t)).resultSpace!.id;
    expect(second).not.toBe(first);
    const binned = await api.em().findOneOrFail(Space, { id: first });
    const secondRevision = (await api.em().findOneOrFail(Space, { id: second })).revision;
    // Moved away (as a transfer does): left alone by the next run.
    const elsewhere = await buildOrg(api.em());
    await api.em().nativeUpdate(Space, { id: second }, { organization: elsewhere.org.id });
    await run(t);
    expect((await reload(t)).resultSpace!.id).not.toBe(second);
    expect((await api.em().findOneOrFail(Space, { id: second })).revision).toBe(secondRevision);
    expect((await api.em().findOneOrFail(Space, { id: first })).revision).toBe(binned.revision);
  });

  it('fails a run whose source space moved to another organization', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    const elsewhere = await buildOrg(api.em());
    await api.em().nativeUpdate(Space, { id: source.id }, { organization: elsewhere.org.id });
    const failed = await run(t);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'SOURCE_UNAVAILABLE', pages: 0 });
    expect((await reload(t)).resultSpace).toBeNull();
  });

  it('fails a first run back to pending, and still runs the follow-up asked for meanwhile', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    provider.failure = new ProviderError('AUTH_FAILED', 'Invalid API key');
    provider.delayMs = 200;
    try {
      expect((await api.request('POST', runUrl(t), { token: admin.token })).status).toBe(204);
      expect((await api.request('POST', runUrl(t), { token: admin.token })).status).toBe(204);
      await waitFor(async () => (await runsOf(t))[0]?.status === 'failed', 30_000, 'the first run to fail');
      provider.failure = null;
      await waitFor(async () => (await runsOf(t))[1]?.status === 'completed', 30_000, 'the follow-up');
    } finally {
      provider.failure = null;
      provider.delayMs = 0;
    }
    const [first, second] = await runsOf(t);
    expect(first).toMatchObject({ status: 'failed', errorCode: 'AUTH_FAILED' });
    expect(second!.pages).toBe(5);
    expect(await reload(t)).toMatchObject({ status: 'completed', runs: 1, followUp: false });
  });

  it('ends a run through the final-failure hook on a transient error, once, and leaves an ended run alone', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    const em = api.em();
    const queued = em.create(TranslationRun, { translation: t, status: 'running', startedAt: new Date() });
    await em.flush();
    const hookCtx = { em: api.em(), log: api.rt.log, clock: { now: () => new Date() } };
    await translationRunJob.onFinalFailure!({ translationId: t.id, runId: queued.id }, new ProviderError('UNAVAILABLE', 'Provider down'), hookCtx);
    await translationRunJob.onFinalFailure!({ translationId: t.id, runId: queued.id }, new Error('second call'), hookCtx);
    const [ended] = await runsOf(t);
    expect(ended).toMatchObject({ status: 'failed', errorCode: 'UNAVAILABLE', errorMessage: 'Provider down' });
    expect(await reload(t)).toMatchObject({ status: 'pending', lastRun: { outcome: 'failed', error: { code: 'UNAVAILABLE' } } });

    // A follow-up asked for meanwhile is queued by the hook too, its job recorded for the relay.
    const again = em.create(TranslationRun, { translation: t, status: 'running', startedAt: new Date() });
    await em.flush();
    await em.nativeUpdate(Translation, { id: t.id }, { followUp: true });
    await translationRunJob.onFinalFailure!({ translationId: t.id, runId: again.id }, new Error('worker lost'), hookCtx);
    const [, lost, next] = await runsOf(t);
    expect(lost).toMatchObject({ status: 'failed', errorCode: 'INTERNAL', errorMessage: 'worker lost' });
    expect(next).toMatchObject({ status: 'queued' });
    expect(await api.em().count(OutboxEntry, { name: 'translations.run', payload: { translationId: t.id, runId: next!.id } })).toBe(1);
    expect(await reload(t)).toMatchObject({ followUp: false });
    await api.em().nativeUpdate(TranslationRun, { id: next!.id }, { status: 'failed' });
    // The sweep finds live runs older than its grace.
    const live = em.create(TranslationRun, { translation: t, status: 'queued', createdAt: new Date(Date.now() - 60_000) });
    await em.flush();
    expect(await translationRunJob.unfinished!(api.em(), { before: new Date(), limit: 1000 })).toContainEqual({ translationId: t.id, runId: live.id });
  });

  it('ends quietly when its run is not the live one', async () => {
    const source = await sourceWithContent();
    const t = await newTranslation(source);
    const ctx = { em: api.em(), log: api.rt.log, clock: { now: () => new Date() }, outbox: { add() {}, size: 0 } as never, attempt: 1, services: testJobServices(), reportProgress: async () => {} };
    expect(await translationRunJob.handle({ translationId: t.id, runId: 'nosuchrun00000000000' }, ctx)).toEqual({ skipped: 'not the live run' });
    expect(await reload(t)).toMatchObject({ status: 'pending', runs: 0 });
  });
});
