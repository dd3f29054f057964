// Issue clustering quality on labelled support-intent data, beside a TF-IDF + k-means
// baseline given the true number of clusters, through the worker's own entry point.
// Usage: bash scripts/bench.sh clustering-quality [data folder] [seeds]
// (default folder ../shared/data/clustering relative to the project, 3 seeds; skips if absent)
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clusterTexts } from '../src/domain/conversations/clustering/cluster-texts.ts';
import { placeText } from '../src/domain/conversations/clustering/cluster-model.ts';
import { accuracy, ari, nmi } from './support/cluster-metrics.ts';
import { loadClusteringDatasets, type LabelledTexts } from './support/clustering-datasets.ts';
import { percentile } from './support/stats.ts';
import { tfidfKMeans } from './support/tfidf-kmeans-baseline.ts';

const project = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(process.argv[2] ?? resolve(project, '../shared/data/clustering'));
const SEEDS = Array.from({ length: Number(process.argv[3] ?? 3) }, (_, i) => i + 1);

const datasets = loadClusteringDatasets(root);
if (!datasets) {
  console.log(`clustering-quality: skipped, no labelled data at ${root} (give the folder as the first argument)`);
  process.exit(0);
}

interface Run { nmi: number; ari: number; acc: number; k: number; ms: number }
const stat = (xs: number[], scale = 100, digits = 1) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1));
  return `${(mean * scale).toFixed(digits)} ± ${(sd * scale).toFixed(digits)}`;
};
const line = (label: string, runs: Run[]) =>
  `  ${label.padEnd(34)} NMI ${stat(runs.map((r) => r.nmi))}  ARI ${stat(runs.map((r) => r.ari))}  ACC ${stat(runs.map((r) => r.acc))}  k ${stat(runs.map((r) => r.k), 1, 1)}  ${stat(runs.map((r) => r.ms), 1, 0)} ms`;
const score = (assignment: Int32Array, data: LabelledTexts, k: number, ms: number): Run => ({
  nmi: nmi(assignment, data.labels), ari: ari(assignment, data.labels), acc: accuracy(assignment, data.labels), k, ms,
});

console.log(`clustering-quality: ${root}, seeds ${SEEDS.join(', ')} (mean ± sd; NMI/ARI/ACC in %)`);
for (const data of datasets) {
  console.log(`${data.name}: ${data.texts.length} texts, ${data.classes} labels`);
  const baseline: Run[] = [];
  const ours: Run[] = [];
  let heapPeak = 0;
  let placement: number[] = [];
  let agreement = 0;
  for (const seed of SEEDS) {
    let started = performance.now();
    baseline.push(score(tfidfKMeans(data.texts, data.classes, seed), data, data.classes, performance.now() - started));
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    started = performance.now();
    const result = clusterTexts(data.texts, { seed });
    ours.push(score(result.assignment, data, result.clusters.length, performance.now() - started));
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed - heapBefore);
    if (seed === SEEDS[0]) {
      // Incremental path: each text placed again as if new; agreement with its own cluster.
      placement = data.texts.map((text, i) => {
        const t = performance.now();
        const placed = placeText(result.model, text);
        if (placed?.cluster === result.assignment[i]) agreement++;
        return performance.now() - t;
      });
    }
  }
  console.log(line(`TF-IDF + k-means, true k=${data.classes}`, baseline));
  console.log(line('clusterTexts (k chosen)', ours));
  console.log(`  incremental placeText: p50 ${percentile(placement, 50).toFixed(3)} ms  p99 ${percentile(placement, 99).toFixed(3)} ms; ` +
    `${((100 * agreement) / data.texts.length).toFixed(1)} % land in their own cluster; heap growth ≈ ${(heapPeak / 2 ** 20).toFixed(0)} MB, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
}
