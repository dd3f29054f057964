import { hungarian } from './hungarian.ts';

/** Contingency table of predicted clusters (rows) against true labels (columns). */
function contingency(predicted: ArrayLike<number>, truth: ArrayLike<number>) {
  const rows = new Map<number, number>();
  const cols = new Map<number, number>();
  for (let i = 0; i < predicted.length; i++) {
    if (!rows.has(predicted[i]!)) rows.set(predicted[i]!, rows.size);
    if (!cols.has(truth[i]!)) cols.set(truth[i]!, cols.size);
  }
  const table = Array.from({ length: rows.size }, () => new Array<number>(cols.size).fill(0));
  for (let i = 0; i < predicted.length; i++) table[rows.get(predicted[i]!)!]![cols.get(truth[i]!)!]!++;
  return table;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const entropy = (counts: number[], n: number) => -sum(counts.filter((c) => c > 0).map((c) => (c / n) * Math.log(c / n)));

/** Normalized mutual information, arithmetic-mean normalization (as scikit-learn's default). */
export function nmi(predicted: ArrayLike<number>, truth: ArrayLike<number>): number {
  const table = contingency(predicted, truth);
  const n = predicted.length;
  const a = table.map(sum);
  const b = table[0]!.map((_, j) => sum(table.map((r) => r[j]!)));
  let mi = 0;
  table.forEach((row, i) => row.forEach((c, j) => {
    if (c > 0) mi += (c / n) * Math.log((c * n) / (a[i]! * b[j]!));
  }));
  const h = (entropy(a, n) + entropy(b, n)) / 2;
  return h === 0 ? 1 : mi / h;
}

/** Adjusted Rand index (Hubert and Arabie). */
export function ari(predicted: ArrayLike<number>, truth: ArrayLike<number>): number {
  const table = contingency(predicted, truth);
  const pairs = (x: number) => (x * (x - 1)) / 2;
  const index = sum(table.flatMap((r) => r.map(pairs)));
  const a = sum(table.map((r) => pairs(sum(r))));
  const b = sum(table[0]!.map((_, j) => pairs(sum(table.map((r) => r[j]!)))));
  const expected = (a * b) / pairs(predicted.length);
  const max = (a + b) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}

/** Clustering accuracy: the best one-to-one mapping of clusters to labels (Hungarian), extra clusters count as wrong. */
export function accuracy(predicted: ArrayLike<number>, truth: ArrayLike<number>): number {
  const table = contingency(predicted, truth);
  const size = Math.max(table.length, table[0]!.length);
  const big = Math.max(...table.flat());
  const cost = Array.from({ length: size }, (_, i) => Array.from({ length: size }, (_, j) => big - (table[i]?.[j] ?? 0)));
  const match = hungarian(cost);
  return sum(match.map((j, i) => table[i]?.[j] ?? 0)) / predicted.length;
}
