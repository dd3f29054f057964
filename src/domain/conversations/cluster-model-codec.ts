import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { dimsOf, type ClusterModel } from './clustering/cluster-model.ts';
import type { FeatureOptions } from './clustering/text-features.ts';

/**
 * Bytes of a ClusterModel, for the database, so that workers on any machine place issues
 * with the model the last re-clustering made. Layout (then deflated):
 *
 *   u32 header length | header JSON {format, kind, …}
 *   lsa:        header {options, dims, count, terms, labels}
 *               | f32 idf[terms] | f32 scale[terms] | i8 components[terms × dims] | f32 centroids[count × dims]
 *   embeddings: header {model, dims, count} | f32 centroids[count × dims]
 *
 * The projection (terms × dims, most of the size) is stored as int8 with one scale per term
 * row: a quarter of float32, and a placement moves by less than 0.01 in cosine similarity
 * (test/conversations/cluster-model-codec.test.ts). Everything else is exact. FORMAT 1,
 * written before embeddings existed, is the lsa layout without `kind`.
 */
const FORMAT = 2;

type LsaHeader = { format: number; kind?: 'lsa'; options: FeatureOptions; dims: number; count: number; terms: string[]; labels: (string | null)[] };
type EmbeddingsHeader = { format: number; kind: 'embeddings'; model: string; dims: number; count: number; placeThreshold?: number };

export function encodeClusterModel(model: ClusterModel): Buffer {
  const { space, centroids, count } = model;
  const centroidBytes = bytesOf(centroids.subarray(0, count * dimsOf(space)));
  if (space.kind === 'embeddings') {
    const header: EmbeddingsHeader = { format: FORMAT, kind: 'embeddings', model: space.model, dims: space.dims, count };
    if (model.placeThreshold !== undefined) header.placeThreshold = model.placeThreshold;
    return pack(header, [centroidBytes]);
  }
  const { vocabulary, projection } = space;
  const dims = projection.dims;
  const terms = new Array<string>(vocabulary.terms.size);
  for (const [term, i] of vocabulary.terms) terms[i] = term;
  const n = terms.length;
  const scales = new Float32Array(n);
  const quantized = new Int8Array(n * dims);
  for (let r = 0; r < n; r++) {
    let max = 0;
    for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(projection.components[r * dims + j]!));
    const scale = max / 127;
    scales[r] = scale;
    if (scale === 0) continue;
    for (let j = 0; j < dims; j++) quantized[r * dims + j] = Math.round(projection.components[r * dims + j]! / scale);
  }
  const header: LsaHeader = { format: FORMAT, kind: 'lsa', options: vocabulary.options, dims, count, terms, labels: vocabulary.labels };
  return pack(header, [bytesOf(vocabulary.idf), bytesOf(scales), bytesOf(quantized), centroidBytes]);
}

function pack(header: object, parts: Buffer[]): Buffer {
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  return deflateRawSync(Buffer.concat([length, json, ...parts]), { level: 6 });
}

export function decodeClusterModel(encoded: Uint8Array): ClusterModel {
  const raw = inflateRawSync(encoded);
  const headerLength = raw.readUInt32LE(0);
  const header = JSON.parse(raw.subarray(4, 4 + headerLength).toString('utf8')) as LsaHeader | EmbeddingsHeader;
  if (header.format !== 1 && header.format !== FORMAT) throw new Error(`Unknown cluster model format ${header.format}`);
  let at = 4 + headerLength;
  const take = (bytes: number) => {
    // A copy: typed arrays need aligned offsets, and the inflated buffer may be pooled.
    const out = new ArrayBuffer(bytes);
    raw.copy(new Uint8Array(out), 0, at, at + bytes);
    at += bytes;
    return out;
  };
  const end = () => {
    if (at !== raw.length) throw new Error('Cluster model bytes do not match their header');
  };
  const { dims, count } = header;
  if (header.kind === 'embeddings') {
    const centroids = new Float32Array(take(count * dims * 4));
    end();
    const decoded: ClusterModel = { space: { kind: 'embeddings', model: header.model, dims }, centroids, count };
    if (header.placeThreshold !== undefined) decoded.placeThreshold = header.placeThreshold;
    return decoded;
  }
  const { terms } = header;
  const n = terms.length;
  const idf = new Float32Array(take(n * 4));
  const scales = new Float32Array(take(n * 4));
  const quantized = new Int8Array(take(n * dims));
  const centroids = new Float32Array(take(count * dims * 4));
  end();
  const components = new Float32Array(n * dims);
  for (let r = 0; r < n; r++) {
    const scale = scales[r]!;
    for (let j = 0; j < dims; j++) components[r * dims + j] = quantized[r * dims + j]! * scale;
  }
  const isChar = Uint8Array.from(terms, (t) => (t.startsWith('c:') ? 1 : 0));
  const vocabulary = { options: header.options, terms: new Map(terms.map((t, i) => [t, i])), labels: header.labels, idf, isChar };
  return { space: { kind: 'lsa', vocabulary, projection: { dims, components } }, centroids, count };
}

/** Roughly what a decoded model holds in memory, for the cache's budget. */
export function decodedSize(model: ClusterModel): number {
  const { space } = model;
  if (space.kind === 'embeddings') return model.centroids.byteLength + 256;
  let strings = 0;
  for (const term of space.vocabulary.terms.keys()) strings += 2 * term.length + 64;
  return space.projection.components.byteLength + model.centroids.byteLength + space.vocabulary.idf.byteLength * 2 + strings;
}

function bytesOf(array: Float32Array | Int8Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}
