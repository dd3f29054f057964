import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../shared/ids.ts';
import type { TranslatedPage } from './translate-page.ts';

/** A page's translation as the result tree needs it (a stored row, or one just written). */
export type PageResult = { resultPage: string; title: string; description: string | null; markdown: string | null };

export type Checkpoint = {
  translationId: string;
  runId: string;
  sourcePage: string;
  hash: string;
  /** The page's id in the result space when it has one: kept, so result page ids never change. */
  resultPage: string | undefined;
  translated: TranslatedPage;
};

/**
 * Stores one page's translation at once, committed on its own: a worker killed later in the
 * run leaves it, and the retry finds its hash and skips the page. The segments it had to
 * leave untranslated go into the run's record in the same commit, so none is lost either.
 */
export async function checkpointPage(em: EntityManager, c: Checkpoint): Promise<PageResult> {
  const { translated: t } = c;
  return em.transactional(async (tx) => {
    const rows = await tx.execute<{ result_page: string }[]>(
      `insert into translation_pages (translation_id, source_page, source_hash, result_page, title, description, markdown, words, run, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, now())
       on conflict (translation_id, source_page) do update set source_hash = excluded.source_hash, title = excluded.title,
         description = excluded.description, markdown = excluded.markdown, words = excluded.words, run = excluded.run, updated_at = now()
       returning result_page`,
      [c.translationId, c.sourcePage, c.hash, c.resultPage ?? newId(), t.title, t.description, t.markdown, t.words, c.runId],
    );
    if (t.rejected.length) await tx.execute('update translation_runs set rejected = rejected || ?::jsonb where id = ?', [JSON.stringify(t.rejected), c.runId]);
    return { resultPage: rows[0]!.result_page, title: t.title, description: t.description, markdown: t.markdown };
  });
}
