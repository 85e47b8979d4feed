import type { SiteReport } from './model.js';
import { formatDate } from './format.js';
import { drawParcelMap } from './map.js';
import { contactsSection, diligenceSection, evidenceTable, factSheetSection, factsTable, screenSummary, sectionTitle, verdictBadge } from './sections.js';
import { COLORS, contentWidth, createDocument, FONT, FONT_BOLD, PAGE, toBuffer, writeFooters, type Doc } from './theme.js';

export interface SitePagesOptions {
  /** The delivery's page per lead: a smaller map, no diligence, contacts or vintage sections. */
  compact?: boolean;
  /** The small line above the reference, e.g. "Site report" or "Lead 3 of 100". */
  kicker?: string;
}

/** Writes one property from the current page on: header, map, facts, screening and the rest. */
export function writeSitePages(doc: Doc, report: SiteReport, options: SitePagesOptions = {}): void {
  const width = contentWidth(doc);
  const top = PAGE.margin;
  const headingWidth = width - 145;
  doc.font(FONT).fontSize(8.5).fillColor(COLORS.muted).text((options.kicker ?? 'Site report').toUpperCase(), PAGE.margin, top, { width: headingWidth, characterSpacing: 0.8 });
  doc.font(FONT_BOLD).fontSize(19).fillColor(COLORS.heading).text(report.title, { width: headingWidth });
  const subtitle = report.facts.find((fact) => fact.label === 'Address')?.value;
  if (subtitle && subtitle !== report.title) doc.font(FONT).fontSize(10.5).fillColor(COLORS.text).text(subtitle, { width: headingWidth });
  const headingBottom = doc.y;
  const badge = verdictBadge(doc, report.screen, top + 4);
  doc.y = Math.max(headingBottom, top + 4 + badge) + 12;

  const mapHeight = options.compact ? 230 : 300;
  const mapTop = doc.y;
  drawParcelMap(doc, report.map, { x: PAGE.margin, y: mapTop, w: width, h: mapHeight });
  doc.y = mapTop + mapHeight + 16; // below the map's one-line legend
  doc.x = PAGE.margin;

  sectionTitle(doc, 'Key facts');
  factsTable(doc, report.facts);

  sectionTitle(doc, report.screen ? `Screening against “${report.screen.buyBox}”` : 'Screening');
  if (report.screen) {
    screenSummary(doc, report.screen);
    if (report.screen.evidenceNote) doc.font(FONT).fontSize(9.5).fillColor(COLORS.muted).text(report.screen.evidenceNote, PAGE.margin, doc.y, { width });
    else evidenceTable(doc, report.screen.evidence);
  } else {
    doc.font(FONT).fontSize(9.5).fillColor(COLORS.muted).text('This property has not been screened against a buy box.');
  }
  if (options.compact) return;

  sectionTitle(doc, 'Fact sheet');
  factSheetSection(doc, report.factSheet);

  sectionTitle(doc, 'Diligence');
  diligenceSection(doc, report.diligence);

  sectionTitle(doc, 'Contacts');
  contactsSection(doc, report.contacts);

  sectionTitle(doc, 'Data vintage');
  factsTable(doc, report.vintage);
  doc.moveDown(0.6);
  doc.font(FONT).fontSize(7.5).fillColor(COLORS.muted).text(
    'Figures are those stored when the parcel was screened; the map is drawn from the parcel geometry of that vintage. ' +
      'Distances to grid features are straight-line distances from the parcel point. This report is for screening and is not a survey.',
    PAGE.margin,
    doc.y,
    { width },
  );
}

/** The site report of one property (D30) as PDF bytes. */
export async function renderSiteReport(report: SiteReport): Promise<Buffer> {
  const doc = createDocument({ title: `Site report ${report.reference}`, subject: report.title });
  writeSitePages(doc, report);
  writeFooters(doc, `Site report · ${report.reference} · generated ${formatDate(report.generatedAt)}`);
  return toBuffer(doc);
}
