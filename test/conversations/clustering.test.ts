import { describe, expect, it } from 'vitest';
import { placeText, placeVector } from '../../src/domain/conversations/clustering/cluster-model.ts';
import { clusterTexts } from '../../src/domain/conversations/clustering/cluster-texts.ts';
import { porterStem } from '../../src/domain/conversations/clustering/porter-stemmer.ts';
import { THREE_TOPICS } from '../support/topic-conversations.ts';

const topics = THREE_TOPICS;
const texts = Object.values(topics).flat();
const topicOf = Object.keys(topics).flatMap((name, t) => Object.values(topics)[t]!.map(() => name));

describe('clusterTexts', () => {
  it('finds three clusters in three obvious topics, each topic in one cluster', () => {
    const result = clusterTexts(texts, { seed: 7 });
    expect(result.clusters).toHaveLength(3);
    for (const name of Object.keys(topics)) {
      const clusters = new Set(texts.map((_, i) => result.assignment[i]).filter((_, i) => topicOf[i] === name));
      expect(clusters.size).toBe(1);
    }
    expect(result.clusters.map((c) => c.size).sort()).toEqual([8, 8, 8]);
    // Distinctive terms name the topic, in words a reader knows (not stems).
    const labels = result.clusters.map((c) => c.terms.join(' '));
    expect(labels.some((l) => l.includes('declined'))).toBe(true);
    expect(labels.some((l) => l.includes('password'))).toBe(true);
    expect(labels.some((l) => l.includes('csv') || l.includes('export'))).toBe(true);
  });

  it('gives the same clustering for the same seed', () => {
    const a = clusterTexts(texts, { seed: 3 });
    const b = clusterTexts(texts, { seed: 3 });
    expect(Array.from(b.assignment)).toEqual(Array.from(a.assignment));
    expect(b.clusters).toEqual(a.clusters);
    expect(Array.from(b.model.centroids)).toEqual(Array.from(a.model.centroids));
  });

  it('places a new text in the cluster of its topic', () => {
    const result = clusterTexts(texts, { seed: 7 });
    const clusterOf = (name: string) => result.assignment[topicOf.indexOf(name)];
    expect(placeText(result.model, 'my card got declined at the petrol station')?.cluster).toBe(clusterOf('card'));
    expect(placeText(result.model, 'password reset mail is not coming')?.cluster).toBe(clusterOf('password'));
    expect(placeText(result.model, 'csv export has no rows')?.cluster).toBe(clusterOf('export'));
    // Nothing in common with any cluster: no placement rather than a random one.
    expect(placeText(result.model, 'zzz qqq')).toBeNull();
  });

  it('clusters given embeddings instead of the texts, keeping distinctive terms from the texts', () => {
    // Vectors that group the texts across their topics (by position mod 3): the grouping must follow them.
    const dims = 6;
    const data = new Float32Array(texts.length * dims);
    texts.forEach((_, i) => {
      data[i * dims + (i % 3)] = 1;
      data[i * dims + 3 + (i % 3)] = 0.05 * ((i * 7) % 5);
    });
    for (let i = 0; i < texts.length; i++) {
      const row = data.subarray(i * dims, (i + 1) * dims);
      const norm = Math.hypot(...row);
      row.forEach((v, j) => (row[j] = v / norm));
    }
    const result = clusterTexts(texts, { seed: 7, vectors: { model: 'fake', dims, data } });
    expect(result.clusters).toHaveLength(3);
    expect(result.model.space).toEqual({ kind: 'embeddings', model: 'fake', dims });
    texts.forEach((_, i) => expect(result.assignment[i]).toBe(result.assignment[i % 3]));
    for (const cluster of result.clusters) expect(cluster.terms.length).toBeGreaterThan(0);
    expect(placeText(result.model, texts[0]!)).toBeNull();
    expect(placeVector(result.model, data.subarray(dims, 2 * dims))?.cluster).toBe(result.assignment[1]);
  });

  it('handles no text and a single text', () => {
    const none = clusterTexts([]);
    expect(none.clusters).toEqual([]);
    expect(none.assignment).toHaveLength(0);
    expect(placeText(none.model, 'anything')).toBeNull();

    const one = clusterTexts(['Where is my refund?']);
    expect(one.clusters).toHaveLength(1);
    expect(Array.from(one.assignment)).toEqual([0]);
    expect(one.clusters[0]!.representatives).toEqual([0]);
    expect(placeText(one.model, 'refund please')?.cluster).toBe(0);
  });
});

describe('porterStem', () => {
  it('reduces inflections to one stem, as in Porter (1980)', () => {
    expect(['connected', 'connecting', 'connection', 'connections'].map(porterStem)).toEqual(['connect', 'connect', 'connect', 'connect']);
    expect(porterStem('caresses')).toBe('caress');
    expect(porterStem('ponies')).toBe('poni');
    expect(porterStem('relational')).toBe('relat');
    expect(porterStem('generalization')).toBe('gener');
    expect(porterStem('hopping')).toBe('hop');
  });
});
