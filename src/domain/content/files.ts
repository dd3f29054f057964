import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { FileEntry } from '../entities/file-entry.entity.ts';
import { newId } from '../shared/ids.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { holdContentWriteLock } from './content-lock.ts';
import { canonicalJson, contentHash } from './hashing.ts';

export type FileSpec = { id?: string; name: string; contentType: string; bytes: Buffer; gitPath?: string | null };

/**
 * Stores files' bytes (once per content) and their entries; returns the entry hashes
 * for a revision. Bytes go to the blob store before the entries are written, so an entry
 * never points at bytes that are not there.
 */
export async function storeFiles(em: EntityManager, blobs: BlobStore, specs: FileSpec[]): Promise<string[]> {
  return em.transactional(async (tx) => {
    await holdContentWriteLock(tx);
    return storeEach(tx, blobs, specs);
  });
}

async function storeEach(em: EntityManager, blobs: BlobStore, specs: FileSpec[]): Promise<string[]> {
  const hashes: string[] = [];
  for (const spec of specs) {
    const blobKey = createHash('sha256').update(spec.bytes).digest('hex');
    await blobs.put(blobKey, spec.bytes, spec.contentType);
    const entry = {
      fileId: spec.id ?? newId(),
      name: spec.name.slice(0, 255),
      contentType: spec.contentType.slice(0, 255),
      size: spec.bytes.length,
      blobKey,
      width: null,
      height: null,
      gitPath: spec.gitPath ?? null,
    };
    const hash = contentHash(canonicalJson(entry));
    await em.createQueryBuilder(FileEntry).insert({ hash, ...entry, createdAt: new Date() }).onConflict('hash').ignore().execute();
    hashes.push(hash);
  }
  return hashes;
}
