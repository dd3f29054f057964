import type { Heading, Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { slugify } from '../hashing.ts';
import { parseMarkdown } from './parse.ts';

export type Section = { anchor: string | null; title: string; text: string };

/**
 * Splits a page at its headings: the text before the first heading is the page's own
 * section (no anchor), then one section per heading. Search results point at these.
 */
export function sectionsOf(markdown: string, pageTitle: string): Section[] {
  const tree = parseMarkdown(markdown);
  const sections: Section[] = [{ anchor: null, title: pageTitle, text: '' }];
  const anchors = new Set<string>();
  for (const node of tree.children) {
    if (node.type === 'heading') {
      const title = toString(node);
      sections.push({ anchor: uniqueAnchor(title, anchors), title, text: '' });
    } else if (node.type !== 'yaml') {
      const current = sections.at(-1)!;
      current.text = current.text ? `${current.text}\n${textOf(node)}` : textOf(node);
    }
  }
  return sections.filter((s, i) => i > 0 || s.text.trim() !== '');
}

/** Heading anchors as links use them (`page#anchor`). */
export function anchorsOf(tree: Root): Set<string> {
  const anchors = new Set<string>();
  for (const node of tree.children) if (node.type === 'heading') uniqueAnchor(toString(node as Heading), anchors);
  return anchors;
}

function uniqueAnchor(title: string, used: Set<string>): string {
  const base = slugify(title);
  let anchor = base;
  for (let n = 1; used.has(anchor); n++) anchor = `${base}-${n}`;
  used.add(anchor);
  return anchor;
}

function textOf(node: RootContent): string {
  return toString(node).replace(/\s+/g, ' ').trim();
}
