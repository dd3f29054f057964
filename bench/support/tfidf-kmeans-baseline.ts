import { fitVocabulary } from '../../src/domain/conversations/clustering/text-features.ts';
import { seededRandom } from '../../src/domain/conversations/clustering/random.ts';
import { sphericalKMeans } from '../../src/domain/conversations/clustering/spherical-kmeans.ts';

/**
 * The reference the clustering must beat: word TF-IDF (stop words, Porter stems, no
 * bigrams, no character n-grams, no LSA) and spherical k-means GIVEN the true count.
 * The sparse rows are densified: at benchmark sizes (≤ 3,080 texts) that is cheap.
 */
export function tfidfKMeans(texts: string[], k: number, seed: number): Int32Array {
  const { matrix } = fitVocabulary(texts, { charWeight: 0, charMin: 99, charMax: 0, minDf: 2, maxFeatures: 60_000, wordBigrams: false });
  const dense = new Float32Array(matrix.rows * matrix.cols);
  for (let r = 0; r < matrix.rows; r++) {
    for (let p = matrix.offsets[r]!; p < matrix.offsets[r + 1]!; p++) dense[r * matrix.cols + matrix.indices[p]!] = matrix.values[p]!;
  }
  return sphericalKMeans(dense, matrix.rows, matrix.cols, k, seededRandom(seed)).assignment;
}
