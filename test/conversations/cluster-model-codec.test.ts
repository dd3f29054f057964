import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { placeText, placeVector, type ClusterModel, type VectorSpace } from '../../src/domain/conversations/clustering/cluster-model.ts';
import { clusterTexts } from '../../src/domain/conversations/clustering/cluster-texts.ts';
import { decodeClusterModel, encodeClusterModel } from '../../src/domain/conversations/cluster-model-codec.ts';
import { ModelCache } from '../../src/domain/conversations/cluster-model-store.ts';
import { THREE_TOPICS, topicQuestions } from '../support/topic-conversations.ts';

const texts = topicQuestions(300, 5).map(([, t]) => t);
const { model } = clusterTexts(texts, { seed: 3 });
const lsa = (m: ClusterModel) => m.space as Extract<VectorSpace, { kind: 'lsa' }>;

describe('cluster model codec', () => {
  it('decodes to a model that places texts as the original does, within 0.01 similarity, in a quarter of float32', () => {
    const bytes = encodeClusterModel(model);
    const decoded = decodeClusterModel(bytes);
    expect(decoded.count).toBe(model.count);
    const space = lsa(model);
    const back = lsa(decoded);
    expect(back.projection.dims).toBe(space.projection.dims);
    expect([...back.vocabulary.terms]).toEqual([...space.vocabulary.terms]);
    expect(back.vocabulary.labels).toEqual(space.vocabulary.labels);
    expect([...back.vocabulary.isChar]).toEqual([...space.vocabulary.isChar]);
    expect(bytes.length).toBeLessThan(space.projection.components.byteLength / 3);
    const probes = [...texts.slice(0, 100), ...Object.values(THREE_TOPICS).flat()];
    for (const text of probes) {
      const a = placeText(model, text);
      const b = placeText(decoded, text);
      expect(b?.cluster).toBe(a?.cluster);
      expect(Math.abs(b!.similarity - a!.similarity)).toBeLessThan(0.01);
    }
  });

  it('refuses bytes that are not a model of its format', () => {
    const bytes = encodeClusterModel(model);
    expect(() => decodeClusterModel(bytes.subarray(0, bytes.length - 10))).toThrow();
    const embeddings = encodeClusterModel({ space: { kind: 'embeddings', model: 'm', dims: 4 }, centroids: new Float32Array(8), count: 2 });
    expect(() => decodeClusterModel(embeddings.subarray(0, embeddings.length - 4))).toThrow();
  });

  it('still decodes FORMAT 1 bytes (stored before embeddings existed) as an LSA model that places as before', () => {
    // Written by the FORMAT 1 encoder from THREE_TOPICS' 24 texts, clustered with seed 1 into 3 clusters.
    const bytes = Buffer.from(readFileSync(new URL('../fixtures/cluster-model-format1.b64', import.meta.url), 'utf8').trim(), 'base64');
    const decoded = decodeClusterModel(bytes);
    expect(decoded.space.kind).toBe('lsa');
    expect(decoded.count).toBe(3);
    const clusterOf = Object.values(THREE_TOPICS).map((topic) => new Set(topic.map((text) => placeText(decoded, text)?.cluster)));
    for (const clusters of clusterOf) expect(clusters.size).toBe(1);
    expect(new Set(clusterOf.map((c) => [...c][0])).size).toBe(3);
    expect(placeText(decoded, 'my card was declined again')?.cluster).toBe([...clusterOf[0]!][0]);
  });

  it('round-trips an embeddings model exactly: its model name, dimensions and centroids; texts alone are not placed in it', () => {
    const centroids = Float32Array.from([1, 0, 0, 0, 0, 0.6, 0.8, 0]);
    const original: ClusterModel = { space: { kind: 'embeddings', model: 'text-embedding-3-small', dims: 4 }, centroids, count: 2 };
    const decoded = decodeClusterModel(encodeClusterModel(original));
    expect(decoded.space).toEqual({ kind: 'embeddings', model: 'text-embedding-3-small', dims: 4 });
    expect(decoded.count).toBe(2);
    expect([...decoded.centroids]).toEqual([...centroids]);
    expect(placeVector(decoded, Float32Array.from([0, 3, 4, 0]))).toEqual({ cluster: 1, similarity: expect.closeTo(1, 5) });
    expect(placeVector(decoded, Float32Array.from([1, 0, 0]))).toBeNull();
    expect(placeText(decoded, 'card declined')).toBeNull();
  });
});

describe('decoded model cache', () => {
  const current = (version: number) => ({ version, model, clusterIds: [] });
  it('is keyed by organization and version and drops the least recently used beyond its bounds', () => {
    const cache = new ModelCache(2, Number.MAX_SAFE_INTEGER);
    cache.set('a', current(1));
    cache.set('b', current(1));
    expect(cache.get('a', 1)).toBeDefined(); // a is now the most recent
    expect(cache.get('a', 2)).toBeUndefined();
    cache.set('c', current(1));
    expect(cache.size).toBe(2);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBeDefined();
    expect(cache.get('c', 1)).toBeDefined();
  });

  it('keeps within its byte budget, but always the newest entry', () => {
    const cache = new ModelCache(10, 1);
    cache.set('a', current(1));
    cache.set('b', current(1));
    expect(cache.size).toBe(1);
    expect(cache.get('b', 1)).toBeDefined();
  });
});
