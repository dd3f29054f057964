import type { EntityManager } from '@mikro-orm/postgresql';
import type { Translation } from '../entities/translation.entity.ts';
import { ConflictError } from '../shared/errors.ts';
import { SourceUnavailableError } from './fail-run.ts';
import { countWords, segmentMarkdown } from './markdown-segments.ts';
import { pageHash, readRunInputs } from './run-inputs.ts';

/**
 * The pages and words a run started now would translate (beyond GitBook: `?dryRun=true`):
 * the same hash comparison as the run itself, no provider called and nothing recorded.
 */
export async function dryRun(em: EntityManager, translation: Translation, providerName: string): Promise<{ pages: number; words: number }> {
  const inputs = await readRunInputs(em, translation).catch((err: unknown) => {
    // A run would fail at once (SOURCE_DELETED): say so rather than count pages.
    throw err instanceof SourceUnavailableError ? new ConflictError(err.message) : err;
  });
  let pages = 0;
  let words = 0;
  for (const page of inputs.pages) {
    if (inputs.stored.get(page.page.node.pageId)?.sourceHash === pageHash(inputs, page, providerName)) continue;
    pages++;
    for (const text of [page.title, page.description, page.markdown]) if (text !== null) words += countWords(segmentMarkdown(text));
  }
  return { pages, words };
}
