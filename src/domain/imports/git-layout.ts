import type { List, ListItem, Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import mime from 'mime-types';
import { posix } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { FileSpec } from '../content/files.ts';
import { parseMarkdown } from '../content/markdown/parse.ts';
import { MAX_PAGE_BYTES, type PageSpec } from '../content/page-tree.ts';

/** A repository's files as the layout reader needs them: paths relative to the repository root. */
export type FileTree = { paths: string[]; read(path: string): Promise<Buffer | null> };

export type GitLayout = { pages: PageSpec[]; files: FileSpec[] };

const ASSETS = '.gitbook/assets/';

/**
 * Reads GitBook's Git Sync layout: `.gitbook.yaml` (root, structure.readme,
 * structure.summary), the README as first page, SUMMARY.md's nested list as the page
 * tree (`##` headings make groups), front matter (description, icon, hidden) and the
 * assets under `.gitbook/assets/`. Without a SUMMARY, the Markdown files of the root
 * folder become pages in name order.
 */
export async function readGitLayout(tree: FileTree): Promise<GitLayout> {
  const config = await readConfig(tree);
  const rel = (p: string) => posix.normalize(posix.join(config.root, p)).replace(/^\.\//, '');
  const readmePath = rel(config.readme);
  const summaryPath = rel(config.summary);
  const summary = await tree.read(summaryPath);
  const seen = new Set<string>();
  const pageAt = async (path: string, title?: string, children: PageSpec[] = []): Promise<PageSpec | null> => {
    if (seen.has(path)) return null;
    const raw = await tree.read(path);
    if (!raw || raw.length > MAX_PAGE_BYTES) return null;
    seen.add(path);
    return pageFromMarkdown(path, raw.toString('utf8'), title, children, path === readmePath);
  };

  const pages: PageSpec[] = [];
  const readme = await pageAt(readmePath);
  if (readme) pages.push(readme);
  if (summary) {
    pages.push(...(await pagesFromSummary(summary.toString('utf8'), posix.dirname(summaryPath), pageAt)));
  } else {
    const inRoot = tree.paths.filter((p) => p.endsWith('.md') && posix.dirname(p) === posix.normalize(config.root).replace(/^\.$/, '.') && p !== summaryPath);
    for (const path of inRoot.sort()) {
      const page = await pageAt(path);
      if (page) pages.push(page);
    }
  }
  const files: FileSpec[] = [];
  for (const path of tree.paths.filter((p) => p.startsWith(rel(ASSETS)) || p.startsWith(ASSETS)).sort()) {
    const bytes = await tree.read(path);
    if (bytes) files.push({ name: posix.basename(path), contentType: mime.lookup(path) || 'application/octet-stream', bytes, gitPath: path });
  }
  return { pages, files };
}

async function readConfig(tree: FileTree) {
  const raw = await tree.read('.gitbook.yaml');
  let doc: { root?: unknown; structure?: { readme?: unknown; summary?: unknown } } = {};
  if (raw) {
    try {
      doc = (parseYaml(raw.toString('utf8')) as typeof doc) ?? {};
    } catch {
      doc = {};
    }
  }
  const str = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() && !v.includes('..') ? v.trim() : fallback);
  return { root: str(doc.root, '.'), readme: str(doc.structure?.readme, 'README.md'), summary: str(doc.structure?.summary, 'SUMMARY.md') };
}

type PageAt = (path: string, title?: string, children?: PageSpec[]) => Promise<PageSpec | null>;

/** SUMMARY.md: lists of links are pages (nesting is hierarchy); level-2 headings open groups. */
async function pagesFromSummary(markdown: string, base: string, pageAt: PageAt): Promise<PageSpec[]> {
  const root = parseMarkdown(markdown);
  const out: PageSpec[] = [];
  let group: PageSpec | null = null;
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth >= 2) {
      group = { kind: 'group', title: toString(node) || 'Group', children: [] };
      out.push(group);
    } else if (node.type === 'list') {
      const items = await pagesFromList(node, base, pageAt);
      if (group) group.children!.push(...items);
      else out.push(...items);
    }
  }
  return out.filter((p) => p.kind !== 'group' || (p.children?.length ?? 0) > 0);
}

async function pagesFromList(list: List, base: string, pageAt: PageAt): Promise<PageSpec[]> {
  const pages: PageSpec[] = [];
  for (const item of list.children) {
    const page = await pageFromItem(item, base, pageAt);
    if (page) pages.push(page);
  }
  return pages;
}

async function pageFromItem(item: ListItem, base: string, pageAt: PageAt): Promise<PageSpec | null> {
  const nested = item.children.filter((c): c is List => c.type === 'list');
  const children = (await Promise.all(nested.map((l) => pagesFromList(l, base, pageAt)))).flat();
  const para = item.children.find((c) => c.type === 'paragraph');
  const link = para?.type === 'paragraph' ? para.children.find((c) => c.type === 'link') : undefined;
  if (!link || link.type !== 'link') return children.length ? { kind: 'document', title: para ? toString(para) : 'Untitled', markdown: '', children } : null;
  const title = toString(link);
  if (/^[a-z]+:/i.test(link.url)) return { kind: 'link', title, linkTarget: { kind: 'url', url: link.url }, children: [] };
  const path = posix.normalize(posix.join(base, decodeURIComponent(link.url.split('#')[0]!)));
  return pageAt(path, title, children);
}

function pageFromMarkdown(path: string, text: string, summaryTitle: string | undefined, children: PageSpec[], isReadme: boolean): PageSpec {
  const tree = parseMarkdown(text);
  const front = frontMatter(tree);
  const body: Root = { type: 'root', children: tree.children.filter((n) => n.type !== 'yaml') };
  // The authored text is kept as written; only the front matter is cut off.
  const yamlEnd = tree.children.find((n) => n.type === 'yaml')?.position?.end.offset ?? 0;
  const markdown = text.slice(yamlEnd).replace(/^\s*\n/, '');
  const heading = body.children.find((n) => n.type === 'heading' && n.depth === 1);
  const title = summaryTitle || (heading ? toString(heading) : '') || (isReadme ? 'Introduction' : posix.basename(path, '.md'));
  const base = posix.basename(path, '.md');
  const slug = base.toLowerCase() === 'readme' ? (posix.basename(posix.dirname(path)) === '.' ? title : posix.basename(posix.dirname(path))) : base;
  return {
    kind: 'document',
    title,
    slug,
    description: typeof front.description === 'string' ? front.description.slice(0, 1000) : null,
    emoji: typeof front.icon === 'string' ? front.icon.slice(0, 50) : null,
    hidden: front.hidden === true,
    markdown,
    gitPath: path,
    children,
  };
}

function frontMatter(tree: Root): Record<string, unknown> {
  const yaml = tree.children.find((n) => n.type === 'yaml');
  if (!yaml || yaml.type !== 'yaml') return {};
  try {
    const value = parseYaml(yaml.value);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
