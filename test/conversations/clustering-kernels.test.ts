import { describe, expect, it } from 'vitest';
import { clusterTexts, type ClusteringStage } from '../../src/domain/conversations/clustering/cluster-texts.ts';
import { dot, gramOfColumns, similarityBlock } from '../../src/domain/conversations/clustering/dense.ts';
import { nearestNeighbours } from '../../src/domain/conversations/clustering/nearest-neighbours.ts';
import { seededRandom } from '../../src/domain/conversations/clustering/random.ts';
import { multiplyDense, rowOf, selectRows } from '../../src/domain/conversations/clustering/sparse-matrix.ts';
import { fitVocabulary, vectorize } from '../../src/domain/conversations/clustering/text-features.ts';

// The fast paths of the clustering core promise the very numbers of the plain loops they
// replaced (so quality figures measured before still hold): checked here against those loops.

const random = seededRandom(11);
const matrix = (rows: number, d: number) => Float32Array.from({ length: rows * d }, () => random() - 0.5);
const unitRows = (rows: number, d: number) => {
  const m = matrix(rows, d);
  for (let r = 0; r < rows; r++) {
    const norm = Math.sqrt(dot(m, r * d, m, r * d, d));
    for (let j = 0; j < d; j++) m[r * d + j]! /= norm;
  }
  return m;
};

describe('clustering kernels', () => {
  it('similarityBlock gives exactly the dot products, odd block sizes included', () => {
    const d = 13;
    const a = matrix(9, d);
    const b = matrix(11, d);
    const out = new Float64Array(7 * 10);
    similarityBlock(a, 2, 7, b, 1, 10, d, out); // 7 rows: three pairs and a single; 10 columns: two fours and two
    for (let i = 0; i < 7; i++) for (let j = 0; j < 10; j++) expect(out[i * 10 + j]).toBe(dot(a, (2 + i) * d, b, (1 + j) * d, d));
  });

  it('gramOfColumns gives the row-by-row accumulation of MᵀM', () => {
    const [n, k] = [37, 7];
    const m = matrix(n, k);
    const gram = gramOfColumns(m, n, k);
    for (let i = 0; i < k; i++) {
      for (let j = i; j < k; j++) {
        let s = 0;
        for (let r = 0; r < n; r++) s += m[r * k + i]! * m[r * k + j]!;
        expect(gram[i * k + j]).toBe(s);
      }
    }
  });

  it('nearestNeighbours finds what sorting every similarity finds, in both search paths', () => {
    const d = 8;
    for (const n of [60, 4003]) { // up to 4,000 rows the matrix is kept whole and mirrored; above, rows go by chunks
      const x = unitRows(n, d);
      const found = nearestNeighbours(x, n, d, 5);
      for (const i of [0, 1, Math.floor(n / 2), n - 1]) {
        const expected = Array.from({ length: n }, (_, j) => j)
          .filter((j) => j !== i)
          .map((j) => [j, Math.fround(dot(x, i * d, x, j * d, d))] as const)
          .sort((p, q) => q[1] - p[1] || p[0] - q[0])
          .slice(0, 5);
        expect(Array.from(found.ids.subarray(i * 5, i * 5 + 5))).toEqual(expected.map(([j]) => j));
      }
    }
  });

  it('multiplyDense, two terms per pass, rounds as one term per pass did', () => {
    const { matrix: m } = fitVocabulary(['card declined at the shop', 'reset my password', 'card payment declined twice', 'password reset email']);
    const k = 5;
    const dense = matrix(m.cols, k);
    const out = multiplyDense(m, dense, k);
    for (let r = 0; r < m.rows; r++) {
      const expected = new Float32Array(k);
      for (let p = m.offsets[r]!; p < m.offsets[r + 1]!; p++) {
        for (let j = 0; j < k; j++) expected[j]! += m.values[p]! * dense[m.indices[p]! * k + j]!;
      }
      expect(Array.from(out.subarray(r * k, r * k + k))).toEqual(Array.from(expected));
    }
  });
});

describe('TF-IDF rows', () => {
  const texts = ['My card payment was declined', 'Card declined again!', 'How do I reset my password', 'password reset link broken', 'card card card'];

  it('a batch row equals the vector of the same text placed alone (the incremental path)', () => {
    const { vocabulary, matrix: m } = fitVocabulary(texts);
    texts.forEach((text, r) => {
      const alone = vectorize(vocabulary, text);
      const row = rowOf(m, r);
      expect(Array.from(row.indices)).toEqual(Array.from(alone.indices));
      expect(Array.from(row.values)).toEqual(Array.from(alone.values));
    });
  });

  it('a vocabulary fitted on some texts gives rows for all, the fitted ones as if fitted alone', () => {
    const fitted = fitVocabulary(texts.slice(0, 4));
    const all = fitVocabulary(texts.slice(0, 4), undefined, texts);
    expect(all.matrix.rows).toBe(5);
    expect(all.matrix.cols).toBe(fitted.matrix.cols);
    expect(selectRows(all.matrix, [0, 1, 2, 3])).toEqual(fitted.matrix);
    expect(rowOf(all.matrix, 4).indices.length).toBeGreaterThan(0); // "card" is known from the fit
  });
});

describe('clusterTexts stages', () => {
  it('reports each stage once, in pipeline order', () => {
    const stages: ClusteringStage[] = [];
    const texts = ['card declined', 'card payment declined', 'declined card', 'reset password', 'password reset link', 'forgot password'];
    clusterTexts(texts, { seed: 1, onStage: (stage, ms) => (expect(ms).toBeGreaterThanOrEqual(0), stages.push(stage)) });
    expect(stages).toEqual(['features', 'lsa', 'neighbours', 'count', 'k-means', 'summaries']);
  });
});
