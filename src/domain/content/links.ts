import type { EntityManager } from '@mikro-orm/postgresql';
import { posix } from 'node:path';
import type { FileEntry } from '../entities/file-entry.entity.ts';
import { PageBody } from '../entities/page-body.entity.ts';
import { parseMarkdown } from './markdown/parse.ts';
import { anchorsOf } from './markdown/sections.ts';
import { flattenTree, type TreePage } from './revision-reader.ts';

export type LinkStatus = 'ok' | 'broken' | 'in-app';
export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; page: string; anchor: string };
export type ResolvedLink = { from: string; raw: string; target: ContentRef; status: LinkStatus };

/**
 * Every link of a revision's pages, resolved against that revision: relative paths to
 * pages (by Git path or page path) and files, anchors (checked against the target's
 * headings), URLs into the app itself (`in-app`) and external URLs (`ok`, not fetched).
 */
export async function resolveLinks(em: EntityManager, tree: TreePage[], files: FileEntry[], appUrl: string): Promise<ResolvedLink[]> {
  const pages = flattenTree(tree).filter((p) => p.node.kind === 'document' && p.node.bodyHash);
  const rows = pages.length
    ? await em.find(PageBody, { hash: { $in: [...new Set(pages.map((p) => p.node.bodyHash!))] } }, { fields: ['hash', 'links'] })
    : [];
  const linksOfBody = new Map(rows.map((r) => [r.hash, r.links]));
  const byGitPath = new Map(pages.filter((p) => p.node.gitPath).map((p) => [p.node.gitPath!, p]));
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const fileIndex = indexFiles(files);
  const anchors = new AnchorCache(em);
  const app = safeOrigin(appUrl);
  const out: ResolvedLink[] = [];

  for (const page of pages) {
    for (const raw of linksOfBody.get(page.node.bodyHash!) ?? []) {
      out.push({ from: page.node.pageId, raw, ...(await resolveOne(raw, page)) });
    }
  }
  return out;

  async function resolveOne(raw: string, page: TreePage): Promise<{ target: ContentRef; status: LinkStatus }> {
    if (raw.startsWith('#')) {
      const anchor = decode(raw.slice(1));
      return { target: { kind: 'anchor', page: page.node.pageId, anchor }, status: (await anchors.has(page, anchor)) ? 'ok' : 'broken' };
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) {
      const origin = safeOrigin(raw);
      return { target: { kind: 'url', url: raw }, status: origin && origin === app ? 'in-app' : 'ok' };
    }
    const [pathPart = '', anchorPart] = raw.split('#');
    const relative = decode(pathPart.split('?')[0]!);
    const joined = joinFromPage(page, relative);
    const target =
      byGitPath.get(joined) ??
      byGitPath.get(posix.join(joined, 'README.md')) ??
      byPath.get(joined.replace(/\.md$/, '').replace(/\/README$/i, '')) ??
      byPath.get(relative.replace(/^\//, '').replace(/\.md$/, ''));
    if (target) {
      if (!anchorPart) return { target: { kind: 'page', page: target.node.pageId }, status: 'ok' };
      const anchor = decode(anchorPart);
      return { target: { kind: 'anchor', page: target.node.pageId, anchor }, status: (await anchors.has(target, anchor)) ? 'ok' : 'broken' };
    }
    const file = fileAt(fileIndex, joined, relative);
    if (file) return { target: { kind: 'file', file: file.fileId }, status: 'ok' };
    return { target: { kind: 'url', url: raw }, status: 'broken' };
  }
}

/** A relative link target, from the page's folder (its Git path's, else its path's in the tree). */
function joinFromPage(page: TreePage, relative: string): string {
  const base = page.node.gitPath ? posix.dirname(page.node.gitPath) : posix.dirname(page.path);
  return posix.normalize(posix.join(base, relative)).replace(/^\.\//, '');
}

export type FileIndex = { byPath: Map<string, FileEntry>; byName: Map<string, FileEntry> };

export function indexFiles(files: FileEntry[]): FileIndex {
  return { byPath: new Map(files.filter((f) => f.gitPath).map((f) => [f.gitPath!, f])), byName: new Map(files.map((f) => [f.name, f])) };
}

/** The file a link resolves to: by the joined Git path, else by the target's file name. */
function fileAt(index: FileIndex, joined: string, relative: string): FileEntry | undefined {
  return index.byPath.get(joined) ?? index.byName.get(posix.basename(relative));
}

/** The file of the revision a page's relative link or image names, as link resolution finds it; undefined for URLs and pages. */
export function linkedFile(index: FileIndex, page: TreePage, raw: string): FileEntry | undefined {
  if (raw.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(raw)) return undefined;
  const relative = decode(raw.split('#')[0]!.split('?')[0]!);
  return fileAt(index, joinFromPage(page, relative), relative);
}

/** The anchor ids of pages, parsed only for pages that links point into. */
class AnchorCache {
  private readonly em: EntityManager;
  private readonly cache = new Map<string, Set<string>>();

  constructor(em: EntityManager) {
    this.em = em;
  }

  async has(page: TreePage, anchor: string): Promise<boolean> {
    const hash = page.node.bodyHash;
    if (!hash) return false;
    let set = this.cache.get(hash);
    if (!set) {
      const body = await this.em.findOne(PageBody, { hash });
      set = anchorsOf(parseMarkdown(body?.markdown ?? ''));
      this.cache.set(hash, set);
    }
    return set.has(anchor);
  }
}

/** A stable key for a link target, to group links by what they point at. */
export function targetKey(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return `url:${ref.url}`;
    case 'page':
      return `page:${ref.page}`;
    case 'file':
      return `file:${ref.file}`;
    case 'anchor':
      return `anchor:${ref.page}#${ref.anchor}`;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function safeOrigin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
