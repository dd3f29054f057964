import type { EntityManager } from '@mikro-orm/postgresql';
import { FileEntry } from '../entities/file-entry.entity.ts';
import { PageBody } from '../entities/page-body.entity.ts';
import { PageNode } from '../entities/page-node.entity.ts';
import { Revision } from '../entities/revision.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { notFound } from '../shared/errors.ts';

export type TreePage = { node: PageNode; path: string; parentId: string | null; children: TreePage[] };

const CHUNK = 2000;

/** The page tree of a revision, one query per level of depth (bodies are not loaded). */
export async function loadTree(em: EntityManager, roots: string[]): Promise<TreePage[]> {
  const byHash = new Map<string, PageNode>();
  let level = roots;
  while (level.length) {
    const missing = [...new Set(level)].filter((h) => !byHash.has(h));
    for (let i = 0; i < missing.length; i += CHUNK) {
      const nodes = await em.find(PageNode, { hash: { $in: missing.slice(i, i + CHUNK) } });
      for (const n of nodes) byHash.set(n.hash, n);
    }
    level = missing.flatMap((h) => byHash.get(h)?.children ?? []);
  }
  const build = (hashes: string[], parentPath: string, parentId: string | null): TreePage[] =>
    hashes.flatMap((hash) => {
      const node = byHash.get(hash);
      if (!node) return [];
      const path = parentPath ? `${parentPath}/${node.slug}` : node.slug;
      // A group is a heading in the table of contents: it does not prefix its pages' paths.
      const childBase = node.kind === 'group' ? parentPath : path;
      return [{ node, path, parentId, children: build(node.children, childBase, node.pageId) }];
    });
  return build(roots, '', null);
}

export function flattenTree(tree: TreePage[]): TreePage[] {
  return tree.flatMap((p) => [p, ...flattenTree(p.children)]);
}

export function findInTree(tree: TreePage[], pageId: string): TreePage | undefined {
  for (const page of tree) {
    if (page.node.pageId === pageId) return page;
    const found = findInTree(page.children, pageId);
    if (found) return found;
  }
  return undefined;
}

export async function loadRevision(em: EntityManager, space: Space, revisionId: string = space.revision): Promise<Revision> {
  const revision = await em.findOne(Revision, { id: revisionId, space });
  if (!revision) throw notFound('Revision');
  return revision;
}

/** The files of a revision, in the revision's order. */
export async function loadFiles(em: EntityManager, hashes: string[]): Promise<FileEntry[]> {
  if (hashes.length === 0) return [];
  const entries = await em.find(FileEntry, { hash: { $in: hashes } });
  const byHash = new Map(entries.map((e) => [e.hash, e]));
  return hashes.flatMap((h) => byHash.get(h) ?? []);
}

export async function loadBody(em: EntityManager, hash: string | null): Promise<PageBody | null> {
  return hash ? em.findOne(PageBody, { hash }) : null;
}

/** Page bodies for many pages at once (links, backlinks, search indexing). */
export async function loadBodies(em: EntityManager, hashes: string[]): Promise<Map<string, PageBody>> {
  const unique = [...new Set(hashes)];
  const out = new Map<string, PageBody>();
  for (let i = 0; i < unique.length; i += CHUNK) {
    for (const b of await em.find(PageBody, { hash: { $in: unique.slice(i, i + CHUNK) } })) out.set(b.hash, b);
  }
  return out;
}
