import { safeLinkUrl } from './safe-url.ts';
import type { BlockContent, ListItem, PhrasingContent, Root } from 'mdast';
import { stringifyMarkdown } from './parse.ts';

/*
 * GitBook's document model back to Markdown, through mdast: the inverse of
 * `markdownToDocument` for the blocks it makes. Documents arrive from clients, so every
 * node is read defensively: an unknown block gives its children (or its text), never an
 * error. Text goes through remark's escaping, so nothing in a leaf becomes Markdown syntax
 * or raw HTML; links keep only web, mail and relative targets.
 */

type Node = Record<string, unknown>;
type Mark = 'bold' | 'italic' | 'code' | 'strikethrough';

const HEADINGS: Record<string, 1 | 2 | 3> = { 'heading-1': 1, 'heading-2': 2, 'heading-3': 3 };
const LISTS = new Set(['list-unordered', 'list-ordered', 'list-tasks']);

/** A JSON document (`{object: 'document', nodes}`) as Markdown; anything else reads as empty. */
export function documentToMarkdown(document: unknown): string {
  const root: Root = { type: 'root', children: blocksOf(childrenOf(document)) };
  return stringifyMarkdown(root).trimEnd();
}

function childrenOf(node: unknown): Node[] {
  const nodes = isNode(node) ? node.nodes : undefined;
  return Array.isArray(nodes) ? nodes.filter(isNode) : [];
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dataOf(node: Node): Node {
  return isNode(node.data) ? node.data : {};
}

function blocksOf(nodes: Node[]): BlockContent[] {
  return nodes.flatMap((n) => toBlocks(n));
}

function toBlocks(node: Node): BlockContent[] {
  if (node.object !== 'block') {
    const inline = phrasing([node]);
    return inline.length ? [{ type: 'paragraph', children: inline }] : [];
  }
  const type = typeof node.type === 'string' ? node.type : '';
  const children = childrenOf(node);
  const heading = HEADINGS[type];
  if (heading) return [{ type: 'heading', depth: heading, children: phrasing(children) }];
  if (type === 'paragraph') return [{ type: 'paragraph', children: phrasing(children) }];
  if (LISTS.has(type)) return [list(type, children)];
  if (type === 'blockquote') return [{ type: 'blockquote', children: blocksOf(children) }];
  if (type === 'code') return [code(node, children)];
  if (type === 'divider') return [{ type: 'thematicBreak' }];
  if (type === 'images' || type === 'image') return images(type === 'image' ? [node] : children);
  // Hints, tabs, expandables and the like: their content, without the frame.
  if (children.some((c) => c.object === 'block')) return blocksOf(children);
  const inline = phrasing(children);
  return inline.length ? [{ type: 'paragraph', children: inline }] : [];
}

function list(type: string, items: Node[]): BlockContent {
  const tasks = type === 'list-tasks';
  const children: ListItem[] = items.map((item) => {
    const checked = dataOf(item).checked;
    const content = item.object === 'block' && item.type === 'list-item' ? blocksOf(childrenOf(item)) : toBlocks(item);
    return { type: 'listItem', spread: false, checked: tasks ? checked === true : null, children: content };
  });
  return { type: 'list', ordered: type === 'list-ordered', spread: false, children };
}

function code(node: Node, lines: Node[]): BlockContent {
  const syntax = dataOf(node).syntax;
  const value = lines.map((line) => plainText(line)).join('\n');
  return { type: 'code', lang: typeof syntax === 'string' && /^[\w+#.-]{1,50}$/.test(syntax) ? syntax : null, value };
}

function images(nodes: Node[]): BlockContent[] {
  const children: PhrasingContent[] = nodes.flatMap((img) => {
    const data = dataOf(img);
    const url = urlOf(data.ref);
    if (!url) return [];
    return [{ type: 'image', url, alt: typeof data.caption === 'string' ? data.caption : '' }];
  });
  return children.length ? [{ type: 'paragraph', children }] : [];
}

/** Inline content: text leaves with their marks, and links (other inlines keep their text). */
function phrasing(nodes: Node[]): PhrasingContent[] {
  return nodes.flatMap((node): PhrasingContent[] => {
    if (node.object === 'text') return leavesOf(node);
    if (node.object === 'leaf') return [marked(String(node.text ?? ''), marksOf(node))];
    if (node.object === 'inline' && node.type === 'link') {
      const url = urlOf(dataOf(node).ref);
      const children = phrasing(childrenOf(node));
      return url ? [{ type: 'link', url, children: children as never }] : children;
    }
    if (node.object === 'block') {
      const text = plainText(node);
      return text ? [{ type: 'text', value: text }] : [];
    }
    return phrasing(childrenOf(node));
  });
}

function leavesOf(text: Node): PhrasingContent[] {
  return leafNodes(text).flatMap((leaf) => (typeof leaf.text === 'string' && leaf.text !== '' ? [marked(leaf.text, marksOf(leaf))] : []));
}

function leafNodes(text: Node): Node[] {
  return Array.isArray(text.leaves) ? text.leaves.filter(isNode) : [];
}

function marksOf(leaf: Node): Set<Mark> {
  const marks = Array.isArray(leaf.marks) ? leaf.marks.filter(isNode) : [];
  return new Set(marks.map((m) => m.type).filter((t): t is Mark => t === 'bold' || t === 'italic' || t === 'code' || t === 'strikethrough'));
}

function marked(value: string, marks: Set<Mark>): PhrasingContent {
  let node: PhrasingContent = marks.has('code') ? { type: 'inlineCode', value } : { type: 'text', value };
  if (marks.has('strikethrough')) node = { type: 'delete', children: [node] };
  if (marks.has('italic')) node = { type: 'emphasis', children: [node] };
  if (marks.has('bold')) node = { type: 'strong', children: [node] };
  return node;
}

/** The text of a node and everything below it. */
function plainText(node: Node): string {
  if (node.object === 'text') return leafNodes(node).map(plainText).join('');
  if (node.object === 'leaf') return typeof node.text === 'string' ? node.text : '';
  return childrenOf(node).map(plainText).join('');
}

/** A URL reference (`{kind: 'url', url}`) that is safe to put in Markdown: web, mail or relative. */
function urlOf(ref: unknown): string | undefined {
  if (!isNode(ref) || ref.kind !== 'url' || typeof ref.url !== 'string') return undefined;
  return safeLinkUrl(ref.url);
}
