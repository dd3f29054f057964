import { type SparseRows } from './sparse-matrix.ts';
import { DEFAULT_FEATURES, termsOf, type FeatureOptions } from './terms.ts';
import { vectorizeAll } from './tfidf-rows.ts';
import { contentStems, words } from './tokenize.ts';

export { DEFAULT_FEATURES, termsOf, type FeatureOptions } from './terms.ts';
export { vectorize, vectorizeAll } from './tfidf-rows.ts';

/** What turns a new text into the same vector space: the fitted vocabulary and its weights. */
export interface Vocabulary {
  options: FeatureOptions;
  terms: Map<string, number>;
  /** Readable form of each word term, by index ("card arrival", "refund"); char n-grams are null. */
  labels: (string | null)[];
  idf: Float32Array;
  isChar: Uint8Array;
}

/** For each stem, the word it most often stands for in these texts ("arriv" → "arrived"). */
function surfaceForms(texts: string[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const t of texts) {
    for (const word of words(t)) {
      const [stem] = contentStems([word]);
      if (stem === undefined) continue;
      const forms = counts.get(stem) ?? counts.set(stem, new Map()).get(stem)!;
      forms.set(word, (forms.get(word) ?? 0) + 1);
    }
  }
  const out = new Map<string, string>();
  for (const [stem, forms] of counts) out.set(stem, [...forms.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0]);
  return out;
}

/**
 * Terms kept (document frequency ≥ minDf, the most frequent first) and their IDF, fitted
 * on `texts`; with `rows` the matrix holds those texts instead (e.g. all texts, the
 * vocabulary fitted on a sample of them).
 */
export function fitVocabulary(texts: string[], options: FeatureOptions = DEFAULT_FEATURES, rows: string[] = texts): { vocabulary: Vocabulary; matrix: SparseRows } {
  const df = new Map<string, number>();
  const seen = new Set<string>();
  for (const t of texts) {
    seen.clear();
    for (const term of termsOf(t, options)) seen.add(term);
    for (const term of seen) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const kept = [...df.entries()].filter(([, n]) => n >= options.minDf || texts.length < 3);
  kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  kept.length = Math.min(kept.length, options.maxFeatures);
  const terms = new Map<string, number>();
  const idf = new Float32Array(kept.length);
  const isChar = new Uint8Array(kept.length);
  const labels: (string | null)[] = [];
  const surface = surfaceForms(texts);
  kept.forEach(([term, n], i) => {
    terms.set(term, i);
    idf[i] = Math.log((1 + texts.length) / (1 + n)) + 1;
    isChar[i] = term.startsWith('c:') ? 1 : 0;
    labels.push(isChar[i] ? null : term.slice(2).split(' ').map((stem) => surface.get(stem) ?? stem).join(' '));
  });
  const vocabulary: Vocabulary = { options, terms, labels, idf, isChar };
  return { vocabulary, matrix: vectorizeAll(vocabulary, rows) };
}
