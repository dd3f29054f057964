import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore } from './blob-store.ts';

const KEY = /^[a-f0-9]{64}$/;

/** Blobs as files under one directory, fanned out by the first bytes of the key. */
export class LocalDiskStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`Invalid blob key "${key}"`);
    return join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.path(key);
    if (await this.exists(key)) return;
    await mkdir(join(target, '..'), { recursive: true });
    // Write beside and rename: a reader never sees half a file, a crash leaves no torn blob.
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, target);
  }

  async get(key: string): Promise<Readable | null> {
    return (await this.exists(key)) ? createReadStream(this.path(key)) : null;
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.path(key)).then(
      () => true,
      () => false,
    );
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
