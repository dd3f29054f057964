import { normalizeRows } from './dense.ts';
import type { Neighbours } from './nearest-neighbours.ts';

/**
 * Pulls each vector towards its nearest neighbours (weighted by similarity), a few
 * times over. Short texts are noisy points; averaging with their neighbourhood, a
 * graph diffusion step, lets k-means see the denser topic cores (measured on
 * BANKING77: about +1 NMI, +1.5 ACC at the same k).
 */
export function smoothOverNeighbours(x: Float32Array, n: number, d: number, nb: Neighbours, strength: number, steps: number): Float32Array {
  let current = x;
  for (let step = 0; step < steps; step++) {
    const next = Float32Array.from(current);
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < nb.k; a++) {
        const q = nb.ids[i * nb.k + a]!;
        if (q < 0) continue;
        const w = (strength * Math.max(0, nb.sims[i * nb.k + a]!)) / nb.k;
        if (w === 0) continue;
        for (let j = 0; j < d; j++) next[i * d + j]! += w * current[q * d + j]!;
      }
    }
    current = normalizeRows(next, d);
  }
  return current;
}
