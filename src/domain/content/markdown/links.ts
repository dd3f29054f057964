import type { Root } from 'mdast';
import { visit } from 'unist-util-visit';
import { parseMarkdown } from './parse.ts';

/** Every link and image target in a page's Markdown, in order, without duplicates. */
export function extractLinks(markdown: string): string[] {
  return linksOf(parseMarkdown(markdown));
}

export function linksOf(tree: Root): string[] {
  const found = new Set<string>();
  visit(tree, (node) => {
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && 'url' in node && node.url) {
      found.add(String(node.url).slice(0, 2048));
    }
  });
  return [...found];
}
