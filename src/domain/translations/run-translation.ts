import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContentChangeRecorder } from '../content/commit-revision.ts';
import { TranslationRun } from '../entities/translation-run.entity.ts';
import { Translation } from '../entities/translation.entity.ts';
import { checkpointPage, type PageResult } from './checkpoint.ts';
import { commitResult } from './commit-result.ts';
import type { TranslationProvider } from './provider.ts';
import { lockTranslation, type ScheduleRun } from './request-run.ts';
import { pageHash, readRunInputs } from './run-inputs.ts';
import { translatePage } from './translate-page.ts';

/**
 * Pages translated side by side. A provider's latency is paid per request, one page after
 * another it bounds the run: against a server answering after 50 ms, 12 pages/s one at a
 * time (bench/translation-run.bench.ts). Kept small: each page in flight holds its segments
 * and, at its checkpoint, a pooled connection; a killed worker loses at most these.
 */
export const PAGES_AT_ONCE = 4;

export type RunDeps = {
  provider: TranslationProvider;
  now(): Date;
  /** What a change of the result space's content must record (the jobs layer: its re-index). */
  onChange: ContentChangeRecorder;
  /** Records the job of the follow-up run, when one was asked for during this one. */
  schedule: ScheduleRun;
  /** Ends the job's own record in the run's last transaction. */
  finishIn?(tx: EntityManager): Promise<void>;
  signal?: AbortSignal;
  onPage?(done: number, total: number): Promise<void>;
};

export type RunOutcome =
  | { skipped: string }
  | { completed: true; pages: number; words: number; rejected: number; requests: number; revision: string; followUp: boolean };

/**
 * Executes a queued run: pages whose hash (run-inputs.ts) matches their stored translation
 * are kept, the others translated and each stored on its own (the checkpoints a retry
 * resumes from), then one revision of the result space with the whole translated tree, the
 * stats and the run's end commit together. Only the live run of the translation executes:
 * a job whose run is no longer queued or running (already ended, or not the one asked for)
 * ends quietly, so a job delivered twice never writes a second result.
 */
export async function executeRun(em: EntityManager, translationId: string, runId: string, deps: RunDeps): Promise<RunOutcome> {
  const started = await startRun(em, translationId, runId, deps);
  if (!started) return { skipped: 'not the live run' };
  const inputs = await readRunInputs(em, started);
  const results = new Map<string, PageResult>();
  let requests = 0;
  let done = 0;
  let next = 0;
  const translateNext = async (): Promise<void> => {
    for (let i = next++; i < inputs.pages.length; i = next++) {
      deps.signal?.throwIfAborted();
      const source = inputs.pages[i]!;
      const pageId = source.page.node.pageId;
      const hash = pageHash(inputs, source, deps.provider.name);
      const stored = inputs.stored.get(pageId);
      if (stored && stored.sourceHash === hash) {
        results.set(pageId, { resultPage: stored.resultPage, title: stored.title, description: stored.description ?? null, markdown: stored.markdown ?? null });
      } else {
        const translated = await translatePage(source, { ...inputs, provider: deps.provider, signal: deps.signal });
        requests += translated.requests;
        results.set(pageId, await checkpointPage(em, { translationId, runId, sourcePage: pageId, hash, resultPage: stored?.resultPage, translated }));
      }
      await deps.onPage?.(++done, inputs.pages.length);
    }
  };
  // Pages are independent until the final commit: each checkpoint is a transaction of its own.
  await Promise.all(Array.from({ length: PAGES_AT_ONCE }, translateNext));
  return em.transactional(async (tx) => {
    await lockTranslation(tx, translationId);
    const translation = await tx.findOne(Translation, { id: translationId }, { refresh: true });
    const run = await tx.findOne(TranslationRun, { id: runId }, { refresh: true });
    if (!translation || run?.status !== 'running') return { skipped: 'the run ended meanwhile' };
    const outcome = await commitResult(tx, translation, run, inputs, results, deps);
    await deps.finishIn?.(tx);
    return { completed: true, requests, ...outcome };
  });
}

/** Marks the run running (a retry finds it running already) and the translation `running`; null when it is not the live run. */
async function startRun(em: EntityManager, translationId: string, runId: string, deps: RunDeps): Promise<Translation | null> {
  return em.transactional(async (tx) => {
    await lockTranslation(tx, translationId);
    const translation = await tx.findOne(Translation, { id: translationId }, { refresh: true });
    const run = await tx.findOne(TranslationRun, { id: runId, translation: translationId }, { refresh: true });
    if (!translation || !run || (run.status !== 'queued' && run.status !== 'running')) return null;
    if (run.status === 'queued') {
      run.status = 'running';
      run.startedAt = deps.now();
      run.provider = deps.provider.name;
    }
    translation.status = 'running';
    await tx.flush();
    return translation;
  });
}
