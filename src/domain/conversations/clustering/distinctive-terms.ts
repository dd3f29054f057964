import type { SparseRows } from './sparse-matrix.ts';
import type { Vocabulary } from './text-features.ts';

/**
 * Each cluster's words and word pairs that weigh most inside it against the whole corpus
 * (mean TF-IDF in the cluster minus the mean overall), for labels. A bigram hides the
 * single words it contains, so "card arriv" does not come with "card" and "arriv".
 */
export function distinctiveTerms(x: SparseRows, vocabulary: Vocabulary, assignment: Int32Array, count: number, perCluster = 5): string[][] {
  const overall = new Float64Array(x.cols);
  const inCluster = Array.from({ length: count }, () => new Map<number, number>());
  const sizes = new Int32Array(count);
  for (let i = 0; i < x.rows; i++) {
    const c = assignment[i]!;
    sizes[c]!++;
    const sums = inCluster[c]!;
    for (let p = x.offsets[i]!; p < x.offsets[i + 1]!; p++) {
      const t = x.indices[p]!;
      if (vocabulary.labels[t] === null) continue;
      overall[t]! += x.values[p]!;
      sums.set(t, (sums.get(t) ?? 0) + x.values[p]!);
    }
  }
  return inCluster.map((sums, c) => {
    const ranked = [...sums.entries()]
      .map(([t, s]) => [t, s / sizes[c]! - overall[t]! / x.rows] as const)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const picked: string[] = [];
    for (const [t] of ranked) {
      const label = vocabulary.labels[t]!;
      const parts = label.split(' ');
      if (picked.some((p) => p.split(' ').some((w) => parts.includes(w)))) continue;
      picked.push(label);
      if (picked.length === perCluster) break;
    }
    return picked;
  });
}
