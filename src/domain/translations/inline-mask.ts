import type { PhrasingContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { atom, close, open, readTokens, type Token } from './placeholders.ts';

const WRAPPERS = new Set(['strong', 'emphasis', 'delete', 'link', 'linkReference']);

/** A source span a token stands for; `pair` links the opening and closing markup of one node. */
type Span = { start: number; end: number; kind: 'atom' | 'open' | 'close'; pair?: number };

/** The translatable text of one block, with the source range it replaces. */
export type MaskedBlock = {
  text: string;
  tokens: Map<string, Token>;
  /** Range of `text` in the source; outside it the block keeps its bytes. */
  start: number;
  end: number;
};

/**
 * Spans masked wherever they occur in prose, not only where remark made a node of them:
 * GitBook math (`$$…$$`, inline or as a block), GitBook tags and `{{ … }}` expressions are plain text to remark (an `{% embed url=… %}`
 * even holds an autolinked URL), character references would be mangled by a translator,
 * the placeholder brackets themselves must not be forged by the source, and a line break
 * followed by indentation or `>` is a container's prefix, not text.
 */
const TEXT_MASKS = /\$\$[\s\S]*?\$\$|\{%[^\n]*?%\}|\{\{[^\n]*?\}\}|&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);|[⟦⟧]|\n[ \t>]*[ \t>]/gi;

/**
 * The children of a paragraph, heading or table cell as one segment text, or null when
 * nothing in it is prose (a lone image, a GitBook tag line).
 */
export function maskBlock(source: string, children: PhrasingContent[]): MaskedBlock | null {
  const first = children[0]?.position?.start.offset;
  const last = children.at(-1)?.position?.end.offset;
  if (first === undefined || last === undefined) return null;
  const spans: Span[] = [];
  let pairs = 0;
  const visit = (node: PhrasingContent) => {
    const start = node.position!.start.offset!;
    const end = node.position!.end.offset!;
    switch (node.type) {
      case 'text':
        return;
      case 'strong':
      case 'emphasis':
      case 'delete':
      case 'link':
      case 'linkReference': {
        let inner = node.children;
        if (!inner.length || !isWrapped(source, node)) {
          spans.push({ start, end, kind: 'atom' });
          return;
        }
        // `***x***` or `**[x](url)**` is one pair of tokens, not two nested ones around the same words.
        while (inner.length === 1 && WRAPPERS.has(inner[0]!.type) && isWrapped(source, inner[0]!)) inner = (inner[0] as typeof node).children;
        if (!inner.length) {
          spans.push({ start, end, kind: 'atom' });
          return;
        }
        const pair = pairs++;
        spans.push({ start, end: inner[0]!.position!.start.offset!, kind: 'open', pair });
        spans.push({ start: inner.at(-1)!.position!.end.offset!, end, kind: 'close', pair });
        inner.forEach(visit);
        return;
      }
      default:
        // inlineCode, image, imageReference, html, break, footnoteReference: never translated.
        spans.push({ start, end, kind: 'atom' });
    }
  };
  children.forEach(visit);
  for (const m of source.slice(first, last).matchAll(TEXT_MASKS)) {
    spans.push({ start: first + m.index, end: first + m.index + m[0].length, kind: 'atom' });
  }
  return render(source, first, last, merge(spans));
}

/**
 * Whether the node's text is wrapped in markup a pair of tokens can restore. Autolinks
 * (`<https://…>`, bare `www.…`), links whose text is their target (GitBook's content-ref
 * links) and references whose text is their label would break if translated.
 */
function isWrapped(source: string, node: PhrasingContent): boolean {
  if (node.type === 'link') return source[node.position!.start.offset!] === '[' && toString(node) !== node.url;
  if (node.type === 'linkReference') return node.referenceType === 'full';
  return true;
}

/**
 * Partly overlapping spans become one atom (a link inside a GitBook tag, inline code
 * across an expression's end). A pair that lost one side to a merge is masked on both sides as atoms.
 */
function merge(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  const broken = new Set<number>();
  for (const span of spans) {
    const prev = merged.at(-1);
    // An atom inside another span (`&amp;` in a link target) is already masked by it.
    if (prev && span.kind === 'atom' && span.end <= prev.end) continue;
    if (prev && span.start < prev.end) {
      for (const s of [prev, span]) if (s.pair !== undefined) broken.add(s.pair);
      prev.end = Math.max(prev.end, span.end);
      prev.kind = 'atom';
      delete prev.pair;
    } else merged.push({ ...span });
  }
  for (const span of merged) {
    if (span.pair !== undefined && broken.has(span.pair)) {
      span.kind = 'atom';
      delete span.pair;
    }
  }
  return merged;
}

type Part = { start: number; end: number; token?: Span };

/** The segment text, trimmed of surrounding GitBook tags and whitespace, which stay as source. */
function render(source: string, first: number, last: number, spans: Span[]): MaskedBlock | null {
  const parts: Part[] = [];
  let at = first;
  for (const span of spans) {
    if (span.start > at) parts.push({ start: at, end: span.start });
    parts.push({ start: span.start, end: span.end, token: span });
    at = span.end;
  }
  if (last > at) parts.push({ start: at, end: last });
  // GitBook tag lines and container prefixes around the text stay out of it; inline atoms
  // (expressions, code, images) stay in, so a translation can move them with the words.
  const margin = (p: Part) => {
    const bytes = source.slice(p.start, p.end);
    return p.token ? p.token.kind === 'atom' && /^(\{%|\s)/.test(bytes) : !bytes.trim();
  };
  while (parts.length && margin(parts[0]!)) parts.shift();
  while (parts.length && margin(parts.at(-1)!)) parts.pop();
  if (!parts.some((p) => !p.token && /\p{L}/u.test(source.slice(p.start, p.end)))) return null;
  const head = parts[0]!;
  const tail = parts.at(-1)!;
  if (!head.token) head.start += /^\s*/.exec(source.slice(head.start, head.end))![0].length;
  if (!tail.token) tail.end -= /\s*$/.exec(source.slice(tail.start, tail.end))![0].length;

  const sources = new Map<string, string>();
  let n = 0;
  const numbers = new Map<number, number>();
  let text = '';
  for (const p of parts) {
    const bytes = source.slice(p.start, p.end);
    if (!p.token) {
      text += bytes;
      continue;
    }
    let id: string;
    if (p.token.kind === 'atom') id = atom(++n);
    else if (p.token.kind === 'open') {
      numbers.set(p.token.pair!, ++n);
      id = open(n);
    } else id = close(numbers.get(p.token.pair!)!);
    sources.set(id.slice(1, -1), bytes);
    text += id;
  }
  const tokens = new Map<string, Token>();
  for (const { id, parent } of readTokens(text)) tokens.set(id, { id, source: sources.get(id)!, parent });
  return { text, tokens, start: parts[0]!.start, end: parts.at(-1)!.end };
}
