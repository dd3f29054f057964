import { dot } from './dense.ts';
import { projectVector, type Projection } from './lsa.ts';
import { vectorize, type Vocabulary } from './text-features.ts';

/** Everything needed to place a new text among existing clusters without re-clustering. */
export interface ClusterModel {
  vocabulary: Vocabulary;
  projection: Projection;
  /** Unit centroid of each cluster in the LSA space (count × projection.dims, row-major). */
  centroids: Float32Array;
  count: number;
}

export interface Placement {
  cluster: number;
  /** Cosine similarity to that cluster's centroid, −1..1: callers may refuse weak matches. */
  similarity: number;
}

/**
 * The nearest cluster of a new text (incremental assignment). Null when there are no
 * clusters or the text shares no term with the fitted vocabulary: then nothing is near.
 */
export function placeText(model: ClusterModel, text: string): Placement | null {
  if (model.count === 0) return null;
  const sparse = vectorize(model.vocabulary, text);
  if (sparse.indices.length === 0) return null;
  const v = projectVector(sparse, model.projection);
  const d = model.projection.dims;
  let best: Placement = { cluster: 0, similarity: -Infinity };
  for (let c = 0; c < model.count; c++) {
    const s = dot(v, 0, model.centroids, c * d, d);
    if (s > best.similarity) best = { cluster: c, similarity: s };
  }
  return best;
}
