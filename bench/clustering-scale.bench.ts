// Full re-clustering at scale: 100,000 labelled texts (BANKING77 train + test and HWU64
// train, then light deterministic rewordings of them) through clusterTexts, the function
// the re-clustering job calls. Prints the time per stage, memory peaks, incremental
// placement latency and, since every text keeps its intent label, NMI/ACC at that size.
// Usage: node --expose-gc bench/clustering-scale.bench.ts [data folder] [texts] [seed]
// (default folder ../shared/data/clustering relative to the project; skips if absent)
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { placeText } from '../src/domain/conversations/clustering/cluster-model.ts';
import { clusterTexts, type ClusteringStage } from '../src/domain/conversations/clustering/cluster-texts.ts';
import { accuracy, ari, nmi } from './support/cluster-metrics.ts';
import { scaleCorpus } from './support/scale-corpus.ts';
import { percentile } from './support/stats.ts';

const TARGET_SECONDS = 60;
const project = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(process.argv[2] ?? resolve(project, '../shared/data/clustering'));
const size = Number(process.argv[3] ?? 100_000);
const seed = Number(process.argv[4] ?? 1);

const data = scaleCorpus(root, size, seed);
if (!data) {
  console.log(`clustering-scale: skipped, no labelled data at ${root} (give the folder as the first argument)`);
  process.exit(0);
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
// JavaScript heap plus typed-array buffers (where the matrices live), sampled as each stage ends:
// the stages run synchronously, so nothing can sample in between.
const live = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
global.gc?.();
const liveBefore = live();
let livePeak = liveBefore;
const stages: [ClusteringStage, number][] = [];
const started = performance.now();
const result = clusterTexts(data.texts, {
  seed,
  onStage: (stage, ms) => {
    stages.push([stage, ms]);
    livePeak = Math.max(livePeak, live());
  },
});
const seconds = (performance.now() - started) / 1000;
const rssPeak = process.resourceUsage().maxRSS * 1024;

// Incremental path: 2,000 texts spread over the corpus, placed as if they had just arrived.
const placement: number[] = [];
for (let i = 0; i < 2000; i++) {
  const text = data.texts[Math.floor((i * data.texts.length) / 2000)]!;
  const t = performance.now();
  placeText(result.model, text);
  placement.push(performance.now() - t);
}

const verdict = seconds < TARGET_SECONDS ? 'met' : 'MISSED';
console.log(`clustering-scale: ${data.texts.length} texts (${data.classes} intent labels), seed ${seed}, ${root}`);
console.log(`  clusters found         ${result.clusters.length}`);
console.log(`  full re-clustering     ${seconds.toFixed(1)} s   (target < ${TARGET_SECONDS} s on 2 cores: ${verdict})`);
console.log(`  stages                 ${stages.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
console.log(`  memory peak            rss ${mb(rssPeak)} (process max); heap + buffers ${mb(livePeak)} at stage ends (${mb(livePeak - liveBefore)} above start)`);
console.log(`  placeText              p50 ${percentile(placement, 50).toFixed(3)} ms  p99 ${percentile(placement, 99).toFixed(3)} ms (target median < 5 ms)`);
console.log(`  quality at this size   NMI ${(100 * nmi(result.assignment, data.labels)).toFixed(1)}  ARI ${(100 * ari(result.assignment, data.labels)).toFixed(1)}  ACC ${(100 * accuracy(result.assignment, data.labels)).toFixed(1)} (%, against ${data.classes} labels)`);
