import { normalizeRows, similarityBlock } from './dense.ts';
import type { Random } from './random.ts';

export interface KMeansResult {
  assignment: Int32Array;
  centroids: Float32Array;
  k: number;
}

/** k-means++ seeding on cosine distance: each new centre drawn in proportion to its distance from the chosen ones. */
function seedCentroids(x: Float32Array, n: number, d: number, k: number, random: Random): Float32Array {
  const centroids = new Float32Array(k * d);
  const distance = new Float64Array(n).fill(Infinity);
  const sims = new Float64Array(n);
  let chosen = Math.floor(random() * n);
  for (let c = 0; c < k; c++) {
    centroids.set(x.subarray(chosen * d, chosen * d + d), c * d);
    similarityBlock(centroids, c, 1, x, 0, n, d, sims);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const dist = Math.max(0, 1 - sims[i]!);
      if (dist < distance[i]!) distance[i] = dist;
      total += distance[i]!;
    }
    let target = random() * total;
    chosen = n - 1;
    for (let i = 0; i < n; i++) {
      target -= distance[i]!;
      if (target <= 0) {
        chosen = i;
        break;
      }
    }
  }
  return centroids;
}

/** Rows compared with all centroids at once: a block of similarities stays in cache. */
const CHUNK = 64;

/** Nearest centroid by cosine for every row (rows and centroids unit length); ties go to the lower index. */
export function assignNearest(x: Float32Array, n: number, d: number, centroids: Float32Array, k: number, out = new Int32Array(n)): Int32Array {
  const sims = new Float64Array(CHUNK * k);
  for (let first = 0; first < n; first += CHUNK) {
    const rows = Math.min(CHUNK, n - first);
    similarityBlock(x, first, rows, centroids, 0, k, d, sims);
    for (let r = 0; r < rows; r++) {
      let best = 0;
      let bestSim = -Infinity;
      for (let c = 0; c < k; c++) {
        const s = sims[r * k + c]!;
        if (s > bestSim) (bestSim = s), (best = c);
      }
      out[first + r] = best;
    }
  }
  return out;
}

export function centroidsOf(x: Float32Array, n: number, d: number, assignment: Int32Array, k: number): Float32Array {
  const centroids = new Float32Array(k * d);
  for (let i = 0; i < n; i++) {
    const o = assignment[i]! * d;
    for (let j = 0; j < d; j++) centroids[o + j]! += x[i * d + j]!;
  }
  return normalizeRows(centroids, d);
}

/** Spherical k-means (Dhillon and Modha 2001) on unit rows: Lloyd steps from given or k-means++ centres. */
export function sphericalKMeans(x: Float32Array, n: number, d: number, k: number, random: Random, init?: Float32Array, maxIterations = 30): KMeansResult {
  let centroids = init ?? seedCentroids(x, n, d, k, random);
  const assignment = new Int32Array(n).fill(-1);
  const next = new Int32Array(n);
  for (let it = 0; it < maxIterations; it++) {
    assignNearest(x, n, d, centroids, k, next);
    let changed = 0;
    for (let i = 0; i < n; i++) if (next[i] !== assignment[i]) changed++;
    assignment.set(next);
    centroids = centroidsOf(x, n, d, assignment, k);
    if (changed <= n * 0.001) break;
  }
  return { assignment, centroids, k };
}
