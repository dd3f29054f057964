// The clustering worker's own figures, on the labelled sets of ../shared/data/clustering:
// - the stored model: encoded size and encode/decode time (decoded once per process and version);
// - incremental placement latency per issue (median, p99) through the worker's `placements`;
// - stable ids: cluster 91 % of a set, then all of it (10 % more), and count the earlier texts
//   that keep their cluster — from scratch with overlap matching only, and anchored as the
//   re-clustering job does (anchor-clusters.ts) — with the NMI of each final clustering.
// Usage: bash scripts/bench.sh cluster-worker [data folder]
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textVector, type VectorSpace } from '../src/domain/conversations/clustering/cluster-model.ts';
import { clusterTexts } from '../src/domain/conversations/clustering/cluster-texts.ts';
import { anchorClusters } from '../src/domain/conversations/anchor-clusters.ts';
import { decodeClusterModel, encodeClusterModel } from '../src/domain/conversations/cluster-model-codec.ts';
import { matchClusters } from '../src/domain/conversations/match-clusters.ts';
import { PLACE_THRESHOLD, placements } from '../src/domain/conversations/place-issues.ts';
import { nmi } from './support/cluster-metrics.ts';
import { loadClusteringDatasets } from './support/clustering-datasets.ts';
import { percentile } from './support/stats.ts';

const project = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(process.argv[2] ?? resolve(project, '../shared/data/clustering'));
const datasets = loadClusteringDatasets(root);
if (!datasets) {
  console.log(`cluster-worker: skipped, no labelled data at ${root} (give the folder as the first argument)`);
  process.exit(0);
}

const time = <T>(fn: () => T): [T, number] => {
  const t = performance.now();
  const out = fn();
  return [out, performance.now() - t];
};

for (const data of datasets) {
  const n = data.texts.length;
  // A fixed interleaving, the earlier 91 % then 9 % more (10 % of the earlier count).
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => ((a * 7919) % n) - ((b * 7919) % n));
  const earlier = order.slice(0, Math.floor(n / 1.1));
  const byText = (ids: number[]) => [...ids].sort((a, b) => (data.texts[a]! < data.texts[b]! ? -1 : data.texts[a]! > data.texts[b]! ? 1 : a - b));
  const first = byText(earlier);
  const [r1, firstMs] = time(() => clusterTexts(first.map((i) => data.texts[i]!), { seed: 1 }));
  const old = new Map(first.map((i, k) => [i, `old-${r1.assignment[k]}`]));

  const [bytes, encodeMs] = time(() => encodeClusterModel(r1.model));
  const [decoded, decodeMs] = time(() => decodeClusterModel(bytes));
  const held = order.slice(earlier.length);
  const current = { version: 1, model: decoded, clusterIds: Array.from({ length: decoded.count }, (_, c) => `c${c}`) };
  const latencies: number[] = [];
  let placed = 0;
  for (let round = 0; round < 3; round++) {
    for (const i of held) {
      const t = performance.now();
      placed += placements(current, [{ id: String(i), title: data.texts[i]!, summary: '' }]).length;
      latencies.push(performance.now() - t);
    }
  }
  console.log(`${data.name}: ${n} texts, ${data.classes} labels; first run ${earlier.length} texts, ${r1.clusters.length} clusters in ${(firstMs / 1000).toFixed(1)} s`);
  const space = r1.model.space as Extract<VectorSpace, { kind: 'lsa' }>;
  console.log(`  model: ${(bytes.length / 1024).toFixed(0)} KiB stored (${space.vocabulary.terms.size} terms × ${space.projection.dims} dims), encode ${encodeMs.toFixed(0)} ms, decode ${decodeMs.toFixed(0)} ms`);
  console.log(`  placement per issue: median ${percentile(latencies, 50).toFixed(3)} ms, p99 ${percentile(latencies, 99).toFixed(3)} ms; ${((placed / latencies.length) * 100).toFixed(1)} % of unseen texts placed at similarity ≥ ${PLACE_THRESHOLD}`);

  const all = byText(order);
  const texts = all.map((i) => data.texts[i]!);
  const truth = all.map((i) => data.labels[i]!);
  const previous = all.map((i) => old.get(i) ?? null);
  const [r2, secondMs] = time(() => clusterTexts(texts, { seed: 1 }));
  const continued = matchClusters(r2.assignment, r2.clusters.length, previous);
  const space2 = r2.model.space as Extract<VectorSpace, { kind: 'lsa' }>;
  const [anchored, anchorMs] = time(() => anchorClusters(r2, (i) => textVector(space2, texts[i]!), previous, continued));
  const keptShare = (ids: Array<string | null>, assignment: Int32Array) =>
    all.filter((i, k) => old.has(i) && ids[assignment[k]!] === old.get(i)).length / earlier.length;
  console.log(`  10 % more, re-clustered in ${(secondMs / 1000).toFixed(1)} s: from scratch ${r2.clusters.length} clusters, ${(keptShare(continued, r2.assignment) * 100).toFixed(1)} % of earlier texts keep their cluster, NMI ${(nmi(r2.assignment, truth) * 100).toFixed(1)}`);
  console.log(`    anchored (+${anchorMs.toFixed(0)} ms): ${anchored.ids.length} clusters, ${(keptShare(anchored.ids, anchored.assignment) * 100).toFixed(1)} % keep their cluster, NMI ${(nmi(anchored.assignment, truth) * 100).toFixed(1)}`);
}
