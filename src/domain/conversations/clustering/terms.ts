import { contentStems, words } from './tokenize.ts';

export interface FeatureOptions {
  /** Weight of the character n-gram block against the word block (1 = equal). */
  charWeight: number;
  charMin: number;
  charMax: number;
  /** A term must occur in this many texts to count; rarer ones cannot group anything. */
  minDf: number;
  maxFeatures: number;
  /** Adjacent stem pairs ("card arriv"): they tell "top up" from "up" and "top". */
  wordBigrams: boolean;
}

export const DEFAULT_FEATURES: FeatureOptions = { charWeight: 1, charMin: 3, charMax: 5, minDf: 2, maxFeatures: 60_000, wordBigrams: true };

/** Word stems, stem bigrams (`w:`), and character n-grams of each content word (`c:`). */
export function termsOf(text: string, options: FeatureOptions): string[] {
  const tokens = words(text);
  const out = wordTermsOf(tokens, options);
  for (const w of tokens) for (const gram of charGramsOf(w, options)) out.push(gram);
  return out;
}

export function wordTermsOf(tokens: string[], options: FeatureOptions): string[] {
  const stems = contentStems(tokens);
  const out: string[] = [];
  for (let i = 0; i < stems.length; i++) {
    out.push(`w:${stems[i]}`);
    if (options.wordBigrams && i + 1 < stems.length) out.push(`w:${stems[i]} ${stems[i + 1]}`);
  }
  return out;
}

const NO_GRAMS: string[] = [];
const gramCache = new Map<string, string[]>();

/**
 * A word's `c:` n-grams, memoized per word and n-gram range: a few thousand words make up
 * most of any corpus, and slicing their n-grams again for every occurrence was a third of
 * the featurization time (profiled at 30,000 texts).
 */
export function charGramsOf(w: string, options: FeatureOptions): string[] {
  if (w.length < 2 || /^\d+$/.test(w) || options.charMin > options.charMax) return NO_GRAMS;
  const key = `${options.charMin},${options.charMax},${w}`;
  let out = gramCache.get(key);
  if (out === undefined) {
    out = [];
    const padded = ` ${w} `;
    for (let n = options.charMin; n <= options.charMax; n++) {
      for (let i = 0; i + n <= padded.length; i++) out.push(`c:${padded.slice(i, i + n)}`);
    }
    // Bounded for a long-lived worker: 50,000 words hold a support corpus's vocabulary (estimated ≤ 50 MB of n-gram strings).
    if (gramCache.size < 50_000) gramCache.set(key, out);
  }
  return out;
}
