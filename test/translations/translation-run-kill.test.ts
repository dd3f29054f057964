import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslationPage } from '../../src/domain/entities/translation-page.entity.ts';
import { TranslationRun } from '../../src/domain/entities/translation-run.entity.ts';
import { Translation } from '../../src/domain/entities/translation.entity.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { buildCast, buildContent, buildSpace } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { spawnWorker } from '../support/spawn-worker.ts';
import { marks, waitFor } from '../support/test-jobs.ts';
import { PAGES_AT_ONCE } from '../../src/domain/translations/run-translation.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  marks().disconnect();
});

const PAGES = 20;

describe('a worker killed in the middle of a translation run', () => {
  it('is resumed by the retry from the page checkpoints: no finished page is translated twice', async () => {
    const em = api.em();
    const { org, admin } = await buildCast(em, [] as const);
    const source = await buildSpace(em, org, admin);
    await buildContent(
      em,
      source,
      Array.from({ length: PAGES }, (_, i) => ({ kind: 'document' as const, title: `Page ${i + 1}`, markdown: `# Page ${i + 1}\n\nSome text to translate on page ${i + 1}.\n` })),
    );
    const t = em.create(Translation, { organization: org, sourceSpace: source, sourceLanguage: 'en', language: 'de', instructions: { object: 'document', data: {}, nodes: [] } });
    await em.flush();
    const calls = `vellum-test:translate:${newId()}`;
    // One provider call per page (its segments fit one batch), 150 ms each: the kill lands mid-run.
    const env = { WORKER_QUEUES: 'translations', TRANSLATION_DELAY_MS: '150', TRANSLATION_MARKS: calls };
    const children: ChildProcess[] = [];
    try {
      children.push(await spawnWorker(api.rt.config.queuePrefix, env));
      expect((await api.request('POST', `/v1/orgs/${org.id}/translations/${t.id}/run`, { token: admin.token })).status).toBe(204);
      await waitFor(async () => (await api.em().count(TranslationPage, { translation: t.id })) >= 5, 30_000, 'five pages checkpointed');
      children[0]!.kill('SIGKILL');
      await new Promise((r) => children[0]!.once('exit', r));
      const checkpointed = await api.em().find(TranslationPage, { translation: t.id });
      expect(checkpointed.length).toBeLessThan(PAGES);
      const [killed] = await api.em().find(TranslationRun, { translation: t.id });
      expect(killed).toMatchObject({ status: 'running' });

      children.push(await spawnWorker(api.rt.config.queuePrefix, env));
      await waitFor(async () => (await api.em().findOneOrFail(TranslationRun, { id: killed!.id })).status === 'completed', 60_000, 'the retry to complete the run');

      const requested = await marks().lrange(calls, 0, -1);
      const times = (title: string) => requested.filter((c) => c === title).length;
      // The pages checkpointed before the kill were not asked of the provider again...
      const titles = new Map((await api.em().execute<{ page_id: string; title: string }[]>('select page_id, title from page_nodes where page_id in (?)', [checkpointed.map((p) => p.sourcePage)])).map((r) => [r.page_id, r.title]));
      for (const page of checkpointed) expect(times(titles.get(page.sourcePage)!), titles.get(page.sourcePage)).toBe(1);
      // ...and at most the pages in flight at the kill (PAGES_AT_ONCE) were translated twice.
      expect(requested.length).toBeGreaterThanOrEqual(PAGES);
      expect(requested.length).toBeLessThanOrEqual(PAGES + PAGES_AT_ONCE);
      expect(new Set(requested).size).toBe(PAGES);

      const run = await api.em().findOneOrFail(TranslationRun, { id: killed!.id });
      // The run's own count covers both attempts: every page, once.
      expect(run).toMatchObject({ status: 'completed', pages: PAGES });
      const after = await api.em().findOneOrFail(Translation, { id: t.id });
      expect(after).toMatchObject({ status: 'completed', runs: 1, latestPages: PAGES });
      const pages = await api.request('GET', `/v1/spaces/${after.resultSpace!.id}/content/pages`, { token: admin.token });
      expect(pages.body.pages).toHaveLength(PAGES);
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await marks().del(calls);
    }
  }, 120_000);
});
