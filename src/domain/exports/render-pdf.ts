import { parseMarkdown } from '../content/markdown/parse.ts';
import { unfoldGitbookTags } from './gitbook-tags.ts';
import { clean } from './inline-runs.ts';
import { COLORS, GAP, SIZES } from './pdf-theme.ts';
import { PdfWriter } from './pdf-writer.ts';
import { renderBlocks } from './render-blocks.ts';
import type { ImageBytes, ImageSource } from './render-image.ts';

/** One page of the content, in reading order, with what it needs to be drawn. */
export type ExportPage = {
  kind: 'document' | 'group' | 'link';
  title: string;
  description: string | null;
  /** 0 for a top-level page: nests the PDF's outline (bookmarks). */
  depth: number;
  markdown: string | null;
  linkTarget: string | null;
  /** The images its Markdown names, by URL, already read from the blob store. */
  images: Map<string, ImageBytes | null>;
};

export class ExportTooLargeError extends Error {}

type PdfOutline = InstanceType<typeof PdfWriter>['doc']['outline'];

/**
 * Renders pages to a PDF: each page starts on a new sheet under its title (a group's title
 * heads its first page), with an outline entry per page. Pages are drawn as they arrive, so
 * only one page's Markdown and images are in memory besides the output; the output itself
 * is bounded by `maxBytes` (ExportTooLargeError past it).
 */
export async function renderPdf(pages: AsyncIterable<ExportPage>, info: { title: string; created: Date; maxBytes: number }): Promise<{ bytes: Buffer; pages: number }> {
  const w = new PdfWriter(info);
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  w.doc.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > info.maxBytes) tooLarge = true;
    else chunks.push(chunk);
  });
  const ended = new Promise<void>((resolve, reject) => {
    w.doc.on('end', resolve);
    w.doc.on('error', reject);
  });

  const outline: PdfOutline[] = [w.doc.outline];
  const opened: ImageSource['opened'] = new Map();
  let headedByGroup = false;
  let count = 0;
  for await (const page of pages) {
    if (tooLarge) break;
    if (!headedByGroup) w.newPage();
    outline.length = Math.min(outline.length, page.depth + 1);
    const parent = outline[outline.length - 1]!;
    outline.push(parent.addItem(clean(page.title) || 'Untitled'));
    drawTitle(w, page);
    headedByGroup = page.kind === 'group';
    if (page.kind === 'document' && page.markdown) {
      const images = { lookup: (url: string) => page.images.get(url) ?? null, opened };
      renderBlocks(w, parseMarkdown(unfoldGitbookTags(page.markdown)).children, { images, depth: 0, tight: false });
    }
    count++;
    // Drawing is synchronous: give the event loop a turn per page (job lock renewal, and the
    // API when one process runs everything).
    await new Promise((resolve) => setImmediate(resolve));
  }
  w.doc.end();
  await ended;
  if (tooLarge) throw new ExportTooLargeError(`The PDF would be larger than ${Math.round(info.maxBytes / 1024 / 1024)} MB`);
  return { bytes: Buffer.concat(chunks), pages: count };
}

function drawTitle(w: PdfWriter, page: ExportPage): void {
  const size = page.kind === 'group' ? SIZES.title - 4 : SIZES.title;
  const color = page.kind === 'group' ? COLORS.muted : COLORS.text;
  w.write([{ text: clean(page.title) || 'Untitled', font: 'bold', color, link: null, strike: false }], { size });
  if (page.description) {
    w.gap(2);
    w.write([{ text: clean(page.description), font: 'italic', color: COLORS.muted, link: null, strike: false }], { size: SIZES.description });
  }
  if (page.kind === 'link' && page.linkTarget) {
    w.gap(2);
    const external = /^(https?:|mailto:)/i.test(page.linkTarget) ? page.linkTarget : null;
    w.write([{ text: `→ ${clean(page.linkTarget)}`, font: 'sans', color: COLORS.link, link: external, strike: false }], { size: SIZES.body });
  }
  w.gap(GAP * 1.5);
}
