import type { SparseRows, SparseVector } from './sparse-matrix.ts';
import { charGramsOf, wordTermsOf } from './terms.ts';
import type { Vocabulary } from './text-features.ts';
import { words } from './tokenize.ts';

/**
 * Indices of the known terms of a text, one per occurrence. Memoized per word for the
 * n-gram part (a WeakMap, so the vocabulary's shape stays what callers serialize): with the
 * vocabulary fixed, a word's n-grams always map to the same indices.
 */
function termIdsOf(vocabulary: Vocabulary, text: string, out: number[]): void {
  out.length = 0;
  const tokens = words(text);
  for (const term of wordTermsOf(tokens, vocabulary.options)) {
    const index = vocabulary.terms.get(term);
    if (index !== undefined) out.push(index);
  }
  let cache = idCaches.get(vocabulary);
  if (cache === undefined) idCaches.set(vocabulary, (cache = new Map()));
  for (const w of tokens) {
    let ids = cache.get(w);
    if (ids === undefined) {
      const known: number[] = [];
      for (const gram of charGramsOf(w, vocabulary.options)) {
        const index = vocabulary.terms.get(gram);
        if (index !== undefined) known.push(index);
      }
      ids = Int32Array.from(known);
      if (cache.size < 200_000) cache.set(w, ids);
    }
    for (let i = 0; i < ids.length; i++) out.push(ids[i]!);
  }
}
const idCaches = new WeakMap<Vocabulary, Map<string, Int32Array>>();

/** The TF-IDF rows of many texts, straight into compressed-row arrays. */
export function vectorizeAll(vocabulary: Vocabulary, texts: string[]): SparseRows {
  const offsets = new Int32Array(texts.length + 1);
  let indices = new Int32Array(Math.max(16, texts.length * 32));
  let values = new Float32Array(indices.length);
  const ids: number[] = [];
  texts.forEach((text, r) => {
    termIdsOf(vocabulary, text, ids);
    const at = offsets[r]!;
    if (at + ids.length > indices.length) {
      const size = Math.max(2 * indices.length, at + ids.length);
      indices = grow(indices, new Int32Array(size));
      values = grow(values, new Float32Array(size));
    }
    offsets[r + 1] = at + weigh(vocabulary, ids, indices, values, at);
  });
  const nnz = offsets[texts.length]!;
  return { rows: texts.length, cols: vocabulary.idf.length, offsets, indices: indices.slice(0, nnz), values: values.slice(0, nnz) };
}

function grow<T extends Int32Array | Float32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

export function vectorize(vocabulary: Vocabulary, text: string): SparseVector {
  const ids: number[] = [];
  termIdsOf(vocabulary, text, ids);
  const indices = new Int32Array(ids.length);
  const values = new Float32Array(ids.length);
  const size = weigh(vocabulary, ids, indices, values, 0);
  return { indices: indices.subarray(0, size), values: values.subarray(0, size) };
}

/** Raw weights of the row being built: one scratch array rather than one per text. */
const weights: number[] = [];
let scratch = new Int32Array(1024);

/**
 * Sublinear TF·IDF, each block (words, characters) scaled to its weight, then unit length
 * overall. `occurrences` holds one index per occurrence of a known term; the row is written at
 * `at` in ascending index order and its length returned.
 */
function weigh(vocabulary: Vocabulary, occurrences: number[], indices: Int32Array, values: Float32Array, at: number): number {
  // A typed array sorts numbers natively; Array#sort with a comparator took 2 of 41 s at 100,000 texts.
  if (scratch.length < occurrences.length) scratch = new Int32Array(2 * occurrences.length);
  scratch.set(occurrences);
  const ids = scratch.subarray(0, occurrences.length).sort();
  const norms = [0, 0];
  const raw = weights;
  let size = 0;
  for (let p = 0; p < ids.length; ) {
    const index = ids[p]!;
    let count = 0;
    while (p < ids.length && ids[p] === index) p++, count++;
    const v = (1 + Math.log(count)) * vocabulary.idf[index]!;
    indices[at + size] = index;
    raw[size++] = v;
    norms[vocabulary.isChar[index]!]! += v * v;
  }
  const scale = [norms[0]! > 0 ? 1 / Math.sqrt(norms[0]!) : 0, norms[1]! > 0 ? vocabulary.options.charWeight / Math.sqrt(norms[1]!) : 0];
  const total = Math.sqrt((norms[0]! > 0 ? 1 : 0) + (norms[1]! > 0 ? vocabulary.options.charWeight ** 2 : 0)) || 1;
  for (let p = 0; p < size; p++) values[at + p] = (raw[p]! * scale[vocabulary.isChar[indices[at + p]!]!]!) / total;
  return size;
}
