import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import type { PageSpec } from '../../src/domain/content/page-tree.ts';
import { treeCacheUsage } from '../../src/domain/content/revision-reader.ts';
import { ByteBudgetCache, estimateBytes } from '../../src/domain/shared/byte-budget-cache.ts';
import { buildContent, buildOrg, buildSpace } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

describe('byte-budget cache', () => {
  it('never holds more estimated bytes than its budget', () => {
    const budget = 50_000;
    const cache = new ByteBudgetCache<{ text: string }>(budget);
    const kept = new Map<string, { text: string }>();
    for (let i = 0; i < 500; i++) {
      const value = { text: 'x'.repeat((i * 7919) % 9000) };
      cache.set(`k${i}`, value);
      kept.set(`k${i}`, value);
      const held = [...kept].filter(([k]) => cache.get(k) !== undefined);
      const sum = held.reduce((n, [, v]) => n + estimateBytes(v), 0);
      expect(sum).toBeLessThanOrEqual(budget);
      expect(cache.usage.bytes).toBeLessThanOrEqual(budget);
    }
    expect(cache.usage.entries).toBeGreaterThan(5);
  });

  it('does not keep a value larger than the whole budget', () => {
    const cache = new ByteBudgetCache<{ text: string }>(10_000);
    cache.set('small', { text: 'a'.repeat(100) });
    cache.set('huge', { text: 'b'.repeat(20_000) });
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBeDefined();
  });

  it('counts string width and shared objects once', () => {
    expect(estimateBytes('é'.repeat(10))).toBeLessThan(estimateBytes('€'.repeat(10)));
    const shared = { text: 'y'.repeat(1000) };
    expect(estimateBytes([shared, shared])).toBeLessThan(2 * estimateBytes(shared));
  });
});

describe('revision tree cache', () => {
  let api: TestApi;
  const budget = 40 * 1024;
  beforeAll(async () => {
    api = await startTestApi({ CONTENT_CACHE_BYTES: `${budget / 1024}kb` });
  });
  afterAll(() => api.close());

  const pagesOf = (n: number, prefix: string): PageSpec[] =>
    Array.from({ length: n }, (_, i) => ({ kind: 'document' as const, title: `${prefix} page ${i} with a title long enough to weigh`, markdown: `# ${prefix} ${i}\n` }));

  it('keeps small trees within the configured budget', async () => {
    const em = api.em();
    const { org, owner } = await buildOrg(em);
    for (let s = 0; s < 12; s++) {
      const space = await buildSpace(em, org, owner);
      await buildContent(em, space, pagesOf(20, `s${s}`));
      const res = await api.request('GET', `/v1/spaces/${space.id}/content/pages`, { token: owner.token });
      expect(res.status).toBe(200);
      expect(treeCacheUsage().maxBytes).toBe(budget);
      expect(treeCacheUsage().bytes).toBeLessThanOrEqual(budget);
    }
    expect(treeCacheUsage().entries).toBeGreaterThan(0);
  });

  it('does not cache a tree larger than the whole budget', async () => {
    const em = api.em();
    const { org, owner } = await buildOrg(em);
    const space = await buildSpace(em, org, owner);
    await buildContent(em, space, pagesOf(400, 'big'));
    const before = treeCacheUsage().entries;
    const res = await api.request('GET', `/v1/spaces/${space.id}/content/pages`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.pages).toHaveLength(400);
    expect(treeCacheUsage().entries).toBeLessThanOrEqual(before);
    expect(treeCacheUsage().bytes).toBeLessThanOrEqual(budget);
  });
});

describe('memory configuration', () => {
  it('reads the cache budget as bytes and checks the heap cap', () => {
    expect(loadConfig({ CONTENT_CACHE_BYTES: '512kb' }).contentCacheBytes).toBe(512 * 1024);
    expect(loadConfig({}).contentCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ MAX_HEAP_MB: '256' }).maxHeapMb).toBe(256);
    expect(() => loadConfig({ MAX_HEAP_MB: '12' })).toThrow(/MAX_HEAP_MB/);
    expect(() => loadConfig({ CONTENT_CACHE_BYTES: 'lots' })).toThrow(/CONTENT_CACHE_BYTES/);
  });
});
