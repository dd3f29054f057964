import type { EntityManager } from '@mikro-orm/postgresql';
import { canonicalJson, contentHash } from '../content/hashing.ts';
import { flattenTree, loadBodies, loadTree, type TreePage } from '../content/revision-reader.ts';
import { GlossaryEntry } from '../entities/glossary-entry.entity.ts';
import { Revision } from '../entities/revision.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { TranslationPage } from '../entities/translation-page.entity.ts';
import type { Translation } from '../entities/translation.entity.ts';
import { SourceUnavailableError } from './fail-run.ts';
import type { GlossaryTerm } from './provider.ts';

/** A source page with what is translated of it. */
export type SourcePage = { page: TreePage; title: string; description: string | null; markdown: string | null };

/** Everything a run translates with, read once per attempt: a page's hash is a function of it. */
export type RunInputs = {
  source: { space: Space; revision: Revision };
  /** The source tree, and its pages in tree order. */
  tree: TreePage[];
  pages: SourcePage[];
  from: string;
  to: string;
  instructions: string;
  glossary: GlossaryTerm[];
  /** The stored per-page translations, by source page id. */
  stored: Map<string, TranslationPage>;
};

export async function readRunInputs(em: EntityManager, translation: Translation): Promise<RunInputs> {
  // In the bin, or moved to another organization: a run must not translate content its
  // owners removed, nor carry another organization's words into this one.
  const space = await em.findOne(Space, { id: translation.sourceSpace.id, organization: translation.organization.id, deletedAt: null });
  if (!space) throw new SourceUnavailableError(translation.sourceSpace.id);
  const revision = await em.findOneOrFail(Revision, { id: space.revision });
  const tree = await loadTree(em, revision.pages);
  const flat = flattenTree(tree);
  const bodies = await loadBodies(em, flat.flatMap((p) => (p.node.bodyHash ? [p.node.bodyHash] : [])));
  const pages = flat.map((page) => ({
    page,
    title: page.node.title,
    description: page.node.description ?? null,
    markdown: page.node.bodyHash ? (bodies.get(page.node.bodyHash)?.markdown ?? '') : null,
  }));
  const stored = await em.find(TranslationPage, { translation });
  return {
    source: { space, revision },
    tree,
    pages,
    from: translation.sourceLanguage,
    to: translation.language,
    instructions: documentText(translation.instructions),
    glossary: await glossaryFor(em, translation),
    stored: new Map(stored.map((p) => [p.sourcePage, p])),
  };
}

/**
 * What decides whether a page must be translated again: its text, and everything the
 * translation of it depends on (instructions, glossary, languages, provider).
 */
export function pageHash(inputs: RunInputs, page: SourcePage, provider: string): string {
  const { from, to, instructions, glossary } = inputs;
  return contentHash(canonicalJson({ title: page.title, description: page.description, markdown: page.markdown, from, to, instructions, glossary, provider }));
}

/** The organization's glossary terms that have a rendering in both languages, in a stable order. */
async function glossaryFor(em: EntityManager, translation: Translation): Promise<GlossaryTerm[]> {
  const entries = await em.find(GlossaryEntry, { organization: translation.organization }, { orderBy: { id: 'asc' } });
  return entries
    .flatMap((e) => {
      const source = e.translations[translation.sourceLanguage];
      const target = e.translations[translation.language];
      return source && target ? [{ source, target }] : [];
    })
    .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

/** A rich-text document (JSONDocument) as plain text: its text leaves, one line per block. */
export function documentText(doc: unknown): string {
  const lines: string[] = [];
  const inline = (node: unknown): string => {
    if (!node || typeof node !== 'object') return '';
    const n = node as { text?: unknown; leaves?: unknown[]; nodes?: unknown[] };
    if (typeof n.text === 'string') return n.text;
    return [...(n.leaves ?? []), ...(n.nodes ?? [])].map(inline).join('');
  };
  const walk = (node: unknown) => {
    const n = node as { object?: string; nodes?: unknown[] };
    if (n?.object === 'block' && n.nodes?.every((c) => (c as { object?: string })?.object !== 'block')) lines.push(inline(n));
    else n?.nodes?.forEach(walk);
  };
  walk(doc);
  return lines.filter((l) => l.trim()).join('\n');
}
