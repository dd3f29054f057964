import type { PageSpec } from '../../src/domain/content/page-tree.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { pageMarkdown } from './corpus.ts';

/**
 * 50 sections of 99 pages under a section page: 5,000 pages, two levels deep, with ids.
 * `salt` (a run-unique line) keeps earlier runs' stored bodies from being reused.
 */
export function sectionedPages(pick: () => string, random: () => number, salt: string): PageSpec[] {
  return Array.from({ length: 50 }, (_, s) => ({
    id: newId(),
    kind: 'document' as const,
    title: `Section ${s}`,
    markdown: pageMarkdown(`Section ${s}`, pick, random) + salt,
    children: Array.from({ length: 99 }, (_, p) => ({ id: newId(), kind: 'document' as const, title: `Topic ${s}.${p} ${pick()}`, markdown: pageMarkdown(`Topic ${s}.${p}`, pick, random) + salt })),
  }));
}
