import PDFDocument from 'pdfkit';
import { drawRightToLeft } from './bidi.js';
import { fitText } from './fit-text.js';
import { fallbackFont, fallbackFor, reportFonts } from './fonts.js';

export type Doc = PDFKit.PDFDocument;

export const FONT = 'DejaVuSans';
export const FONT_BOLD = 'DejaVuSans-Bold';

export const COLORS = {
  text: '#1f2933',
  muted: '#616e7c',
  rule: '#9aa5b1',
  faint: '#e4e7eb',
  heading: '#102a43',
  mapBackground: '#f5f7f2',
  parcelFill: '#7cb36b',
  parcelStroke: '#2f6b1f',
  substation: '#c2410c',
  transmission: '#6d28d9',
  county: '#b8c0c8',
  state: '#52606d',
  locatorCounty: '#f0b429',
  pass: '#1e7a34',
  fail: '#b42318',
  unknown: '#8a6d00',
} as const;

export const VERDICT_COLORS: Record<string, string> = {
  PURSUE: '#1e7a34',
  MONITOR: '#b7791f',
  HOLD: '#6b7280',
};

/** US Letter, the paper a US land team prints on; half-inch-and-a-bit margins. */
export const PAGE = { size: 'LETTER' as const, margin: 48, footer: 28 };

/**
 * A document with the embedded fonts registered. Pages are buffered so that the footer
 * ("page n of m") can be written once the page count is known.
 */
export function createDocument(info: { title: string; subject: string }): Doc {
  const fonts = reportFonts();
  const doc = new PDFDocument({
    size: PAGE.size,
    margins: { top: PAGE.margin, left: PAGE.margin, right: PAGE.margin, bottom: PAGE.margin + PAGE.footer },
    bufferPages: true,
    autoFirstPage: false,
    // No default font: pdfkit would load Helvetica's metrics for nothing.
    font: null as unknown as string,
    info: { Title: info.title, Subject: info.subject, Creator: 'landscreen', Producer: 'landscreen (pdfkit)' },
  });
  // pdfkit 0.20 takes a parsed fontkit font (anything with layout()): parsed once per process.
  // The family argument equal to the name makes pdfkit's font cache hit when pdfkit restores
  // "the previous font" by its source object (its table() did so for every cell, re-opening the
  // font and comparing name tables: half the render time while we used it).
  doc.registerFont(FONT, fonts.regular as unknown as Buffer, FONT);
  doc.registerFont(FONT_BOLD, fonts.bold as unknown as Buffer, FONT_BOLD);
  shareLayoutCaches(doc);
  fitEveryText(doc);
  drawRightToLeft(doc);
  doc.font(FONT).fontSize(10);
  doc.addPage();
  doc.fillColor(COLORS.text);
  return doc;
}

/**
 * Every text the document prints or measures is cut to MAX_TEXT_LENGTH first (fit-text.ts), in
 * the one place all drawing code passes through, so a table measures exactly what it then draws.
 */
function fitEveryText(doc: Doc): void {
  const fit = (value: unknown) => (typeof value === 'string' ? fitText(value) : value);
  const text = doc.text.bind(doc) as (...args: unknown[]) => Doc;
  const heightOfString = doc.heightOfString.bind(doc) as (...args: unknown[]) => number;
  const widthOfString = doc.widthOfString.bind(doc) as (...args: unknown[]) => number;
  const font = doc.font.bind(doc) as (...args: unknown[]) => Doc;
  let current = FONT;
  // The fallbacks for scripts DejaVu lacks (fonts.ts), each registered when a text first needs it.
  const registered = new Set<string>();
  // Set while a text is drawn in the fallback: pdfkit measures its words through widthOfString
  // meanwhile, which must neither switch fonts again nor restore the document's font.
  let inside = false;
  (doc as { font: unknown }).font = (name: unknown, ...rest: unknown[]) => {
    if (typeof name === 'string') current = name;
    return font(name, ...rest);
  };
  // A text with characters DejaVu lacks is set (and measured) as a whole in the fallback that has
  // them, then the document's font is restored: a run of one font per text keeps pdfkit's wrapping.
  const inFallback = <T>(value: unknown, work: () => T): T => {
    const fallback = inside || typeof value !== 'string' ? undefined : fallbackFor(value);
    if (!fallback) return work();
    const restore = current;
    const name = restore === FONT_BOLD ? `${fallback.name}-Bold` : fallback.name;
    if (!registered.has(name)) {
      doc.registerFont(name, fallbackFont(fallback, restore === FONT_BOLD ? 'bold' : 'regular') as unknown as Buffer, name);
      registered.add(name);
    }
    font(name);
    inside = true;
    try {
      return work();
    } finally {
      inside = false;
      font(restore);
    }
  };
  (doc as { text: unknown }).text = (value: unknown, ...rest: unknown[]) => inFallback(value, () => text(fit(value), ...rest));
  (doc as { heightOfString: unknown }).heightOfString = (value: unknown, ...rest: unknown[]) => inFallback(value, () => heightOfString(fit(value), ...rest));
  (doc as { widthOfString: unknown }).widthOfString = (value: unknown, ...rest: unknown[]) => inFallback(value, () => widthOfString(value, ...rest));
}

/**
 * pdfkit caches the shaped layout of each word per document; shaping (fontkit's OpenType
 * lookups) was the largest cost of a report after compression. The cache holds only immutable
 * glyph runs of a font pdfkit 0.20 never writes to, so one cache per font serves every document
 * of the process. Bounded: replaced when it grows past LAYOUT_CACHE_WORDS words.
 */
const LAYOUT_CACHE_WORDS = 50_000;
const layoutCaches = new Map<string, { words: Record<string, unknown>; checkedAt: number }>();

function shareLayoutCaches(doc: Doc): void {
  for (const name of [FONT_BOLD, FONT]) {
    doc.font(name);
    const font = (doc as unknown as { _font: { layoutCache?: Record<string, unknown> } })._font;
    let shared = layoutCaches.get(name);
    if (!shared || ++shared.checkedAt % 64 === 0) {
      if (!shared || Object.keys(shared.words).length > LAYOUT_CACHE_WORDS) shared = { words: Object.create(null), checkedAt: 0 };
      layoutCaches.set(name, shared);
    }
    if (font.layoutCache) font.layoutCache = shared.words;
  }
}

/** Writes "left · … · page n of m" at the foot of every buffered page. */
export function writeFooters(doc: Doc, left: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing inside the bottom margin must not start a new page
    const y = doc.page.height - PAGE.margin - 10;
    const width = doc.page.width - 2 * PAGE.margin;
    doc.save();
    doc.moveTo(PAGE.margin, y - 6).lineTo(PAGE.margin + width, y - 6).lineWidth(0.5).stroke(COLORS.faint);
    doc.restore();
    doc.font(FONT).fontSize(8).fillColor(COLORS.muted);
    doc.text(left, PAGE.margin, y, { width: width - 90, lineBreak: false, ellipsis: true });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, PAGE.margin + width - 90, y, { width: 90, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

/** The finished document's bytes. */
export function toBuffer(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

export function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}
