// Runs inside a worker thread (piscina): clustering thousands of issues is seconds to a
// minute of CPU that would otherwise stall the job process's event loop, and with it the
// renewal of the job's lock (another worker would then take the job as stalled).
import { anchorClusters } from './anchor-clusters.ts';
import { dimsOf, placeVector, textVector, type ClusterModel } from './clustering/cluster-model.ts';
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
  if (space.kind === 'embeddings') anchored.model.placeThreshold = calibratedThreshold(anchored.model, anchored.assignment, vectorOf);
  return {
    assignment: anchored.assignment,
    ids: anchored.ids,
    described: Array.from(anchored.fromRun, (c) => (c < 0 ? null : { terms: run.clusters[c]!.terms, representatives: run.clusters[c]!.representatives })),
    model: encodeClusterModel(anchored.model),
  };
}

/**
 * A new issue is placed when it resembles its nearest cluster at least as much as 95 % of
 * the run's issues resemble their own. PLACE_THRESHOLD for LSA was chosen the same way
 * (from held-out texts of each cluster's topic, 5th percentile 0.58); embeddings models
 * differ in scale (unrelated texts score near 0.2 with some, 0.7 with others), so with them
 * the threshold comes from the run's own similarities instead of a fixed figure.
 */
const MEMBERS_ABOVE = 0.95;

/** The similarity to their own centroid that MEMBERS_ABOVE of the issues reach. */
function calibratedThreshold(model: ClusterModel, assignment: Int32Array, vectorOf: (i: number) => Float32Array | null): number {
  const similarities: number[] = [];
  assignment.forEach((c, i) => {
    const v = vectorOf(i);
    const placed = v && placeVector({ ...model, centroids: model.centroids.subarray(c * dimsOf(model.space), (c + 1) * dimsOf(model.space)), count: 1 }, v);
    if (placed) similarities.push(placed.similarity);
  });
  similarities.sort((a, b) => a - b);
  return similarities[Math.floor(similarities.length * (1 - MEMBERS_ABOVE))] ?? -1;
}
