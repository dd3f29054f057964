import type { EntityManager } from '@mikro-orm/postgresql';
import { SearchSection } from '../entities/search-section.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { contentHash } from '../content/hashing.ts';
import { sectionsOf } from '../content/markdown/sections.ts';
import { flattenTree, loadBodies, loadRevision, loadTree } from '../content/revision-reader.ts';

const BATCH = 1000;

/**
 * Brings a space's search sections in line with its current revision: sections of pages
 * that are gone or changed (content or path) are deleted, pages not yet indexed are
 * added. A per-space advisory lock keeps two runs from interleaving, and the unique
 * (space, key, ordinal) makes a section stored twice impossible; running it again
 * changes nothing. A space that no longer exists (purged) has nothing to index.
 */
export async function indexSpace(em: EntityManager, spaceId: string): Promise<{ added: number; removed: number }> {
  return em.fork().transactional(async (tx) => {
    // On the transaction's own connection (`tx.execute`), or the lock would be held by
    // another pooled connection and serialize nothing.
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`search:${spaceId}`]);
    const space = await tx.findOne(Space, { id: spaceId });
    if (!space) return { added: 0, removed: 0 };
    const pages = space.deletedAt ? [] : flattenTree(await loadTree(tx, (await loadRevision(tx, space)).pages));
    const wanted = new Map(
      pages.filter((p) => p.node.kind === 'document' && p.node.bodyHash).map((p) => [contentHash(`${p.node.hash}\n${p.path}`), p]),
    );
    const existing = await tx.execute<{ index_key: string }[]>('select distinct index_key from search_sections where space_id = ?', [spaceId]);
    const have = new Set(existing.map((r) => r.index_key));
    const stale = [...have].filter((k) => !wanted.has(k));
    let removed = 0;
    for (let i = 0; i < stale.length; i += BATCH) {
      removed += await tx.nativeDelete(SearchSection, { space: spaceId, indexKey: { $in: stale.slice(i, i + BATCH) } });
    }
    const missing = [...wanted.entries()].filter(([k]) => !have.has(k));
    const bodies = await loadBodies(tx, missing.map(([, p]) => p.node.bodyHash!));
    const rows = missing.flatMap(([indexKey, page]) =>
      sectionsOf(bodies.get(page.node.bodyHash!)?.markdown ?? '', page.node.title).map((s, ordinal) => ({
        space: spaceId,
        pageId: page.node.pageId,
        indexKey,
        ordinal,
        pageTitle: page.node.title.slice(0, 255),
        pagePath: page.path.slice(0, 2048),
        anchor: s.anchor?.slice(0, 255) ?? null,
        title: s.title.slice(0, 255),
        body: s.text,
      })),
    );
    for (let i = 0; i < rows.length; i += BATCH) {
      await tx.createQueryBuilder(SearchSection).insert(rows.slice(i, i + BATCH)).execute();
    }
    return { added: rows.length, removed };
  });
}
