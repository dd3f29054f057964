import { createRequire } from 'node:module';
import type PDFDocument from 'pdfkit';

type Doc = InstanceType<typeof PDFDocument>;

/** The four faces the export uses, from `dejavu-fonts-ttf` (wide Unicode coverage, embedded as subsets). */
export const FONTS = { sans: 'DejaVuSans', bold: 'DejaVuSans-Bold', italic: 'DejaVuSans-Oblique', mono: 'DejaVuSansMono' } as const;
export type FontName = keyof typeof FONTS;

// Resolved through the package, not the working directory: the worker may start anywhere.
const require = createRequire(import.meta.url);
const FONT_FILES = Object.fromEntries(Object.entries(FONTS).map(([name, file]) => [name, require.resolve(`dejavu-fonts-ttf/ttf/${file}.ttf`)])) as Record<FontName, string>;

export function registerFonts(doc: Doc): void {
  for (const [name, file] of Object.entries(FONT_FILES)) doc.registerFont(name, file);
}

export const PAGE = { size: 'A4' as const, margin: 56 };

export const SIZES = {
  title: 22,
  description: 11,
  body: 10.5,
  code: 8.5,
  table: 9,
  headings: [18, 15, 13, 11.5, 10.5, 10.5] as const,
};

export const COLORS = {
  text: '#1f2328',
  muted: '#59636e',
  link: '#0969da',
  codeBackground: '#f3f4f6',
  rule: '#d1d9e0',
  tableHeader: '#f6f8fa',
  quote: '#d1d9e0',
  hints: { info: '#0969da', success: '#1a7f37', warning: '#9a6700', danger: '#cf222e' } as Record<string, string>,
};

/** Vertical space after a block, in points. */
export const GAP = 7;
