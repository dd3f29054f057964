import PDFDocument from 'pdfkit';
import type { Run } from './inline-runs.ts';
import { COLORS, GAP, PAGE, registerFonts } from './pdf-theme.ts';

export type Doc = InstanceType<typeof PDFDocument>;
/** Where blocks are laid: a left edge and a width (lists and quotes indent it). */
export type Frame = { x: number; width: number };

/**
 * The PDF being written, with the state block renderers share: the current frame, and bars
 * to draw beside quotes once their extent is known.
 */
export class PdfWriter {
  readonly doc: Doc;
  frame: Frame;
  private openBars = 0;

  constructor(info: { title: string; created: Date }) {
    this.doc = new PDFDocument({
      size: PAGE.size,
      margin: PAGE.margin,
      autoFirstPage: false,
      bufferPages: true,
      // A fixed creation date (the revision's) makes the same content give the same bytes.
      info: { Title: info.title, Producer: 'Vellum', Creator: 'Vellum', CreationDate: info.created },
      displayTitle: true,
    });
    registerFonts(this.doc);
    this.doc.addPage();
    this.frame = { x: PAGE.margin, width: this.doc.page.width - 2 * PAGE.margin };
  }

  get top(): number {
    return this.doc.page.margins.top;
  }

  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** True when nothing has been written on the current page yet. */
  get pageIsEmpty(): boolean {
    return this.doc.y <= this.top + 0.5;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensureSpace(height: number): void {
    if (this.doc.y + height > this.bottom && !this.pageIsEmpty) this.doc.addPage();
  }

  /**
   * Starts a new page unless this one is still empty. Pages before it are finished unless a
   * quote spanning them still needs its bar: they go to the output, and memory stays flat.
   */
  newPage(): void {
    if (this.pageIsEmpty) return;
    if (this.openBars === 0) this.doc.flushPages();
    this.doc.addPage();
  }

  gap(points = GAP): void {
    if (!this.pageIsEmpty) this.doc.y = Math.min(this.doc.y + points, this.bottom);
  }

  /** Runs `draw` with the frame indented by `by` points. */
  indented<T>(by: number, draw: () => T): T {
    const saved = this.frame;
    this.frame = { x: saved.x + by, width: Math.max(saved.width - by, 40) };
    try {
      return draw();
    } finally {
      this.frame = saved;
    }
  }

  /** Writes styled runs as one paragraph flowing over pages, in the current frame. */
  write(runs: Run[], opts: { size: number; lineGap?: number }): void {
    const visible = runs.filter((r) => r.text.length > 0);
    if (visible.length === 0) return;
    const doc = this.doc;
    doc.fontSize(opts.size);
    this.ensureSpace(doc.currentLineHeight(true));
    visible.forEach((run, i) => {
      doc.font(run.font).fillColor(run.color);
      const style = { continued: i < visible.length - 1, link: run.link, underline: run.link !== null, strike: run.strike, lineGap: opts.lineGap ?? 2 };
      if (i === 0) doc.text(run.text, this.frame.x, doc.y, { ...style, width: this.frame.width });
      else doc.text(run.text, style);
    });
    doc.fillColor(COLORS.text);
    // pdfkit leaves x where the paragraph started; the frame decides the next one.
    doc.x = this.frame.x;
  }

  /**
   * Draws a vertical bar beside what `draw` writes (quotes and hints), on every page it
   * spans: the extent is known only afterwards, so those pages stay buffered until then
   * (pdfkit's `bufferPages`).
   */
  withBar(color: string, draw: () => void): void {
    const doc = this.doc;
    const startPage = this.pageIndex();
    const startY = doc.y;
    const x = this.frame.x;
    this.openBars++;
    try {
      draw();
    } finally {
      this.openBars--;
    }
    const endPage = this.pageIndex();
    const endY = doc.y;
    for (let page = startPage; page <= endPage; page++) {
      doc.switchToPage(page);
      const from = page === startPage ? startY : this.top;
      const to = page === endPage ? endY : this.bottom;
      if (to > from) doc.save().rect(x, from, 3, to - from).fill(color).restore();
    }
    doc.switchToPage(endPage);
    doc.y = endY;
    doc.x = this.frame.x;
  }

  private pageIndex(): number {
    const range = this.doc.bufferedPageRange();
    return range.start + range.count - 1;
  }
}
