import type { RejectedSegment } from '../entities/translation-run.entity.ts';
import { countWords, rebuild, segmentMarkdown } from './markdown-segments.ts';
import type { GlossaryTerm, TranslationProvider } from './provider.ts';
import type { SourcePage } from './run-inputs.ts';

export type TranslatedPage = {
  title: string;
  description: string | null;
  markdown: string | null;
  words: number;
  rejected: RejectedSegment[];
  /** Provider calls made (benchmarks report requests per page). */
  requests: number;
};

export type PageContext = { from: string; to: string; instructions: string; glossary: GlossaryTerm[]; provider: TranslationProvider; signal?: AbortSignal };

/**
 * Translates a page's title, description and body segment by segment (markdown-segments.ts),
 * in provider-sized batches; a segment whose translation fails validation keeps its source
 * text and is reported. Titles and descriptions are segmented as Markdown too, so inline
 * code or a variable in them survives the same way.
 */
export async function translatePage(source: SourcePage, ctx: PageContext): Promise<TranslatedPage> {
  const parts = [source.title, source.description, source.markdown].map((text) => (text === null ? null : segmentMarkdown(text)));
  const texts = parts.flatMap((p) => (p ? p.segments.map((s) => s.text) : []));
  const translated: string[] = [];
  let requests = 0;
  for (let i = 0; i < texts.length; i += ctx.provider.batchSize) {
    ctx.signal?.throwIfAborted();
    const segments = texts.slice(i, i + ctx.provider.batchSize);
    const out = await ctx.provider.translate({ from: ctx.from, to: ctx.to, instructions: ctx.instructions, glossary: ctx.glossary, segments }, ctx.signal);
    requests++;
    // A provider that answers with the wrong count would shift every later segment.
    if (out.length !== segments.length) throw new Error(`${ctx.provider.name} answered ${out.length} translations for ${segments.length} segments`);
    translated.push(...out);
  }
  const rejected: RejectedSegment[] = [];
  let offset = 0;
  const [title, description, markdown] = parts.map((part) => {
    if (!part) return null;
    const own = translated.slice(offset, offset + part.segments.length);
    const at = offset;
    offset += part.segments.length;
    const rebuilt = rebuild(part, own);
    for (const r of rebuilt.rejected) rejected.push({ page: source.page.node.pageId, segment: at + r.index, reason: r.reason });
    return rebuilt.markdown;
  });
  return {
    title: title!,
    description: description ?? null,
    markdown: markdown ?? null,
    words: parts.reduce((sum, p) => sum + (p ? countWords(p) : 0), 0),
    rejected,
    requests,
  };
}
