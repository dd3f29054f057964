import type { Yaml } from 'mdast';
import { isMap, isScalar, parseDocument } from 'yaml';
import { atom, readTokens, type Token } from './placeholders.ts';

export type FrontMatterValue = { text: string; tokens: Map<string, Token>; start: number; end: number };

/** Keys whose value is prose even when it is one word; other values must read like a sentence (`icon: rocket` does not). */
const PROSE_KEYS = new Set(['title', 'description']);
const MASKS = /\{%.*?%\}|\{\{.*?\}\}|[⟦⟧]/g;

/**
 * Top-level string values of the front matter worth translating; keys, nested mappings and
 * identifiers are left alone. A value is replaced whole (quotes and block-scalar header
 * included) so the rebuild can re-encode a translation that needs quoting; the segment
 * text is the decoded value. Front matter YAML cannot read yields no segment.
 */
export function frontMatterValues(source: string, node: Yaml): FrontMatterValue[] {
  const begin = source.indexOf('\n', node.position!.start.offset!) + 1;
  const doc = parseDocument(node.value);
  if (doc.errors.length || !isMap(doc.contents)) return [];
  const values: FrontMatterValue[] = [];
  for (const { key, value } of doc.contents.items) {
    if (!isScalar(key) || !isScalar(value) || typeof value.value !== 'string' || !value.range) continue;
    const text = value.value.trim();
    if (!/\p{L}/u.test(text) || !(PROSE_KEYS.has(String(key.value)) || /\p{L}\s+\p{L}/u.test(text))) continue;
    const [from, to] = value.range;
    // A block scalar's range runs through its final line break, which belongs to the YAML.
    const end = from + node.value.slice(from, to).trimEnd().length;
    values.push({ ...mask(text), start: begin + from, end: begin + end });
  }
  return values;
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
