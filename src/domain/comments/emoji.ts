/** One emoji as Unicode recommends it for general interchange (a property of strings: the `v` flag). */
const RGI_EMOJI = /^\p{RGI_Emoji}$/v;
const HEX_CODE_POINTS = /^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6})*$/i;
const VS16 = '\ufe0f';

/**
 * The one spelling of an emoji that reactions are keyed on: the emoji itself in its fully
 * qualified form. GitBook clients send either the character sequence or its code points in
 * hex (`1f389`, `1f468-200d-1f469`), with or without the U+FE0F presentation selector; all
 * spellings of one emoji must be one reaction. Anything that is not exactly one emoji
 * (text, a lone selector, a surrogate, an unassigned code point) is null.
 */
export function canonicalEmoji(input: string): string | null {
  const chars = HEX_CODE_POINTS.test(input) ? fromHex(input) : input;
  if (chars === null) return null;
  const bare = [...chars].filter((c) => c !== VS16);
  if (bare.length === 0) return null;
  // Fully qualified forms put U+FE0F after a text-default base (❤️, ☺️); try the spelling
  // given, then the bare one, then the base with its selector.
  const candidates = [chars, bare.join(''), bare[0] + VS16 + bare.slice(1).join('')];
  return candidates.find((c) => RGI_EMOJI.test(c)) ?? null;
}

function fromHex(input: string): string | null {
  const points = input.split('-').map((h) => parseInt(h, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return null;
  return String.fromCodePoint(...points);
}
