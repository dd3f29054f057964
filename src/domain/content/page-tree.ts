import type { EntityManager } from '@mikro-orm/postgresql';
import { PageBody } from '../entities/page-body.entity.ts';
import { PageNode, type LinkTarget, type PageKind } from '../entities/page-node.entity.ts';
import { newId } from '../shared/ids.ts';
import { canonicalJson, contentHash, slugify } from './hashing.ts';
import { extractLinks } from './markdown/links.ts';

/** A page as importers and templates describe it; ids are kept when given (re-imports). */
export type PageSpec = {
  id?: string;
  kind: PageKind;
  title: string;
  slug?: string;
  description?: string | null;
  emoji?: string | null;
  hidden?: boolean;
  markdown?: string;
  /**
   * A body already stored, by hash, in place of `markdown`: a merge carries the bodies it
   * did not change without reading them. The caller vouches that it is stored (it is a body
   * of a revision it read, under the content write lock that keeps the sweep away).
   */
  bodyHash?: string;
  linkTarget?: LinkTarget;
  gitPath?: string | null;
  variables?: Record<string, string | number | boolean> | null;
  children?: PageSpec[];
};

/** The largest page body (Markdown, in UTF-8 bytes) Vellum takes, from an import or an edit. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;

type NodeRow = Omit<PageNode, 'createdAt'>;
type BodyRow = { hash: string; markdown: string; links?: string[] };

const CHUNK = 1000;

/**
 * Stores a page tree and returns the hashes of its top-level nodes. Hashes are computed
 * bottom-up; only nodes and bodies not already stored are written, so re-storing a tree
 * that differs in one page writes that page and its ancestors.
 */
export async function storePageTree(em: EntityManager, specs: PageSpec[]): Promise<{ roots: string[]; written: number }> {
  const nodes = new Map<string, NodeRow>();
  const bodies = new Map<string, BodyRow>();
  const roots = hashLevel(specs, nodes, bodies);
  const written = (await insertMissing(em, PageBody, [...bodies.values()])) + (await insertMissing(em, PageNode, [...nodes.values()]));
  return { roots, written };
}

function hashLevel(specs: PageSpec[], nodes: Map<string, NodeRow>, bodies: Map<string, BodyRow>): string[] {
  const usedSlugs = new Set<string>();
  return specs.map((spec) => {
    const children = hashLevel(spec.children ?? [], nodes, bodies);
    let bodyHash: string | null = null;
    if (spec.kind === 'document' && spec.markdown === undefined && spec.bodyHash) {
      bodyHash = spec.bodyHash;
    } else if (spec.kind === 'document') {
      const markdown = spec.markdown ?? '';
      bodyHash = contentHash(markdown);
      if (!bodies.has(bodyHash)) bodies.set(bodyHash, { hash: bodyHash, markdown });
    }
    const slug = uniqueSlug(spec.slug ? slugify(spec.slug) : slugify(spec.title), usedSlugs);
    const row = {
      pageId: spec.id ?? newId(),
      kind: spec.kind,
      title: spec.title.slice(0, 255) || 'Untitled',
      slug,
      description: spec.description ?? null,
      emoji: spec.emoji ?? null,
      hidden: spec.hidden ?? false,
      bodyHash,
      linkTarget: spec.linkTarget ?? null,
      gitPath: spec.gitPath ?? null,
      variables: spec.variables ?? null,
      children,
    };
    const hash = contentHash(canonicalJson(row));
    nodes.set(hash, { hash, ...row });
    return hash;
  });
}

function uniqueSlug(base: string, used: Set<string>): string {
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
  used.add(slug);
  return slug;
}

/** Writes the rows whose hash is not stored yet; returns how many were written. */
async function insertMissing<T extends { hash: string }>(
  em: EntityManager,
  entity: typeof PageBody | typeof PageNode,
  rows: T[],
): Promise<number> {
  let written = 0;
  const table = entity === PageBody ? 'page_bodies' : 'page_nodes';
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    // On the writer's own transaction: it sees what that transaction stored and holds no second connection.
    const existing = await em.execute<{ hash: string }[]>(`select hash from ${table} where hash in (?)`, [chunk.map((r) => r.hash)]);
    const known = new Set(existing.map((r) => r.hash));
    // Link targets are parsed only for bodies stored now: stored ones have theirs already.
    const missing = chunk
      .filter((r) => !known.has(r.hash))
      .map((r) => ({ ...r, ...(entity === PageBody ? { links: extractLinks((r as unknown as BodyRow).markdown) } : {}), createdAt: new Date() }));
    if (missing.length === 0) continue;
    // Another writer may store the same content at the same moment: equal hash, equal row.
    await em.createQueryBuilder(entity as typeof PageNode).insert(missing as never).onConflict('hash').ignore().execute();
    written += missing.length;
  }
  return written;
}
