import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GuardedHttp, parseAllowlist } from '../../src/domain/net/guarded-http.ts';
import { LocalDiskStore } from '../../src/domain/storage/local-disk-store.ts';
import type { JobServices } from '../../src/jobs/define-job.ts';

/**
 * Tests use their own database next to the configured one, so a developer's data is
 * never touched: DATABASE_URL's database name with `_test` appended.
 */
export function testDatabaseUrl(): string {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/vellum');
  const name = base.pathname.replace(/^\//, '') || 'vellum';
  base.pathname = `/${name.endsWith('_test') ? name : `${name}_test`}`;
  return base.toString();
}

export function testRedisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** What job handlers reach outside the database, as tests give it: a scratch blob store, loopback allowed. */
export function testJobServices(): JobServices {
  return {
    blobs: new LocalDiskStore(join(tmpdir(), 'vellum-test-storage')),
    http: new GuardedHttp({ allow: parseAllowlist('127.0.0.1'), timeoutMs: 10_000, maxBytes: 50 * 1024 * 1024, maxRedirects: 5, userAgent: 'vellum-test' }),
  };
}
