import type { Yaml } from 'mdast';
import { atom, readTokens, type Token } from './placeholders.ts';

export type FrontMatterValue = { text: string; tokens: Map<string, Token>; start: number; end: number };

/** Keys whose value is prose even when it is one word; other values must read like a sentence. */
const PROSE_KEYS = new Set(['title', 'description']);
const KEY = /^([A-Za-z_][\w-]*):[ \t]*/;
const MASKS = /\{%.*?%\}|\{\{.*?\}\}|[⟦⟧]/g;

/**
 * Top-level string values of the front matter worth translating, keys and nested mappings
 * left alone. A value is replaced whole (quotes and block-scalar indicator included) so the
 * rebuild can re-encode a translation that needs quoting; the text is the decoded value.
 */
export function frontMatterValues(source: string, node: Yaml): FrontMatterValue[] {
  const begin = source.indexOf('\n', node.position!.start.offset!) + 1;
  const lines = lineRanges(source, begin, begin + node.value.length);
  const values: FrontMatterValue[] = [];
  for (let i = 0; i < lines.length; i++) {
    const [lineStart, lineEnd] = lines[i]!;
    const key = KEY.exec(source.slice(lineStart, lineEnd));
    if (!key) continue;
    const start = lineStart + key[0].length;
    const raw = source.slice(start, lineEnd);
    let decoded: string | null;
    let end = lineEnd;
    if (/^[>|][+-]?\s*$/.test(raw)) {
      let j = i + 1;
      while (j < lines.length && /^(\s|$)/.test(source.slice(lines[j]![0], lines[j]![1]))) j++;
      const body = lines.slice(i + 1, j).map(([s, e]) => source.slice(s, e).trim());
      decoded = raw.startsWith('>') ? fold(body) : body.join('\n').trim();
      end = j > i + 1 ? lines[j - 1]![1] : lineEnd;
      i = j - 1;
    } else decoded = decodeScalar(raw, lines[i + 1] && /^\s+\S/.test(source.slice(...lines[i + 1]!)));
    if (decoded === null) continue;
    if (!/\p{L}/u.test(decoded) || !(PROSE_KEYS.has(key[1]!) || /\p{L}\s+\p{L}/u.test(decoded))) continue;
    values.push({ ...mask(decoded), start, end });
  }
  return values;
}

/** A folded block scalar's text: lines joined by spaces, blank lines as line breaks. */
function fold(lines: string[]): string {
  return lines.reduce((text, line) => (line ? `${text}${text && !text.endsWith('\n') ? ' ' : ''}${line}` : `${text}\n`), '').trim();
}

function lineRanges(source: string, from: number, to: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let at = from; at < to; ) {
    const nl = source.indexOf('\n', at);
    const end = nl === -1 || nl > to ? to : nl;
    ranges.push([at, end]);
    at = end + 1;
  }
  return ranges;
}

/** A one-line scalar's string, or null for what is not a plain string (mappings, lists, anchors, multi-line plains). */
function decodeScalar(raw: string, continues: boolean | undefined): string | null {
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      return null;
    }
  }
  if (raw.startsWith("'")) return /^'(?:[^']|'')*'$/.test(raw) ? raw.slice(1, -1).replaceAll("''", "'") : null;
  if (continues || !raw || /^[[{&*!|>%@`#,?-]/.test(raw) || / #/.test(raw)) return null;
  return raw.trimEnd() === raw ? raw : null;
}

function mask(value: string): { text: string; tokens: Map<string, Token> } {
  let n = 0;
  const sources = new Map<string, string>();
  const text = value.replace(MASKS, (m) => {
    const id = atom(++n);
    sources.set(id.slice(1, -1), m);
    return id;
  });
  return { text, tokens: new Map(readTokens(text).map(({ id, parent }) => [id, { id, source: sources.get(id)!, parent }])) };
}

/** A translated value as YAML: plain when that is unambiguous, else a double-quoted (JSON) string. */
export function encodeScalar(value: string): string {
  const plain = /^[^\s[\]{}&*!|>%@`#,?:'"-][^\n]*$/.test(value) && !/: | #|:$|\s$/.test(value);
  return plain ? value : JSON.stringify(value);
}
