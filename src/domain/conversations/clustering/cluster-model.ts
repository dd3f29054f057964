import { dot, normalizeRows } from './dense.ts';
import { projectVector, type Projection } from './lsa.ts';
import { vectorize, type Vocabulary } from './text-features.ts';

/**
 * The space a model's centroids live in: the LSA topic space fitted on the texts (a text is
 * placed from its words), or the vectors of an embeddings model (an issue is placed from
 * its stored embedding of that same model; no other vector compares with the centroids).
 */
export type VectorSpace =
  | { kind: 'lsa'; vocabulary: Vocabulary; projection: Projection }
  | { kind: 'embeddings'; model: string; dims: number };

/** Everything needed to place a new issue among existing clusters without re-clustering. */
export interface ClusterModel {
  space: VectorSpace;
  /** Unit centroid of each cluster in `space` (count × dims, row-major). */
  centroids: Float32Array;
  count: number;
  /**
   * Similarity below which a new issue is left for the next re-clustering, when the model
   * calibrated its own (embeddings models: their similarity scales differ from model to
   * model); absent, place-issues.ts uses the threshold measured for LSA.
   */
  placeThreshold?: number;
}

export interface Placement {
  cluster: number;
  /** Cosine similarity to that cluster's centroid, −1..1: callers may refuse weak matches. */
  similarity: number;
}

export function dimsOf(space: VectorSpace): number {
  return space.kind === 'lsa' ? space.projection.dims : space.dims;
}

/** A text's unit vector in an LSA space, or null when it shares no term with the vocabulary. */
export function textVector(space: Extract<VectorSpace, { kind: 'lsa' }>, text: string): Float32Array | null {
  const sparse = vectorize(space.vocabulary, text);
  return sparse.indices.length === 0 ? null : projectVector(sparse, space.projection);
}

/**
 * The nearest cluster of a new text (incremental assignment). Null when there are no
 * clusters, the text shares no term with the fitted vocabulary, or the model's space is
 * an embeddings model's (a text alone cannot be placed there: placeVector).
 */
export function placeText(model: ClusterModel, text: string): Placement | null {
  if (model.space.kind !== 'lsa' || model.count === 0) return null;
  const v = textVector(model.space, text);
  return v && nearest(model, v);
}

/** The nearest cluster of a vector of the model's space (normalized here), or null when its size does not fit. */
export function placeVector(model: ClusterModel, vector: Float32Array): Placement | null {
  const d = dimsOf(model.space);
  if (model.count === 0 || vector.length !== d) return null;
  return nearest(model, normalizeRows(Float32Array.from(vector), d));
}

function nearest(model: ClusterModel, v: Float32Array): Placement {
  const d = dimsOf(model.space);
  let best: Placement = { cluster: 0, similarity: -Infinity };
  for (let c = 0; c < model.count; c++) {
    const s = dot(v, 0, model.centroids, c * d, d);
    if (s > best.similarity) best = { cluster: c, similarity: s };
  }
  return best;
}
