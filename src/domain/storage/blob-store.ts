import type { Readable } from 'node:stream';

/**
 * Where file bytes live. Keys are the SHA-256 of the bytes, so a key names exactly one
 * content and writing it twice is harmless. Local disk by default; any S3-compatible
 * store behind the same interface.
 */
export interface BlobStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Readable | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}
