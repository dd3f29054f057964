import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ClusterModel } from './clustering/cluster-model.ts';
import type { FeatureOptions } from './clustering/text-features.ts';

/**
 * Bytes of a ClusterModel, for the database, so that workers on any machine place issues
 * with the model the last re-clustering made. Layout (then deflated):
 *
 *   u32 header length | header JSON {format, options, dims, count, terms, labels}
 *   | f32 idf[terms] | f32 scale[terms] | i8 components[terms × dims] | f32 centroids[count × dims]
 *
 * The projection (terms × dims, most of the size) is stored as int8 with one scale per term
 * row: a quarter of float32, and a placement moves by less than 0.01 in cosine similarity
 * (test/conversations/cluster-model-codec.test.ts). Everything else is exact.
 */
const FORMAT = 1;

type Header = { format: number; options: FeatureOptions; dims: number; count: number; terms: string[]; labels: (string | null)[] };

export function encodeClusterModel(model: ClusterModel): Buffer {
  const { vocabulary, projection, centroids, count } = model;
  const dims = projection.dims;
  const terms = new Array<string>(vocabulary.terms.size);
  for (const [term, i] of vocabulary.terms) terms[i] = term;
  const header: Header = { format: FORMAT, options: vocabulary.options, dims, count, terms, labels: vocabulary.labels };
  const json = Buffer.from(JSON.stringify(header));
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
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const parts = [length, json, bytesOf(vocabulary.idf), bytesOf(scales), bytesOf(quantized), bytesOf(centroids.subarray(0, count * dims))];
  return deflateRawSync(Buffer.concat(parts), { level: 6 });
}

export function decodeClusterModel(encoded: Uint8Array): ClusterModel {
  const raw = inflateRawSync(encoded);
  const headerLength = raw.readUInt32LE(0);
  const header = JSON.parse(raw.subarray(4, 4 + headerLength).toString('utf8')) as Header;
  if (header.format !== FORMAT) throw new Error(`Unknown cluster model format ${header.format}`);
  const { dims, count, terms } = header;
  const n = terms.length;
  let at = 4 + headerLength;
  const take = (bytes: number) => {
    // A copy: typed arrays need aligned offsets, and the inflated buffer may be pooled.
    const out = new ArrayBuffer(bytes);
    raw.copy(new Uint8Array(out), 0, at, at + bytes);
    at += bytes;
    return out;
  };
  const idf = new Float32Array(take(n * 4));
  const scales = new Float32Array(take(n * 4));
  const quantized = new Int8Array(take(n * dims));
  const centroids = new Float32Array(take(count * dims * 4));
  if (at !== raw.length) throw new Error('Cluster model bytes do not match their header');
  const components = new Float32Array(n * dims);
  for (let r = 0; r < n; r++) {
    const scale = scales[r]!;
    for (let j = 0; j < dims; j++) components[r * dims + j] = quantized[r * dims + j]! * scale;
  }
  const isChar = Uint8Array.from(terms, (t) => (t.startsWith('c:') ? 1 : 0));
  return {
    vocabulary: { options: header.options, terms: new Map(terms.map((t, i) => [t, i])), labels: header.labels, idf, isChar },
    projection: { dims, components },
    centroids,
    count,
  };
}

/** Roughly what a decoded model holds in memory, for the cache's budget. */
export function decodedSize(model: ClusterModel): number {
  let strings = 0;
  for (const term of model.vocabulary.terms.keys()) strings += 2 * term.length + 64;
  return model.projection.components.byteLength + model.centroids.byteLength + model.vocabulary.idf.byteLength * 2 + strings;
}

function bytesOf(array: Float32Array | Int8Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}
