import { AwsClient } from 'aws4fetch';
import { Readable } from 'node:stream';
import type { BlobStore } from './blob-store.ts';

export type S3Options = {
  /** Service endpoint, e.g. https://s3.eu-west-1.amazonaws.com or http://minio.internal:9000. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix inside the bucket. */
  prefix?: string;
};

/**
 * Blobs in any S3-compatible store (AWS S3, MinIO, R2, …), path-style addressing, requests
 * signed with SigV4. The endpoint is the operator's own configuration, not user input, so
 * it does not go through the guarded outbound client.
 */
export class S3Store implements BlobStore {
  private readonly client: AwsClient;
  private readonly base: string;

  constructor(opts: S3Options) {
    this.client = new AwsClient({ accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey, region: opts.region, service: 's3' });
    this.base = `${opts.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(opts.bucket)}/${opts.prefix ? `${opts.prefix.replace(/\/+$/, '')}/` : ''}`;
  }

  private url(key: string): string {
    if (!/^[a-f0-9]{64}$/.test(key)) throw new Error(`Invalid blob key "${key}"`);
    return `${this.base}${key}`;
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    if (await this.exists(key)) return;
    const res = await this.client.fetch(this.url(key), { method: 'PUT', body: bytes, headers: { 'content-type': contentType } });
    if (!res.ok) throw new Error(`S3 PUT ${key} failed: ${res.status}`);
  }

  async get(key: string): Promise<Readable | null> {
    const res = await this.client.fetch(this.url(key), { method: 'GET' });
    if (res.status === 404) return null;
    if (!res.ok || !res.body) throw new Error(`S3 GET ${key} failed: ${res.status}`);
    return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
  }

  async exists(key: string): Promise<boolean> {
    const res = await this.client.fetch(this.url(key), { method: 'HEAD' });
    if (res.status === 404) return false;
    if (!res.ok) throw new Error(`S3 HEAD ${key} failed: ${res.status}`);
    return true;
  }

  async delete(key: string): Promise<void> {
    const res = await this.client.fetch(this.url(key), { method: 'DELETE' });
    if (!res.ok && res.status !== 404) throw new Error(`S3 DELETE ${key} failed: ${res.status}`);
  }
}
