/**
 * Placeholder tokens stand for every span a translator must not touch. `⟦3⟧` is an atom
 * (code, URL, HTML, GitBook tag…); `⟦b2⟧…⟦/b2⟧` wraps text whose markup (bold, italic,
 * link) is restored around the translated words. The brackets are rare in prose and MT
 * engines and LLMs copy them through unchanged.
 */
export type Token = {
  /** `3`, `b2` or `/b2`: the text between the brackets. */
  id: string;
  /** The source bytes the token stands for. */
  source: string;
  /** The pair this token sits inside in the source, so a translation cannot move it out. */
  parent: string | null;
};

/** Lenient about spaces an engine may add inside the brackets (`⟦ b2 ⟧`). */
export const TOKEN = /⟦\s*(\/?)\s*(b?)(\d+)\s*⟧/g;

export const atom = (n: number) => `⟦${n}⟧`;
export const open = (n: number) => `⟦b${n}⟧`;
export const close = (n: number) => `⟦/b${n}⟧`;

export function stripTokens(text: string): string {
  return text.replace(TOKEN, ' ');
}

/** Ids in order, each with the pair it appears inside, from a segment text. */
export function readTokens(text: string): Array<{ id: string; parent: string | null }> {
  const found: Array<{ id: string; parent: string | null }> = [];
  const stack: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const id = `${m[1]}${m[2]}${m[3]}`;
    found.push({ id, parent: stack.at(-1) ?? null });
    if (m[1]) stack.pop();
    else if (m[2]) stack.push(id);
  }
  return found;
}

/**
 * Why `translation` does not carry exactly the source's placeholders, or null when it does:
 * each token once, pairs properly nested, every token inside the same pair as in the source.
 */
export function placeholderError(translation: string, tokens: ReadonlyMap<string, Token>): string | null {
  const seen = new Set<string>();
  const stack: string[] = [];
  for (const m of translation.matchAll(TOKEN)) {
    const id = `${m[1]}${m[2]}${m[3]}`;
    const token = tokens.get(id);
    if (!token) return `unknown placeholder ⟦${id}⟧`;
    if (seen.has(id)) return `placeholder ⟦${id}⟧ duplicated`;
    seen.add(id);
    if (m[1]) {
      if (stack.pop() !== id.slice(1)) return `placeholder ⟦${id}⟧ closes out of order`;
    } else {
      if ((stack.at(-1) ?? null) !== token.parent) return `placeholder ⟦${id}⟧ moved ${token.parent ? `out of ⟦${token.parent}⟧` : 'into another pair'}`;
      if (m[2]) stack.push(id);
    }
  }
  for (const id of tokens.keys()) if (!seen.has(id)) return `placeholder ⟦${id}⟧ missing`;
  if (/[⟦⟧]/.test(translation.replace(TOKEN, ''))) return 'stray placeholder bracket';
  return null;
}

/** The translation with every token replaced by its source bytes (validated beforehand). */
export function restoreTokens(translation: string, tokens: ReadonlyMap<string, Token>): string {
  return translation.replace(TOKEN, (_m, slash: string, b: string, n: string) => tokens.get(`${slash}${b}${n}`)!.source);
}
