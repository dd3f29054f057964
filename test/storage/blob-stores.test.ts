import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import type { BlobStore } from '../../src/domain/storage/blob-store.ts';
import { LocalDiskStore } from '../../src/domain/storage/local-disk-store.ts';
import { S3Store } from '../../src/domain/storage/s3-store.ts';

let s3: S3rver;
let endpoint: string;

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: await mkdtemp(join(tmpdir(), 'vellum-s3-')), configureBuckets: [{ name: 'vellum-files', configs: [] }] });
  const { address, port } = (await s3.run()) as { address: string; port: number };
  endpoint = `http://${address}:${port}`;
});
afterAll(() => s3.close());

const keyOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const text = async (stream: Readable | null) => {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString();
};

const stores: Array<[string, () => Promise<BlobStore>]> = [
  ['local disk', async () => new LocalDiskStore(await mkdtemp(join(tmpdir(), 'vellum-blobs-')))],
  ['S3-compatible', async () => new S3Store({ endpoint, bucket: 'vellum-files', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', prefix: 'blobs' })],
];

describe.each(stores)('%s blob store', (_name, make) => {
  it('stores, reads, tells existence and deletes by content key; storing twice is harmless', async () => {
    const store = await make();
    const bytes = Buffer.from(`hello ${Math.random()}`);
    const key = keyOf(bytes);
    expect(await store.exists(key)).toBe(false);
    expect(await store.get(key)).toBeNull();
    await store.put(key, bytes, 'text/plain');
    await store.put(key, bytes, 'text/plain');
    expect(await store.exists(key)).toBe(true);
    expect(await text(await store.get(key))).toBe(bytes.toString());
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    await store.delete(key);
  });

  it('refuses keys that are not content hashes (no path tricks)', async () => {
    const store = await make();
    await expect(store.put('../../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Invalid blob key/);
    await expect(store.get('ABC')).rejects.toThrow(/Invalid blob key/);
  });
});

describe('storage configuration', () => {
  it('names the missing S3 settings', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'docs' })).toThrow(/S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/);
    expect(loadConfig({}).storage).toEqual({ driver: 'local' });
  });
});
