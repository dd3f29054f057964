import { dimsOf, type ClusterModel } from './clustering/cluster-model.ts';
import { dot } from './clustering/dense.ts';

/**
 * How much nearer (cosine similarity to the centroids) an earlier issue must be to its new
 * cluster than to its old one before it moves. Measured with bench/cluster-worker.bench.ts
 * (a set clustered, then 10 % more): earlier texts keeping their cluster from scratch /
 * margin 0.3 / 0.4 — BANKING77 68 / 92.7 / 94.8 %, DSTC11 84 / 94.8 / 97.2 %, HWU64
 * 70.9 / 88.8 / 92.3 %, NMI unchanged or higher in every case.
 */
export const KEEP_MARGIN = 0.4;

export type Anchored = {
  /** Final cluster of each issue, an index into `ids`. */
  assignment: Int32Array;
  /** Per final cluster: the old cluster id it continues, or null for a new cluster. */
  ids: Array<string | null>;
  /** Per final cluster: its cluster in the new run, or −1 for an old cluster the run did not continue. */
  fromRun: Int32Array;
  /** The run's model with the final clusters' centroids. */
  model: ClusterModel;
};

/**
 * Anchors a fresh clustering to the previous one, so clusters do not reshuffle from run
 * to run (k-means moves every text near a boundary each time: from scratch, 10 % more
 * BANKING77 texts keep only 68 % of the earlier ones in their cluster). An earlier issue
 * stays in its old cluster unless its new cluster is nearer by KEEP_MARGIN; an old cluster
 * no new one continues (`continued`) stays as long as some of its issues stay, its
 * centroid the members' new clusters' centroids weighted by how many went to each.
 * New issues follow the new run. Clusters left without issues go. `vectorOf(i)` is issue i's
 * unit vector in the run's space (the one its centroids live in), null when it has none.
 */
export function anchorClusters(
  run: { assignment: Int32Array; model: ClusterModel },
  vectorOf: (i: number) => Float32Array | null,
  previous: ReadonlyArray<string | null>,
  continued: ReadonlyArray<string | null>,
  margin = KEEP_MARGIN,
): Anchored {
  const { model } = run;
  const d = dimsOf(model.space);
  const ids: Array<string | null> = [...continued];
  const index = new Map<string, number>();
  ids.forEach((id, c) => id !== null && index.set(id, c));
  // Old clusters the run did not continue, with where their issues went.
  const spread = new Map<string, Float64Array>();
  previous.forEach((old, i) => {
    if (old === null || index.has(old)) return;
    const weights = spread.get(old) ?? spread.set(old, new Float64Array(model.count)).get(old)!;
    weights[run.assignment[i]!]!++;
  });
  const extra = [...spread.keys()].sort();
  const centroids = new Float32Array((model.count + extra.length) * d);
  centroids.set(model.centroids.subarray(0, model.count * d));
  extra.forEach((old, e) => {
    const at = (model.count + e) * d;
    spread.get(old)!.forEach((w, c) => {
      for (let j = 0; j < d; j++) centroids[at + j]! += w * model.centroids[c * d + j]!;
    });
    normalize(centroids, at, d);
    index.set(old, model.count + e);
    ids.push(old);
  });
  const extended: ClusterModel = { ...model, centroids, count: model.count + extra.length };

  const assignment = Int32Array.from(run.assignment);
  previous.forEach((old, i) => {
    const stay = old === null ? -1 : index.get(old)!;
    if (stay < 0 || stay === assignment[i]) return;
    const v = vectorOf(i);
    if (v && dot(v, 0, centroids, stay * d, d) >= dot(v, 0, centroids, assignment[i]! * d, d) - margin) assignment[i] = stay;
  });
  return compact(assignment, ids, extended, model.count);
}

/** Drops clusters without issues, renumbering the rest in order. */
function compact(assignment: Int32Array, ids: Array<string | null>, model: ClusterModel, runCount: number): Anchored {
  const d = dimsOf(model.space);
  const sizes = new Int32Array(model.count);
  for (const c of assignment) sizes[c]!++;
  const renumber = new Int32Array(model.count).fill(-1);
  const keptIds: Array<string | null> = [];
  const fromRun: number[] = [];
  const centroids: Float32Array[] = [];
  for (let c = 0; c < model.count; c++) {
    if (sizes[c] === 0) continue;
    renumber[c] = keptIds.length;
    keptIds.push(ids[c]!);
    fromRun.push(c < runCount ? c : -1);
    centroids.push(model.centroids.subarray(c * d, (c + 1) * d));
  }
  const flat = new Float32Array(centroids.length * d);
  centroids.forEach((row, c) => flat.set(row, c * d));
  return {
    assignment: assignment.map((c) => renumber[c]!),
    ids: keptIds,
    fromRun: Int32Array.from(fromRun),
    model: { ...model, centroids: flat, count: keptIds.length },
  };
}

function normalize(m: Float32Array, at: number, d: number): void {
  let s = 0;
  for (let j = 0; j < d; j++) s += m[at + j]! ** 2;
  if (s === 0) return;
  const inv = 1 / Math.sqrt(s);
  for (let j = 0; j < d; j++) m[at + j]! *= inv;
}
