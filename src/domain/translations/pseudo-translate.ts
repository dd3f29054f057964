/**
 * Pseudo-localization, the offline provider's engine: deterministic, visibly "translated"
 * (accented letters, `[` `]` around the text) and ~30 % longer, the way real translations
 * grow, so layouts and the rebuild are exercised without a translation service.
 * Placeholder tokens pass through untouched.
 */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, [...'áƀćďéƒĝĥíĵķĺḿńóṕʠŕšťúṽŵẋýžÁƁĆĎÉƑĜĤÍĴĶĹḾŃÓṔɊŔŠŤÚṼŴẊÝŽ'][i]!]),
);
const TOKEN = /(⟦[^⟧]*⟧)/;
const VOWEL = /[aeiouyAEIOUY]/;

export function pseudoTranslate(text: string): string {
  const [, lead = '', body = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text) ?? [];
  if (!body) return text;
  const translated = body
    .split(TOKEN)
    .map((part, i) => (i % 2 ? part : [...part].map((c) => (ACCENTED[c] ?? c).repeat(VOWEL.test(c) ? 2 : 1)).join('')))
    .join('');
  return `${lead}[${translated}]${trail}`;
}
