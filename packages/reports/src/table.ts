// A plain table: columns of fixed or shared width, rows as tall as their tallest cell, a hairline
// under each row, and the header row repeated at the top of every page the table continues on.
// pdfkit's own table (0.20) does not repeat headers and normalises styles cell by cell through
// generic merges, a third of a 100-lead delivery's render time; this draws the same with
// text() and heightOfString().

import { COLORS, FONT, FONT_BOLD, PAGE, type Doc } from './theme.js';

export interface TableCell {
  text: string;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'right';
}

export interface TableSpec {
  /** Widths in points; '*' columns share what is left equally. */
  columns: (number | '*')[];
  header?: string[];
  rows: TableCell[][];
  fontSize: number;
  /** Padding left of each cell's text (the first column's can be 0 to align with body text). */
  padLeft?: number;
}

const PAD_X = 4;
const PAD_Y = 3;

function widthsOf(doc: Doc, columns: (number | '*')[]): number[] {
  const total = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const fixed = columns.reduce<number>((sum, width) => sum + (width === '*' ? 0 : width), 0);
  const shared = columns.filter((width) => width === '*').length;
  const each = shared > 0 ? Math.max(20, (total - fixed) / shared) : 0;
  return columns.map((width) => (width === '*' ? each : width));
}

export function drawTable(doc: Doc, spec: TableSpec): void {
  const widths = widthsOf(doc, spec.columns);
  const left = PAGE.margin;
  const padLeft = spec.padLeft ?? PAD_X;
  const total = widths.reduce((sum, width) => sum + width, 0);
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const textWidth = (column: number) => widths[column]! - padLeft - PAD_X;

  const heightOf = (cells: TableCell[]) => {
    let height = 0;
    cells.forEach((cell, column) => {
      doc.font(cell.bold ? FONT_BOLD : FONT).fontSize(spec.fontSize);
      height = Math.max(height, doc.heightOfString(cell.text || ' ', { width: textWidth(column) }));
    });
    return height + 2 * PAD_Y;
  };

  const drawRow = (cells: TableCell[], y: number, height: number, background?: string) => {
    if (background) {
      doc.save();
      doc.rect(left, y, total, height).fill(background);
      doc.restore();
    }
    let x = left;
    cells.forEach((cell, column) => {
      doc.font(cell.bold ? FONT_BOLD : FONT).fontSize(spec.fontSize).fillColor(cell.color ?? COLORS.text);
      doc.text(cell.text, x + padLeft, y + PAD_Y, { width: textWidth(column), align: cell.align ?? 'left' });
      x += widths[column]!;
    });
    doc.save();
    doc.moveTo(left, y + height).lineTo(left + total, y + height).lineWidth(0.5).stroke(COLORS.faint);
    doc.restore();
  };

  const header = spec.header?.map((text): TableCell => ({ text, bold: true }));
  const headerHeight = header ? heightOf(header) : 0;
  let y = doc.y;
  const startPage = (first: boolean) => {
    if (!first) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    if (header) {
      drawRow(header, y, headerHeight, COLORS.faint);
      y += headerHeight;
    }
  };
  // The header never sits alone at the foot of a page.
  const firstHeight = spec.rows.length > 0 ? heightOf(spec.rows[0]!) : 0;
  if (y + headerHeight + firstHeight > bottom()) startPage(false);
  else startPage(true);
  for (const row of spec.rows) {
    const height = heightOf(row);
    if (y + height > bottom()) startPage(false);
    drawRow(row, y, height);
    y += height;
  }
  doc.x = left;
  doc.y = y + 4;
}
