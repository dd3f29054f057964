import type { PhrasingContent } from 'mdast';
import { COLORS, type FontName } from './pdf-theme.ts';

/** A piece of text in one style: what one pdfkit `text()` call writes. */
export type Run = { text: string; font: FontName; color: string; link: string | null; strike: boolean };

type Style = Pick<Run, 'font' | 'color' | 'link' | 'strike'>;

const PLAIN: Style = { font: 'sans', color: COLORS.text, link: null, strike: false };

/**
 * Inline Markdown as styled runs. Bold and italic cannot combine (the export embeds four
 * faces), so the innermost wins; inline code is monospace. Links are clickable only when
 * absolute (http, https, mailto): a relative one points into the site, not the PDF.
 */
export function inlineRuns(nodes: PhrasingContent[], base: Partial<Style> = {}): Run[] {
  const out: Run[] = [];
  walk(nodes, { ...PLAIN, ...base }, out);
  return merge(out);
}

function walk(nodes: PhrasingContent[], style: Style, out: Run[]): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        // A soft line break inside a paragraph is a space.
        out.push({ ...style, text: clean(node.value.replace(/\s*\n\s*/g, ' ')) });
        break;
      case 'strong':
        walk(node.children, { ...style, font: style.font === 'mono' ? 'mono' : 'bold' }, out);
        break;
      case 'emphasis':
        walk(node.children, { ...style, font: style.font === 'mono' ? 'mono' : 'italic' }, out);
        break;
      case 'delete':
        walk(node.children, { ...style, strike: true }, out);
        break;
      case 'inlineCode':
        out.push({ ...style, font: 'mono', text: clean(node.value) });
        break;
      case 'link': {
        const link = /^(https?:|mailto:)/i.test(node.url) ? node.url : null;
        walk(node.children, { ...style, color: COLORS.link, link }, out);
        break;
      }
      case 'break':
        out.push({ ...style, text: '\n' });
        break;
      case 'image':
      case 'imageReference':
        // Images inside running text are named; images standing alone are drawn (render-blocks).
        if (node.alt) out.push({ ...style, color: COLORS.muted, text: `[${clean(node.alt)}]` });
        break;
      case 'html':
        break;
      case 'footnoteReference':
        out.push({ ...style, color: COLORS.muted, text: `[${clean(node.identifier)}]` });
        break;
      default: {
        // Constructs of extensions this walk does not name: their children or text.
        const other = node as { children?: PhrasingContent[]; value?: unknown };
        if (other.children) walk(other.children, style, out);
        else if (typeof other.value === 'string') out.push({ ...style, text: clean(other.value) });
      }
    }
  }
}

/** Plain text of inline content (table cells, alt texts). */
export function plainText(nodes: PhrasingContent[]): string {
  return inlineRuns(nodes)
    .map((r) => r.text)
    .join('');
}

/** Adjacent runs of one style become one call: fewer text objects, and words do not split between runs. */
function merge(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    if (!run.text) continue;
    const last = out.at(-1);
    if (last && last.font === run.font && last.color === run.color && last.link === run.link && last.strike === run.strike) last.text += run.text;
    else out.push({ ...run });
  }
  return out;
}

/** Control characters have no glyph; tabs become spaces. */
export function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\t/g, '    ').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}
