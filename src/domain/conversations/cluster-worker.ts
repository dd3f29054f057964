// Runs inside a worker thread (piscina): clustering thousands of issues is seconds to a
// minute of CPU that would otherwise stall the job process's event loop, and with it the
// renewal of the job's lock (another worker would then take the job as stalled).
import { anchorClusters } from './anchor-clusters.ts';
import { textVector } from './clustering/cluster-model.ts';
import { clusterTexts, type ClusteringOptions } from './clustering/cluster-texts.ts';
import { encodeClusterModel } from './cluster-model-codec.ts';
import { matchClusters } from './match-clusters.ts';

/** `vectors`: every text's embedding (unit rows), clustered instead of the texts' LSA vectors. */
export type ClusterTask = { texts: string[]; previous: Array<string | null>; seed: number; vectors?: ClusteringOptions['vectors'] };

export type ClusterOutcome = {
  /** Final cluster of each text, an index into `ids`. */
  assignment: Int32Array;
  /** Per final cluster: the old cluster id it continues, or null for a new one. */
  ids: Array<string | null>;
  /** Per final cluster, what the run found for it (null: an old cluster the run did not continue). */
  described: Array<{ terms: string[]; representatives: number[] } | null>;
  /** The final model, encoded (what is stored, and what every worker places with). */
  model: Uint8Array;
};

/** A fresh clustering of the texts, anchored to the previous one (anchor-clusters.ts) in the same vector space. */
export default function cluster({ texts, previous, seed, vectors }: ClusterTask): ClusterOutcome {
  const run = clusterTexts(texts, vectors ? { seed, vectors } : { seed });
  const { space } = run.model;
  const vectorOf =
    space.kind === 'lsa' ? (i: number) => textVector(space, texts[i]!) : (i: number) => vectors!.data.subarray(i * space.dims, (i + 1) * space.dims);
  const anchored = anchorClusters(run, vectorOf, previous, matchClusters(run.assignment, run.clusters.length, previous));
  return {
    assignment: anchored.assignment,
    ids: anchored.ids,
    described: Array.from(anchored.fromRun, (c) => (c < 0 ? null : { terms: run.clusters[c]!.terms, representatives: run.clusters[c]!.representatives })),
    model: encodeClusterModel(anchored.model),
  };
}
