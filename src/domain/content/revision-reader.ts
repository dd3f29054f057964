import type { EntityManager } from '@mikro-orm/postgresql';
import { FileEntry } from '../entities/file-entry.entity.ts';
import { PageBody } from '../entities/page-body.entity.ts';
import { ByteBudgetCache } from '../shared/byte-budget-cache.ts';
import { contentHash } from './hashing.ts';
import type { PageNode } from '../entities/page-node.entity.ts';
import { Revision } from '../entities/revision.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { notFound } from '../shared/errors.ts';

/** A page node as plain data: trees are cached across requests, so they hold no ORM entities. */
export type NodeData = Pick<
  PageNode,
  'hash' | 'pageId' | 'kind' | 'title' | 'slug' | 'description' | 'emoji' | 'hidden' | 'bodyHash' | 'linkTarget' | 'gitPath' | 'variables' | 'children'
>;
export type TreePage = { node: NodeData; path: string; parentId: string | null; children: TreePage[] };

const CHUNK = 5000;

/** The tree cache's budget when the process does not configure one (CONTENT_CACHE_BYTES). */
const DEFAULT_TREE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Revisions never change, so a revision's tree, once built, is kept and shared by every
 * later read of it in this process — within a budget of estimated bytes, so memory stays
 * flat however many revisions are read; a tree larger than the budget is not kept.
 */
let trees = new ByteBudgetCache<TreePage[]>(DEFAULT_TREE_CACHE_BYTES);

/** Sets the tree cache's budget (once, at start-up); the cache starts empty. */
export function configureTreeCache(maxBytes: number): void {
  trees = new ByteBudgetCache<TreePage[]>(maxBytes);
}

export function treeCacheUsage() {
  return trees.usage;
}

/** The page tree of a revision (bodies are not loaded): one query per level of depth, then cached. */
export async function loadTree(em: EntityManager, roots: string[]): Promise<TreePage[]> {
  // Keyed by the roots' digest: a flat revision can name thousands of roots.
  const key = contentHash(roots.join(','));
  const cached = trees.get(key);
  if (cached) return cached;
  const byHash = new Map<string, NodeData>();
  let level = roots;
  while (level.length) {
    const missing = [...new Set(level)].filter((h) => !byHash.has(h));
    for (let i = 0; i < missing.length; i += CHUNK) {
      // `em.execute`: inside a transaction, on its own connection (another pooled one can
      // be exhausted by the transactions waiting on it).
      const rows = await em.execute<NodeRow[]>(`select ${COLUMNS} from page_nodes where hash in (?)`, [missing.slice(i, i + CHUNK)]);
      for (const r of rows) byHash.set(r.hash, fromRow(r));
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
  const tree = build(roots, '', null);
  trees.set(key, tree);
  return tree;
}

type NodeRow = {
  hash: string;
  page_id: string;
  kind: NodeData['kind'];
  title: string;
  slug: string;
  description: string | null;
  emoji: string | null;
  hidden: boolean;
  body_hash: string | null;
  link_target: NodeData['linkTarget'];
  git_path: string | null;
  variables: NodeData['variables'];
  children: string[];
};
const COLUMNS = 'hash, page_id, kind, title, slug, description, emoji, hidden, body_hash, link_target, git_path, variables, children';

function fromRow(r: NodeRow): NodeData {
  return {
    hash: r.hash,
    pageId: r.page_id,
    kind: r.kind,
    title: r.title,
    slug: r.slug,
    description: r.description,
    emoji: r.emoji,
    hidden: r.hidden,
    bodyHash: r.body_hash,
    linkTarget: r.link_target,
    gitPath: r.git_path,
    variables: r.variables,
    children: r.children,
  };
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
