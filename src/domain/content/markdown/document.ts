import { safeLinkUrl } from './safe-url.ts';
import type { ListItem, PhrasingContent, RootContent } from 'mdast';
import { parseMarkdown, stringifyMarkdown } from './parse.ts';

/** GitBook's rich-text document model (`format=document`). */
export type JsonDocument = { object: 'document'; data: { schemaVersion: number }; nodes: Block[] };
type Mark = { object: 'mark'; type: 'bold' | 'italic' | 'code' | 'strikethrough' };
type Leaf = { object: 'leaf'; text: string; marks: Mark[] };
type Text = { object: 'text'; leaves: Leaf[] };
type Inline = { object: 'inline'; type: 'link'; isVoid: false; data: { ref: { kind: 'url'; url: string } }; nodes: Text[] };
type Block = { object: 'block'; type: string; key: string; isVoid: boolean; data: Record<string, unknown>; nodes: Array<Block | Text | Inline> };

const SCHEMA_VERSION = 1;
const MARKS = { strong: 'bold', emphasis: 'italic', inlineCode: 'code', delete: 'strikethrough' } as const;

/** Markdown to GitBook's document model, through mdast. Constructs it has no block for become paragraphs of their Markdown. */
export function markdownToDocument(markdown: string): JsonDocument {
  const keys = keyMaker();
  const tree = parseMarkdown(markdown);
  return { object: 'document', data: { schemaVersion: SCHEMA_VERSION }, nodes: tree.children.flatMap((n) => toBlocks(n, keys)) };
}

function keyMaker() {
  let n = 0;
  return () => `b${(n++).toString(36)}`;
}

function block(key: () => string, type: string, nodes: Block['nodes'], data: Record<string, unknown> = {}, isVoid = false): Block {
  return { object: 'block', type, key: key(), isVoid, data, nodes };
}

function toBlocks(node: RootContent, key: () => string): Block[] {
  switch (node.type) {
    case 'yaml':
    case 'definition':
      return [];
    case 'heading':
      return [block(key, `heading-${Math.min(node.depth, 3)}`, inlines(node.children))];
    case 'paragraph': {
      const images = node.children.filter((c) => c.type === 'image');
      if (images.length && images.length === node.children.filter((c) => c.type !== 'text' || c.value.trim()).length) {
        return [block(key, 'images', images.map((img) => block(key, 'image', [], { ref: { kind: 'url', url: img.url }, caption: img.alt ?? '' }, true)))];
      }
      return [block(key, 'paragraph', inlines(node.children))];
    }
    case 'list': {
      const tasks = node.children.some((i) => typeof i.checked === 'boolean');
      const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered';
      return [block(key, type, node.children.map((item) => listItem(item, key)))];
    }
    case 'blockquote':
      return [block(key, 'blockquote', node.children.flatMap((c) => toBlocks(c, key)))];
    case 'code':
      return [block(key, 'code', node.value.split('\n').map((line) => block(key, 'code-line', [text([leaf(line)])])), node.lang ? { syntax: node.lang } : {})];
    case 'thematicBreak':
      return [block(key, 'divider', [], {}, true)];
    default:
    {
      // Tables, HTML and other constructs the model has no block for keep their Markdown
      // (shown as text, and in `data.markdown`), so nothing of the page is dropped.
      const raw = stringifyMarkdown({ type: 'root', children: [node] }).trimEnd();
      return [block(key, 'paragraph', [text([leaf(raw)])], { markdown: raw })];
    }
  }
}

function listItem(item: ListItem, key: () => string): Block {
  const data = typeof item.checked === 'boolean' ? { checked: item.checked } : {};
  return block(key, 'list-item', item.children.flatMap((c) => toBlocks(c, key)), data);
}

function leaf(value: string, marks: Mark[] = []): Leaf {
  return { object: 'leaf', text: value, marks };
}

function text(leaves: Leaf[]): Text {
  return { object: 'text', leaves };
}

function inlines(children: PhrasingContent[], marks: Mark[] = []): Array<Text | Inline> {
  const out: Array<Text | Inline> = [];
  const push = (l: Leaf) => {
    const last = out.at(-1);
    if (last?.object === 'text') last.leaves.push(l);
    else out.push(text([l]));
  };
  for (const child of children) {
    if (child.type === 'text') push(leaf(child.value, marks));
    else if (child.type === 'inlineCode') push(leaf(child.value, [...marks, { object: 'mark', type: 'code' }]));
    else if (child.type === 'break') push(leaf('\n', marks));
    else if (child.type in MARKS && 'children' in child) {
      const mark: Mark = { object: 'mark', type: MARKS[child.type as keyof typeof MARKS] };
      for (const n of inlines(child.children as PhrasingContent[], [...marks, mark])) {
        if (n.object === 'text') n.leaves.forEach(push);
        else out.push(n);
      }
    } else if (child.type === 'link') {
      const nodes = inlines(child.children, marks).filter((n): n is Text => n.object === 'text');
      const url = safeLinkUrl(child.url);
      // A link to an unsafe target (javascript:, data:…) keeps its text and loses the link.
      if (url === undefined) nodes.forEach((n) => n.leaves.forEach(push));
      else out.push({ object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'url', url } }, nodes });
    } else if (child.type === 'image') push(leaf(`![${child.alt ?? ''}](${child.url})`, marks));
    else push(leaf(stringifyMarkdown({ type: 'root', children: [{ type: 'paragraph', children: [child] }] }).trim(), marks));
  }
  return out;
}
