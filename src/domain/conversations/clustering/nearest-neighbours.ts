import { similarityBlock } from './dense.ts';
import { assignNearest } from './spherical-kmeans.ts';

/** Each row's `k` most similar other rows (cosine on unit rows), most similar first; id -1 where a row has fewer. */
export interface Neighbours {
  k: number;
  ids: Int32Array;
  sims: Float32Array;
}

/** Up to this many rows, the whole similarity matrix is kept (≤ 64 MB) and each pair computed once. */
const SYMMETRIC_UP_TO = 4000;
const CHUNK = 32;

/** Exact k nearest neighbours by brute force: n² d work, meant for samples of up to ~20,000 rows. */
export function nearestNeighbours(x: Float32Array, n: number, d: number, wanted: number): Neighbours {
  const k = Math.max(0, Math.min(wanted, n - 1));
  const out = { k, ids: new Int32Array(n * k).fill(-1), sims: new Float32Array(n * k).fill(-Infinity) };
  if (k === 0) return out;
  // Similarities are kept as float32 and compared as such, in both paths, so both give the same neighbours.
  if (n <= SYMMETRIC_UP_TO) {
    // Half the work: a pair's similarity is computed once, for the earlier row, and mirrored
    // (measured: the neighbour stage at 100,000 texts took a third of the whole run).
    const all = new Float32Array(n * n);
    const block = new Float64Array(CHUNK * n);
    for (let first = 0; first < n; first += CHUNK) {
      const rows = Math.min(CHUNK, n - first);
      const width = n - first;
      similarityBlock(x, first, rows, x, first, width, d, block);
      for (let r = 0; r < rows; r++) {
        const i = first + r;
        for (let j = i; j < n; j++) all[i * n + j] = all[j * n + i] = block[r * width + j - first]!;
      }
    }
    for (let i = 0; i < n; i++) {
      all[i * n + i] = -Infinity;
      keepNearest(all, i * n, n, i, out);
    }
    return out;
  }
  const block = new Float32Array(CHUNK * n);
  const wide = new Float64Array(CHUNK * n);
  for (let first = 0; first < n; first += CHUNK) {
    const rows = Math.min(CHUNK, n - first);
    similarityBlock(x, first, rows, x, 0, n, d, wide);
    block.set(wide.subarray(0, rows * n));
    for (let r = 0; r < rows; r++) {
      block[r * n + first + r] = -Infinity;
      keepNearest(block, r * n, n, first + r, out);
    }
  }
  return out;
}

/** Row i's k most similar among row[from..from+n), by insertion into a small sorted list (k is tiny next to n). */
function keepNearest(row: Float32Array, from: number, n: number, i: number, { k, ids, sims }: Neighbours): void {
  const o = i * k;
  for (let j = 0; j < n; j++) {
    const s = row[from + j]!;
    if (s <= sims[o + k - 1]!) continue;
    let p = k - 1;
    while (p > 0 && sims[o + p - 1]! < s) {
      sims[o + p] = sims[o + p - 1]!;
      ids[o + p] = ids[o + p - 1]!;
      p--;
    }
    sims[o + p] = s;
    ids[o + p] = j;
  }
}

/**
 * Approximate neighbours for large inputs: rows are split into buckets by their nearest
 * of a few centres (about 500 rows each), and searched exactly inside
 * their bucket only. Near bucket borders a true neighbour can be missed; for
 * neighbourhood smoothing that costs little, and it keeps 100,000 rows in seconds.
 */
export function bucketedNeighbours(x: Float32Array, n: number, d: number, wanted: number, centres: Float32Array, centreCount: number): Neighbours {
  const k = Math.max(0, Math.min(wanted, n - 1));
  const ids = new Int32Array(n * k).fill(-1);
  const sims = new Float32Array(n * k).fill(0);
  const buckets = Array.from({ length: centreCount }, () => [] as number[]);
  const nearest = assignNearest(x, n, d, centres, centreCount);
  for (let i = 0; i < n; i++) buckets[nearest[i]!]!.push(i);
  for (const members of buckets) {
    if (members.length < 2) continue;
    const sub = new Float32Array(members.length * d);
    members.forEach((row, p) => sub.set(x.subarray(row * d, row * d + d), p * d));
    const local = nearestNeighbours(sub, members.length, d, k);
    members.forEach((row, p) => {
      for (let a = 0; a < local.k; a++) {
        ids[row * k + a] = members[local.ids[p * local.k + a]!]!;
        sims[row * k + a] = local.sims[p * local.k + a]!;
      }
    });
  }
  return { k, ids, sims };
}
