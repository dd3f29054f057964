import { similarityBlock } from './dense.ts';
import type { Random } from './random.ts';
import { sphericalKMeans } from './spherical-kmeans.ts';

/** Candidate counts: a geometric grid (each about 20 % above the last) from 2 to `max`. */
export function candidateCounts(max: number): number[] {
  const out: number[] = [];
  for (let k = 2; k <= max; k = Math.max(k + 1, Math.round(k * 1.2))) out.push(k);
  return out;
}

/**
 * Mean silhouette (Rousseeuw 1987) on cosine distance, from a precomputed similarity
 * matrix: how much closer each text is to its own cluster than to the next nearest one.
 */
export function silhouette(similarity: Float32Array, n: number, labels: Int32Array, k: number): number {
  const sizes = new Int32Array(k);
  for (const c of labels) sizes[c]!++;
  const sum = new Float64Array(k);
  let total = 0;
  for (let i = 0; i < n; i++) {
    sum.fill(0);
    for (let j = 0; j < n; j++) sum[labels[j]!]! += 1 - similarity[i * n + j]!;
    const own = labels[i]!;
    if (sizes[own]! <= 1) continue; // a singleton scores 0, as usual
    const a = sum[own]! / (sizes[own]! - 1);
    let b = Infinity;
    for (let c = 0; c < k; c++) if (c !== own && sizes[c]! > 0) b = Math.min(b, sum[c]! / sizes[c]!);
    if (Number.isFinite(b)) total += (b - a) / Math.max(a, b, 1e-12);
  }
  return total / n;
}

/** Below this best silhouette, no split is better than keeping everything together. */
const MIN_SILHOUETTE = 0.05;
const PARSIMONY = 0.98;

/**
 * The number of clusters, chosen by the data: k-means at each candidate count on `x`
 * (a sample of at most a few thousand rows), scored by silhouette; the best score wins.
 * Measured on BANKING77 / HWU64 / DSTC11 insurance the silhouette peak lands near or
 * somewhat above the true intent count, where NMI and ACC are both near their best.
 */
export function chooseClusterCount(x: Float32Array, n: number, d: number, maxCount: number, random: Random): number {
  if (n < 3) return Math.min(n, 1);
  const similarity = new Float32Array(n * n);
  // Two rows at a time against the rows from the first of them on: the upper triangle, mirrored.
  const block = new Float64Array(2 * n);
  for (let i = 0; i < n; i += 2) {
    const rows = Math.min(2, n - i);
    similarityBlock(x, i, rows, x, i, n - i, d, block);
    for (let r = 0; r < rows; r++) {
      for (let j = i + r; j < n; j++) similarity[(i + r) * n + j] = similarity[j * n + i + r] = block[r * (n - i) + j - i]!;
    }
  }
  const counts = candidateCounts(Math.min(maxCount, n - 1));
  const scores = counts.map((k) => silhouette(similarity, n, sphericalKMeans(x, n, d, k, random, undefined, 10).assignment, k));
  // One k-means run per count is noisy, and past the true count the curve is nearly flat:
  // average each score with its near neighbours, then take the smallest count within 2 % of the
  // peak (parsimony), rather than whichever run happened to score best.
  // Only counts within 25 % are neighbours: 2 and 3 clusters are different answers.
  const averaged = counts.map((k) => {
    const window = scores.filter((_, j) => counts[j]! * 1.25 >= k && counts[j]! <= k * 1.25);
    return window.reduce((a, b) => a + b, 0) / window.length;
  });
  const peak = Math.max(...averaged);
  if (peak < MIN_SILHOUETTE) return 1;
  const best = counts[averaged.findIndex((score) => score >= PARSIMONY * peak)]!;
  return best;
}
