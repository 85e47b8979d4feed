import type { DeliveryReport } from './model.js';
import { formatDate, formatValue, NONE } from './format.js';
import { ensureSpace, sectionTitle } from './sections.js';
import { writeSitePages } from './site-report.js';
import { drawTable } from './table.js';
import { COLORS, contentWidth, createDocument, FONT, FONT_BOLD, PAGE, toBuffer, VERDICT_COLORS, writeFooters, type Doc } from './theme.js';

function writeCover(doc: Doc, delivery: DeliveryReport): void {
  const width = contentWidth(doc);
  doc.font(FONT).fontSize(8.5).fillColor(COLORS.muted).text('LEAD DELIVERY', PAGE.margin, PAGE.margin, { characterSpacing: 0.8 });
  doc.font(FONT_BOLD).fontSize(22).fillColor(COLORS.heading).text(delivery.title, { width });
  doc.font(FONT).fontSize(10).fillColor(COLORS.text);
  const summary = [`${delivery.leads.length} lead${delivery.leads.length === 1 ? '' : 's'}`, `delivered ${formatDate(delivery.createdAt)}`, `reference ${delivery.reference}`];
  doc.text(summary.join(' · '), { width });
  if (delivery.note) doc.moveDown(0.3).fillColor(COLORS.muted).text(delivery.note, { width });

  sectionTitle(doc, delivery.buyBox ? `Buy box “${delivery.buyBox.name}”` : 'Buy box');
  if (delivery.buyBox) {
    const box = delivery.buyBox;
    const meta = [box.market && `market ${box.market}`, box.cutoffs && `PURSUE at ${box.cutoffs.pursue}+, MONITOR at ${box.cutoffs.monitor}+`].filter(Boolean);
    if (meta.length > 0) doc.text(`${meta.join(' · ')}.`, PAGE.margin, doc.y, { width });
    doc.moveDown(0.3);
    for (const rule of box.rules) {
      ensureSpace(doc, 14);
      doc.font(FONT).fontSize(9.5).fillColor(COLORS.text).text(`•  ${rule}`, PAGE.margin + 6, doc.y, { width: width - 6 });
    }
    if (box.rules.length === 0) doc.fillColor(COLORS.muted).text('The buy box has no rules.');
  } else {
    doc.fillColor(COLORS.muted).text('The buy box of this delivery is no longer on record.');
  }

  sectionTitle(doc, 'Leads');
  if (delivery.leads.length === 0) {
    doc.font(FONT).fontSize(9.5).fillColor(COLORS.muted).text('This delivery has no leads.');
    return;
  }
  const fact = (lead: DeliveryReport['leads'][number], label: string) => lead.facts.find((f) => f.label === label)?.value ?? NONE;
  drawTable(doc, {
    columns: [28, 100, '*', 56, 64, 44],
    header: ['#', 'APN', 'Address', 'Acres', 'Verdict', 'Score'],
    rows: delivery.leads.map((lead, index) => [
      { text: String(index + 1) },
      { text: fact(lead, 'APN') },
      { text: fact(lead, 'Address') },
      { text: fact(lead, 'Acres'), align: 'right' as const },
      { text: lead.screen?.verdict ?? NONE, color: VERDICT_COLORS[lead.screen?.verdict ?? ''] ?? COLORS.text, bold: true },
      { text: lead.screen?.score === null || lead.screen?.score === undefined ? NONE : formatValue(lead.screen.score), align: 'right' as const },
    ]),
    fontSize: 8.5,
  });
}

/** A delivery (D30) as PDF bytes: a cover with the buy box and a summary table, then a page per lead. */
export async function renderDeliveryReport(delivery: DeliveryReport): Promise<Buffer> {
  const doc = createDocument({ title: `Lead delivery ${delivery.reference}`, subject: delivery.title });
  writeCover(doc, delivery);
  for (const [index, lead] of delivery.leads.entries()) {
    // pdfkit lays pages out synchronously: between leads the event loop serves other requests, so
    // a long delivery holds the process for one page (~10-20 ms) at a time, not seconds.
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    doc.addPage();
    writeSitePages(doc, lead, { compact: true, kicker: `Lead ${index + 1} of ${delivery.leads.length}` });
  }
  writeFooters(doc, `Lead delivery · ${delivery.reference} · generated ${formatDate(delivery.generatedAt)}`);
  return toBuffer(doc);
}
