import { TOKEN } from '../placeholders.ts';

/**
 * Placeholder tokens (`⟦3⟧`, `⟦b2⟧…⟦/b2⟧`) as markup that a machine translation engine
 * handles natively, and back. Engines in HTML/XML mode keep tags but may mangle unfamiliar
 * bracket characters, and they need the text around them escaped.
 */

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Engines answer with named, decimal or hex character references for what was escaped (and sometimes more). */
function unescape(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return named[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * LibreTranslate (format `html`): each token inside `<code>`, which its HTML translation
 * (translatehtml) never translates, so the token comes back as sent.
 */
export function toHtml(segment: string): string {
  return escape(segment).replace(TOKEN, (_m, slash: string, b: string, n: string) => `<code translate="no">⟦${slash}${b}${n}⟧</code>`);
}

export function fromHtml(html: string): string {
  const tokens = html.replace(/<code\b[^>]*>\s*(⟦[^⟧<]*⟧)\s*<\/code>/g, '$1');
  // Anything else the engine wrapped around the text is not ours to keep.
  return unescape(tokens.replace(/<\/?[a-z][^>]*>/gi, ''));
}

/**
 * DeepL (`tag_handling: xml`): an atom is an empty `<x id="3"/>` (listed in ignore_tags);
 * a pair is an element `<m id="2">…</m>` around its words, so DeepL moves it with them.
 */
export function toXml(segment: string): string {
  return escape(segment).replace(TOKEN, (_m, slash: string, b: string, n: string) => {
    if (!b) return `<x id="${n}"/>`;
    return slash ? '</m>' : `<m id="${n}">`;
  });
}

/** Ends of `<m>` are matched to their starts by nesting, as an XML parser would. */
export function fromXml(xml: string): string {
  const open: string[] = [];
  const tokens = xml.replace(/<(\/?)([xm])\b([^>]*?)(\/?)>/g, (whole, end: string, name: string, attrs: string, empty: string) => {
    const id = /\bid\s*=\s*["'](\d+)["']/.exec(attrs)?.[1];
    if (name === 'x') return end ? '' : id ? `⟦${id}⟧` : whole;
    if (end) {
      const n = open.pop();
      return n ? `⟦/b${n}⟧` : '';
    }
    if (!id) return whole;
    if (empty) return `⟦b${id}⟧⟦/b${id}⟧`;
    open.push(id);
    return `⟦b${id}⟧`;
  });
  return unescape(tokens);
}
