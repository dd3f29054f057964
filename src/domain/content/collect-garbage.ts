import type { EntityManager } from '@mikro-orm/postgresql';
import type { BlobStore } from '../storage/blob-store.ts';
import { holdContentSweepLock } from './content-lock.ts';

export type Collected = { nodes: number; bodies: number; files: number; blobs: number };

/**
 * Removes content no revision reaches any more (what purged spaces alone used): page
 * nodes not reachable from any revision's roots, bodies no node names, file entries no
 * revision lists, PDF exports of revisions that are gone, then the bytes of blobs no entry
 * or export uses. Rows younger than `graceMs` are
 * left alone (a writer may be about to name them). Running it again removes nothing more.
 */
export async function collectGarbage(em: EntityManager, blobs: BlobStore, now: Date, graceMs: number, opts: { sweep: boolean } = { sweep: true }): Promise<Collected> {
  const cutoff = new Date(now.getTime() - graceMs);
  // Without a sweep, only blobs tombstoned by an earlier, interrupted run are finished.
  if (!opts.sweep) return { nodes: 0, bodies: 0, files: 0, blobs: await deleteTombstonedBlobs(em, blobs) };
  const swept = await em.fork().transactional(async (tx) => {
    await holdContentSweepLock(tx);
    const nodes = await tx.execute<{ hash: string }[]>(
      `with recursive reachable(hash) as (
         select unnest(pages) from revisions
         union
         select unnest(n.children) from page_nodes n join reachable r on n.hash = r.hash
       )
       delete from page_nodes n where n.created_at < ? and not exists (select 1 from reachable r where r.hash = n.hash)
       returning n.hash`,
      [cutoff],
    );
    const bodies = await tx.execute<{ hash: string }[]>(
      'delete from page_bodies b where b.created_at < ? and not exists (select 1 from page_nodes n where n.body_hash = b.hash) returning b.hash',
      [cutoff],
    );
    const files = await tx.execute<{ blob_key: string }[]>(
      `with referenced as (select distinct unnest(files) as hash from revisions)
       delete from file_entries f where f.created_at < ? and not exists (select 1 from referenced r where r.hash = f.hash)
       returning f.blob_key`,
      [cutoff],
    );
    // PDF exports of revisions that are gone (their space was purged) go with them.
    const exports = await tx.execute<{ blob_key: string | null }[]>(
      'delete from pdf_exports e where e.created_at < ? and not exists (select 1 from revisions r where r.id = e.revision_id) returning e.blob_key',
      [cutoff],
    );
    const keys = [...new Set([...files.map((f) => f.blob_key), ...exports.flatMap((e) => (e.blob_key ? [e.blob_key] : []))])];
    if (keys.length) {
      await tx.execute(
        `insert into blob_tombstones (key, created_at)
         select k, now() from unnest(array[?]::text[]) as k where not (${BLOB_USED('k')})
         on conflict (key) do nothing`,
        [keys],
      );
    }
    return { nodes: nodes.length, bodies: bodies.length, files: files.length };
  });
  return { ...swept, blobs: await deleteTombstonedBlobs(em, blobs) };
}

/**
 * Deletes the bytes of tombstoned blobs, unless an entry uses one again. Checked and
 * deleted under the sweep lock: a writer (holding it shared from `put` to its entry)
 * cannot start using a blob between the check and the delete. Batches keep the lock short.
 */
async function deleteTombstonedBlobs(em: EntityManager, blobs: BlobStore): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await em.fork().transactional(async (tx) => {
      await holdContentSweepLock(tx);
      const tombstones = await tx.execute<{ key: string; used: boolean }[]>(
        `select t.key, ${BLOB_USED('t.key')} as used
         from blob_tombstones t order by t.created_at limit ${BLOB_BATCH}`,
      );
      for (const t of tombstones) {
        if (!t.used) {
          await blobs.delete(t.key);
          deleted++;
        }
      }
      if (tombstones.length) await tx.execute('delete from blob_tombstones where key in (?)', [tombstones.map((t) => t.key)]);
      return tombstones.length;
    });
    if (batch < BLOB_BATCH) return deleted;
  }
}

const BLOB_BATCH = 500;

/** SQL: a file entry or a PDF export still stores its bytes under `key`. */
const BLOB_USED = (key: string) =>
  `(exists (select 1 from file_entries f where f.blob_key = ${key}) or exists (select 1 from pdf_exports e where e.blob_key = ${key}))`;
