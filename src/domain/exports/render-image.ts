import { COLORS, GAP, SIZES } from './pdf-theme.ts';
import type { PdfWriter } from './pdf-writer.ts';

/** What pdfkit's `openImage` returns (absent from its typings): the parsed image, embedded on first use. */
type PdfImage = { width: number; height: number };
type OpensImages = { openImage(bytes: Buffer): PdfImage };

/** An image's bytes by the URL a page names it with; null when it is not a file of the revision. */
export type ImageBytes = { key: string; bytes: Buffer };
export type ImageSource = { lookup(url: string): ImageBytes | null; opened: Map<string, PdfImage | null> };

/**
 * Draws an image of the revision scaled to the frame (and to at most 60 % of a page's
 * height). pdfkit embeds PNG and JPEG; anything else (SVG, GIF, WebP, a broken file, a URL
 * outside the revision — never fetched) is named in the text instead. Each file is
 * embedded once however often pages show it.
 */
export function renderImage(w: PdfWriter, images: ImageSource, url: string, alt: string): void {
  const image = open(w, images, url);
  if (!image) {
    w.write([{ text: `[Image: ${alt || url}]`, font: 'italic', color: COLORS.muted, link: null, strike: false }], { size: SIZES.body });
    w.gap();
    return;
  }
  const maxHeight = (w.bottom - w.top) * 0.6;
  const scale = Math.min(1, w.frame.width / image.width, maxHeight / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  w.ensureSpace(height);
  const y = w.doc.y;
  // The typings take bytes or a path; an opened image is what pdfkit reuses without re-embedding.
  w.doc.image(image as unknown as Buffer, w.frame.x, y, { width, height });
  w.doc.y = y + height;
  w.doc.x = w.frame.x;
  if (alt) w.write([{ text: alt, font: 'italic', color: COLORS.muted, link: null, strike: false }], { size: SIZES.table });
  w.gap(GAP);
}

function open(w: PdfWriter, images: ImageSource, url: string): PdfImage | null {
  const found = images.lookup(url);
  if (!found) return null;
  if (images.opened.has(found.key)) return images.opened.get(found.key)!;
  let image: PdfImage | null = null;
  try {
    image = (w.doc as unknown as OpensImages).openImage(found.bytes);
    if (!(image.width > 0 && image.height > 0)) image = null;
  } catch {
    // Not an image pdfkit can read (or a corrupt one): named instead, the export goes on.
    image = null;
  }
  images.opened.set(found.key, image);
  return image;
}
