// The building blocks both reports are made of: a heading, a verdict badge, label/value facts,
// the evidence table, diligence, contacts. Each writes at the document's cursor and leaves it
// below what it wrote.

import type { Contact, Diligence, Fact, FactGroup, RuleEvidence, Screen } from './model.js';
import { fieldLabel, formatExpected, formatFact } from './field-labels.js';
import { formatOp, formatValue, humanize, NONE } from './format.js';
import { drawTable, type TableCell } from './table.js';
import { COLORS, contentWidth, FONT, FONT_BOLD, PAGE, VERDICT_COLORS, type Doc } from './theme.js';

/** Starts a new page when fewer than `height` points are left above the footer. */
export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

export function sectionTitle(doc: Doc, title: string): void {
  ensureSpace(doc, 60);
  doc.moveDown(0.8);
  doc.x = PAGE.margin;
  doc.font(FONT_BOLD).fontSize(12.5).fillColor(COLORS.heading).text(title);
  const y = doc.y + 2;
  doc.save();
  doc.moveTo(PAGE.margin, y).lineTo(PAGE.margin + contentWidth(doc), y).lineWidth(0.7).stroke(COLORS.rule);
  doc.restore();
  doc.y = y + 6;
  doc.font(FONT).fontSize(9.5).fillColor(COLORS.text);
}

/** A coloured verdict with the score, right-aligned at `y`. Answers the badge's height. */
export function verdictBadge(doc: Doc, screen: Screen | null, y: number): number {
  const verdict = screen?.verdict ?? 'NOT SCREENED';
  const score = screen?.score === null || screen?.score === undefined ? '' : `score ${formatValue(screen.score)}`;
  const width = 130;
  const x = PAGE.margin + contentWidth(doc) - width;
  doc.save();
  doc.roundedRect(x, y, width, 42, 4).fill(VERDICT_COLORS[verdict] ?? COLORS.muted);
  doc.restore();
  doc.font(FONT_BOLD).fontSize(15).fillColor('#ffffff').text(verdict, x, y + 6, { width, align: 'center', lineBreak: false });
  doc.font(FONT).fontSize(8.5).fillColor('#ffffff').text(score || (screen ? '' : 'no buy box applied'), x, y + 26, { width, align: 'center', lineBreak: false });
  doc.fillColor(COLORS.text);
  return 42;
}

/** Label/value pairs in two columns of a table. */
export function factsTable(doc: Doc, facts: Fact[], fontSize = 9): void {
  if (facts.length === 0) return;
  const rows: string[][] = [];
  const half = Math.ceil(facts.length / 2);
  for (let i = 0; i < half; i++) {
    const left = facts[i]!;
    const right = facts[i + half];
    rows.push([left.label, left.value, right?.label ?? '', right?.value ?? '']);
  }
  drawTable(doc, {
    columns: [fontSize < 9 ? 150 : 100, '*', fontSize < 9 ? 150 : 100, '*'],
    rows: rows.map((row) => row.map((text, column) => (column % 2 === 0 ? { text, bold: true, color: COLORS.muted } : { text }))),
    fontSize,
    padLeft: 0,
  });
}

const STATUS_TEXT: Record<RuleEvidence['status'], string> = { pass: 'passed', fail: 'failed', unknown: 'unknown' };
const STATUS_COLOR: Record<RuleEvidence['status'], string> = { pass: COLORS.pass, fail: COLORS.fail, unknown: COLORS.unknown };

/** Every rule of the buy box: field, operator, expected, actual, outcome. */
export function evidenceTable(doc: Doc, evidence: RuleEvidence[]): void {
  if (evidence.length === 0) {
    doc.font(FONT).fontSize(9.5).fillColor(COLORS.muted).text('The buy box has no rules.');
    return;
  }
  const rows = evidence.map((rule): TableCell[] => {
    const result =
      rule.kind === 'preferred' && rule.status !== 'unknown'
        ? `${STATUS_TEXT[rule.status]} (+${formatValue(rule.contribution ?? 0)} pts)`
        : STATUS_TEXT[rule.status];
    return [
      { text: rule.kind === 'must' ? 'must' : 'preferred' },
      { text: fieldLabel(rule.field) },
      { text: formatOp(rule.op) },
      { text: formatExpected(rule.op, rule.expected, rule.field) || NONE },
      { text: formatFact(rule.field, rule.actual) },
      { text: result, color: STATUS_COLOR[rule.status], bold: true },
    ];
  });
  ensureSpace(doc, 40);
  drawTable(doc, { columns: [54, '*', 46, 80, 76, 104], header: ['Rule', 'Field', 'Test', 'Expected', 'Actual', 'Result'], rows, fontSize: 8.5 });
}

export function screenSummary(doc: Doc, screen: Screen): void {
  const parts = [
    `Buy box “${screen.buyBox}”`,
    `verdict ${screen.verdict}`,
    screen.score === null ? null : `score ${formatValue(screen.score)} of 100`,
    screen.eligible === null ? null : screen.eligible ? 'every must-have met' : 'a must-have is not met',
  ].filter(Boolean);
  doc.font(FONT).fontSize(9.5).fillColor(COLORS.text).text(`${parts.join(' · ')}.`, PAGE.margin, doc.y, { width: contentWidth(doc) });
  doc.moveDown(0.4);
}

export function diligenceSection(doc: Doc, diligence: Diligence | null): void {
  if (!diligence) {
    doc.font(FONT).fontSize(9.5).fillColor(COLORS.muted).text('No diligence has been run for this property.');
    return;
  }
  doc.font(FONT).fontSize(9.5).fillColor(COLORS.text).text(`Overall: ${humanize(diligence.status)}.`);
  doc.moveDown(0.3);
  for (const step of diligence.steps) {
    ensureSpace(doc, 40);
    doc.x = PAGE.margin;
    doc.font(FONT_BOLD).fontSize(9.5).fillColor(COLORS.text).text(`${humanize(step.name)} `, { continued: true });
    doc.font(FONT).fillColor(COLORS.muted).text(`(${humanize(step.status)})`);
    doc.font(FONT).fontSize(9).fillColor(COLORS.text).text(step.summary || NONE, PAGE.margin + 12, doc.y, { width: contentWidth(doc) - 12 });
    for (const citation of step.citations) {
      const title = citation.title || citation.url || '';
      if (!title) continue;
      const text = citation.url && citation.title ? `${citation.title} — ${citation.url}` : title;
      doc.font(FONT).fontSize(8).fillColor(COLORS.muted).text(`Source: ${text}`, PAGE.margin + 12, doc.y, { width: contentWidth(doc) - 12, link: citation.url ?? undefined });
    }
    doc.moveDown(0.4);
  }
  doc.x = PAGE.margin;
}

export function contactsSection(doc: Doc, contacts: Contact[]): void {
  if (contacts.length === 0) {
    doc.font(FONT).fontSize(9.5).fillColor(COLORS.muted).text('No contact is on record.');
    return;
  }
  for (const contact of contacts) {
    ensureSpace(doc, 30);
    doc.x = PAGE.margin;
    for (const line of contact.lines) {
      doc.font(FONT_BOLD).fontSize(9).fillColor(COLORS.muted).text(`${line.label}: `, { continued: true });
      doc.font(FONT).fillColor(COLORS.text).text(line.value);
    }
    const origin = [contact.provider && `via ${contact.provider}`, contact.recordedAt && `recorded ${contact.recordedAt}`].filter(Boolean).join(', ');
    if (origin) doc.font(FONT).fontSize(8).fillColor(COLORS.muted).text(origin);
    doc.moveDown(0.4);
  }
}

/** The fact sheet: each group under a small heading, its facts in two columns, or why it has none. */
export function factSheetSection(doc: Doc, groups: FactGroup[]): void {
  const shown = groups.reduce((sum, group) => sum + group.facts.length, 0);
  doc.font(FONT).fontSize(9).fillColor(COLORS.muted).text(`${shown} facts screened, grouped as the field catalog groups them; numbers rounded to what each unit means.`, PAGE.margin, doc.y, { width: contentWidth(doc) });
  for (const group of groups) {
    ensureSpace(doc, 44);
    doc.moveDown(0.5);
    doc.x = PAGE.margin;
    const count = group.facts.length === group.fieldCount ? `${group.facts.length}` : `${group.facts.length} of ${group.fieldCount}`;
    doc.font(FONT_BOLD).fontSize(10).fillColor(COLORS.heading).text(`${group.title} `, { continued: true });
    doc.font(FONT).fontSize(8.5).fillColor(COLORS.muted).text(`(${count} fields)`);
    doc.moveDown(0.2);
    if (group.facts.length === 0) doc.font(FONT).fontSize(8.5).fillColor(COLORS.muted).text('Not screened for this parcel.', PAGE.margin, doc.y);
    else factsTable(doc, group.facts, 8);
  }
}
