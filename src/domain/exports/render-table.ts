import type { Table } from 'mdast';
import { plainText } from './inline-runs.ts';
import { COLORS, SIZES } from './pdf-theme.ts';
import type { PdfWriter } from './pdf-writer.ts';

const PAD = 4;

/**
 * A table as a grid of equal columns. A row never splits: one that does not fit goes to the
 * next page, with the header row drawn again above it; a row taller than a page is cut to
 * the page (its text ends with an ellipsis).
 */
export function renderTable(w: PdfWriter, table: Table): void {
  const rows = table.children.map((row) => row.children.map((cell) => plainText(cell.children)));
  const columns = Math.max(0, ...rows.map((r) => r.length));
  if (columns === 0) return;
  const doc = w.doc;
  const width = w.frame.width / columns;
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
