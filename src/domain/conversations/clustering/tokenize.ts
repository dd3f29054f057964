import { porterStem } from './porter-stemmer.ts';
import { STOP_WORDS } from './stop-words.ts';

/** Lower case, accents folded, apostrophes dropped ("can't" → "cant"), anything else a separator. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function words(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized ? normalized.split(' ') : [];
}

const stems = new Map<string, string>();

/** Stemmed content words, memoized: the same few thousand words recur across a corpus. */
export function contentStems(tokens: string[]): string[] {
  const out: string[] = [];
  for (const w of tokens) {
    if (STOP_WORDS.has(w)) continue;
    let s = stems.get(w);
    if (s === undefined) {
      s = porterStem(w);
      if (stems.size < 200_000) stems.set(w, s);
    }
    out.push(s);
  }
  return out;
}
