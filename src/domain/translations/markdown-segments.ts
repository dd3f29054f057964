import type { Nodes, Root } from 'mdast';
import { parseMarkdown } from '../content/markdown/parse.ts';
import { encodeScalar, frontMatterValues } from './front-matter-segments.ts';
import { maskBlock } from './inline-mask.ts';
import { placeholderError, restoreTokens, stripTokens, type Token } from './placeholders.ts';

/**
 * One piece of text to translate. `text` is what goes to the engine, every span that must
 * survive byte-identical replaced by a placeholder; `start`/`end` is the source range the
 * translation replaces, so everything else in the document keeps its bytes.
 */
export type Segment = {
  kind: 'paragraph' | 'heading' | 'table-cell' | 'front-matter';
  text: string;
  tokens: ReadonlyMap<string, Token>;
  start: number;
  end: number;
  /** The block's whole content range, re-parsed to check a translation kept its structure. */
  block: { start: number; end: number };
};

export type Segmented = { source: string; segments: Segment[] };

export type Rebuilt = { markdown: string; rejected: Array<{ index: number; reason: string }> };

/**
 * The translatable text of a Markdown page, block by block from the parsed tree: paragraph,
 * heading and table-cell text (in lists, quotes and GitBook blocks alike) and front-matter
 * string values. Code, HTML and anything else without prose yields no segment.
 */
export function segmentMarkdown(markdown: string): Segmented {
  const segments: Segment[] = [];
  const visit = (node: Nodes) => {
    switch (node.type) {
      case 'yaml':
        for (const v of frontMatterValues(markdown, node)) segments.push({ kind: 'front-matter', ...v, block: { start: v.start, end: v.end } });
        return;
      case 'paragraph':
      case 'heading':
      case 'tableCell': {
        const masked = maskBlock(markdown, node.children);
        if (!masked) return;
        const block = { start: node.children[0]!.position!.start.offset!, end: node.children.at(-1)!.position!.end.offset! };
        const kind = node.type === 'tableCell' ? 'table-cell' : node.type;
        segments.push({ kind, ...masked, block });
        return;
      }
      default:
        if ('children' in node) node.children.forEach(visit);
    }
  };
  visit(parseMarkdown(markdown));
  return { source: markdown, segments };
}

/**
 * The source with each segment's translation spliced in at its offsets. A translation that
 * does not carry the source's placeholders, or that changes the block's Markdown structure,
 * is not used: its segment keeps the source text and is reported.
 */
export function rebuild(segmented: Segmented, translations: string[]): Rebuilt {
  const { source, segments } = segmented;
  if (translations.length !== segments.length) throw new RangeError(`expected ${segments.length} translations, got ${translations.length}`);
  const rejected: Rebuilt['rejected'] = [];
  let markdown = '';
  let at = 0;
  segments.forEach((segment, index) => {
    const translation = translations[index]!;
    const reason = rejection(source, segment, translation);
    if (reason) rejected.push({ index, reason });
    markdown += source.slice(at, segment.start) + (reason ? source.slice(segment.start, segment.end) : replacement(source, segment, translation));
    at = segment.end;
  });
  return { markdown: markdown + source.slice(at), rejected };
}

function replacement(source: string, segment: Segment, translation: string): string {
  const restored = restoreTokens(translation, segment.tokens);
  if (segment.kind !== 'front-matter') return restored;
  // An unchanged value keeps its own quoting; a new one is encoded so YAML reads it back.
  return restored === restoreTokens(segment.text, segment.tokens) ? source.slice(segment.start, segment.end) : encodeScalar(restored);
}

function rejection(source: string, segment: Segment, translation: string): string | null {
  const placeholders = placeholderError(translation, segment.tokens);
  if (placeholders) return placeholders;
  if (segment.kind === 'front-matter') return null;
  if ((segment.kind === 'heading' || segment.kind === 'table-cell') && translation.includes('\n')) return 'line break in a one-line block';
  if (segment.kind === 'table-cell' && /(^|[^\\])\|/.test(stripTokens(translation))) return 'unescaped | in a table cell';
  const { start, end } = segment.block;
  const before = source.slice(start, segment.start);
  const after = source.slice(segment.end, end);
  const translated = before + restoreTokens(translation, segment.tokens) + after;
  return shape(parseMarkdown(translated)) === shape(parseMarkdown(source.slice(start, end))) ? null : 'Markdown structure changed';
}

/**
 * A tree's node types (and targets) with their nesting, text left out and siblings sorted: a translation
 * may reorder words and the markup around them, not add or remove markup.
 */
export function shape(node: Nodes | Root): string {
  // Targets are part of the structure: a translation must not change where an autolink ends.
  const type = 'url' in node ? `${node.type}<${node.url}>` : node.type;
  if (!('children' in node)) return type;
  const children = (node.children as Nodes[]).filter((c) => c.type !== 'text').map(shape).sort();
  return `${type}(${children.join(',')})`;
}

/** Words to translate, placeholders excluded (for translation stats and cost estimates). */
export function countWords(segmented: Segmented): number {
  const words = new Intl.Segmenter(undefined, { granularity: 'word' });
  let count = 0;
  for (const { text } of segmented.segments) for (const w of words.segment(stripTokens(text))) if (w.isWordLike) count++;
  return count;
}
