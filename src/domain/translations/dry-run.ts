import { setImmediate } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Translation } from '../entities/translation.entity.ts';
import { ConflictError } from '../shared/errors.ts';
import { SourceUnavailableError } from './fail-run.ts';
import { countWords, segmentMarkdown } from './markdown-segments.ts';
import { pageHash, readRunInputs } from './run-inputs.ts';

const YIELD_EVERY = 10;

/**
 * The pages and words a run started now would translate (beyond GitBook: `?dryRun=true`):
 * the same hash comparison as the run itself, no provider called and nothing recorded.
 */
export async function dryRun(em: EntityManager, translation: Translation, providerName: string): Promise<{ pages: number; words: number }> {
  const inputs = await readRunInputs(em, translation).catch((err: unknown) => {
    // A run would fail at once (SOURCE_UNAVAILABLE): say so rather than count pages.
    throw err instanceof SourceUnavailableError ? new ConflictError(err.message) : err;
  });
  let pages = 0;
  let words = 0;
  for (const [i, page] of inputs.pages.entries()) {
    // Segmenting is CPU work in the API process: let other requests in between pages
    // (a 1,500-page dry run held every other request for 12 s when done in one go).
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await setImmediate();
    if (inputs.stored.get(page.page.node.pageId)?.sourceHash === pageHash(inputs, page, providerName)) continue;
    pages++;
    for (const text of [page.title, page.description, page.markdown]) if (text !== null) words += countWords(segmentMarkdown(text));
  }
  return { pages, words };
}
