import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

/** Markdown (GFM, with YAML front matter) to an mdast tree: the one parser all content goes through. */
export function parseMarkdown(markdown: string): Root {
  return unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).parse(markdown);
}

export function stringifyMarkdown(tree: Root): string {
  return unified()
    .use(remarkGfm)
    .use(remarkFrontmatter, ['yaml'])
    .use(remarkStringify, { bullet: '-', emphasis: '_', fences: true, rule: '-' })
    .stringify(tree);
}
