/**
 * A new cluster must share at least this much with an old one (Jaccard over their issues)
 * to inherit its id: below it, the old cluster's label would describe something else.
 */
export const MIN_OVERLAP = 0.2;

/**
 * Which old cluster each new cluster continues: greedy on the Jaccard similarity of their
 * member issues, best pair first, each old cluster used once (the greedy answer to the
 * assignment problem; close to Hungarian when overlaps are clear, and linear in the pairs
 * that share issues). `previous[i]` is issue i's old cluster (null: it had none).
 * Answers, per new cluster, the old id it keeps or null for a new cluster.
 */
export function matchClusters(assignment: Int32Array, count: number, previous: ReadonlyArray<string | null>): Array<string | null> {
  const newSizes = new Int32Array(count);
  const oldSizes = new Map<string, number>();
  const overlap = new Map<string, number>();
  assignment.forEach((c, i) => {
    newSizes[c]!++;
    const old = previous[i];
    if (old == null) return;
    oldSizes.set(old, (oldSizes.get(old) ?? 0) + 1);
    const key = `${c}\u0000${old}`;
    overlap.set(key, (overlap.get(key) ?? 0) + 1);
  });
  const pairs = [...overlap.entries()].map(([key, shared]) => {
    const [c, old] = key.split('\u0000') as [string, string];
    const cluster = Number(c);
    return { cluster, old, jaccard: shared / (newSizes[cluster]! + oldSizes.get(old)! - shared) };
  });
  // Ties go to the smaller cluster index and old id, so the same input matches the same way.
  pairs.sort((a, b) => b.jaccard - a.jaccard || a.cluster - b.cluster || (a.old < b.old ? -1 : a.old > b.old ? 1 : 0));
  const kept = new Array<string | null>(count).fill(null);
  const used = new Set<string>();
  for (const { cluster, old, jaccard } of pairs) {
    if (jaccard < MIN_OVERLAP) break;
    if (kept[cluster] !== null || used.has(old)) continue;
    kept[cluster] = old;
    used.add(old);
  }
  return kept;
}
