import { describe, expect, it } from 'vitest';
import { placeText } from '../../src/domain/conversations/clustering/cluster-model.ts';
import { clusterTexts } from '../../src/domain/conversations/clustering/cluster-texts.ts';
import { decodeClusterModel, encodeClusterModel } from '../../src/domain/conversations/cluster-model-codec.ts';
import { ModelCache } from '../../src/domain/conversations/cluster-model-store.ts';
import { THREE_TOPICS, topicQuestions } from '../support/topic-conversations.ts';

const texts = topicQuestions(300, 5).map(([, t]) => t);
const { model } = clusterTexts(texts, { seed: 3 });

describe('cluster model codec', () => {
  it('decodes to a model that places texts as the original does, within 0.01 similarity, in a quarter of float32', () => {
    const bytes = encodeClusterModel(model);
    const decoded = decodeClusterModel(bytes);
    expect(decoded.count).toBe(model.count);
    expect(decoded.projection.dims).toBe(model.projection.dims);
    expect([...decoded.vocabulary.terms]).toEqual([...model.vocabulary.terms]);
    expect(decoded.vocabulary.labels).toEqual(model.vocabulary.labels);
    expect([...decoded.vocabulary.isChar]).toEqual([...model.vocabulary.isChar]);
    expect(bytes.length).toBeLessThan(model.projection.components.byteLength / 3);
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
