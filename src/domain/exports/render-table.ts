import type { Table } from 'mdast';
import { plainText } from './inline-runs.ts';
import { COLORS, SIZES } from './pdf-theme.ts';
import type { PdfWriter } from './pdf-writer.ts';

const PAD = 4;
/** Narrower columns than this cannot hold a word: such a table is written row by row instead. */
const MIN_COLUMN_WIDTH = 40;

/**
 * A table as a grid of equal columns. A row never splits: one that does not fit goes to the
 * next page, with the header row drawn again above it; a row taller than a page is cut to
 * the page (its text ends with an ellipsis). A table with too many columns for the page is
 * written as one line per row, its cells separated by `|`.
 */
export function renderTable(w: PdfWriter, table: Table): void {
  const rows = table.children.map((row) => row.children.map((cell) => plainText(cell.children)));
  const columns = Math.max(0, ...rows.map((r) => r.length));
  if (columns === 0) return;
  const doc = w.doc;
  const width = w.frame.width / columns;
  if (width < MIN_COLUMN_WIDTH) return writeRows(w, rows);
  const align = (i: number) => table.align?.[i] ?? 'left';
  doc.fontSize(SIZES.table);

  const heightOf = (cells: string[], header: boolean) => {
    doc.font(header ? 'bold' : 'sans');
    const text = Math.max(...cells.map((t) => doc.heightOfString(t || ' ', { width: width - 2 * PAD })));
    return Math.min(text + 2 * PAD, w.bottom - w.top - 40);
  };

  const drawRow = (cells: string[], header: boolean) => {
    const height = heightOf(cells, header);
    if (doc.y + height > w.bottom) {
      w.newPage();
      if (!header) drawRow(rows[0]!, true);
    }
    const y = doc.y;
    for (let i = 0; i < columns; i++) {
      const x = w.frame.x + i * width;
      if (header) doc.save().rect(x, y, width, height).fill(COLORS.tableHeader).restore();
      doc.save().rect(x, y, width, height).lineWidth(0.5).strokeColor(COLORS.rule).stroke().restore();
      const text = cells[i] ?? '';
      if (!text) continue;
      doc.font(header ? 'bold' : 'sans').fontSize(SIZES.table).fillColor(COLORS.text);
      doc.text(text, x + PAD, y + PAD, { width: width - 2 * PAD, height: height - 2 * PAD, ellipsis: true, align: align(i) });
    }
    doc.y = y + height;
    doc.x = w.frame.x;
  };

  rows.forEach((cells, i) => drawRow(cells, i === 0));
}

function writeRows(w: PdfWriter, rows: string[][]): void {
  rows.forEach((cells, i) => {
    w.write([{ text: cells.join(' | '), font: i === 0 ? 'bold' : 'sans', color: COLORS.text, link: null, strike: false }], { size: SIZES.table });
    w.gap(2);
  });
}
