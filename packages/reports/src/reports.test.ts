import { create, fromJson, type JsonObject } from '@bufbuild/protobuf';
import { diligencev1, discoveryv1, pipelinev1 } from '@landscreen/proto';
import { describe, expect, it } from 'vitest';
import { fileNamePart, formatDistance, shortReference } from './format.js';
import { fieldLabel, formatExpected, formatFact, formatRule } from './field-labels.js';
import { niceLength } from './map.js';
import { ruleEvidence, siteReportFromProperty } from './from-messages.js';
import { deliveryReportFrom, rulesInWords } from './from-delivery.js';
import { fitText, MAX_TEXT_LENGTH, renderDeliveryReport, renderSiteReport } from './index.js';
import { fallbackFont, fallbackFor, reportFonts } from './fonts.js';

const GENERATED_AT = new Date('2026-11-23T12:00:00Z');

const SPEC_JSON = {
  must: [
    { field: 'acres', op: 'gte', value: 50, unknown: 'exclude' },
    { field: 'zoning', op: 'in', value: ['AG', 'IND'], unknown: 'review' },
  ],
  preferred: [
    { field: 'slope_degrees', op: 'between', value: [0, 5], weight: 2 },
    { field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 1 },
  ],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};
const SPEC = fromJson(discoveryv1.BuyBoxSpecSchema, SPEC_JSON);
const EVALUATION = {
  score_breakdown: {
    must: [
      { field: 'acres', value: 80, status: 'pass' },
      { field: 'zoning', value: null, status: 'unknown' },
    ],
    preferred: [
      { field: 'slope_degrees', value: 2.5, weight: 2, contribution: 66.67 },
      { field: 'nearest_substation_distance_m', value: 9000, weight: 1, contribution: 0 },
    ],
  },
  facts: { acres: 80, slope_degrees: 2.5432, nearest_substation_distance_m: 9000.123456, within_floodplain_polygon: false, assessed_value_usd: 400000 },
};
const BREAKDOWN = fromJson(discoveryv1.ScoreBreakdownSchema, EVALUATION.score_breakdown);
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** A property page as GetProperty answers it. */
function propertyPage(options: { apn?: string; parcelKey: string; buyBox?: string; evaluation?: object; contacts?: JsonObject[] }) {
  return create(pipelinev1.GetPropertyResponseSchema, {
    property: { id: '6f1c2a9e-4b7d-4e0f-9a51-2d3c4b5a6978', parcelKey: options.parcelKey, apn: options.apn, vintageId: '0b9e8d7c-6a5b-4c3d-8e2f-1a0b9c8d7e6f', parcelJson: json({ typed: { acres: 80, owner_name: 'Ann' } }) },
    deepScreen: options.buyBox
      ? { match: { buyBox: options.buyBox, verdict: 'HOLD', score: 10, specHash: 'h' }, appliedSpec: SPEC, evaluationJson: json(options.evaluation ?? EVALUATION) }
      : undefined,
    diligence: options.contacts ? { contacts: options.contacts.map((contact) => create(diligencev1.ContactSchema, { contactJson: json(contact), provider: 'p' })) } : undefined,
  });
}

describe('report data', () => {
  it('lines every rule of the applied spec up with its evidence: test, expected, actual, outcome', () => {
    expect(ruleEvidence(SPEC, BREAKDOWN)).toEqual([
      { kind: 'must', field: 'acres', op: 'gte', expected: 50, actual: 80, status: 'pass' },
      { kind: 'must', field: 'zoning', op: 'in', expected: ['AG', 'IND'], actual: null, status: 'unknown' },
      { kind: 'preferred', field: 'slope_degrees', op: 'between', expected: [0, 5], actual: 2.5, status: 'pass', weight: 2, contribution: 66.67 },
      { kind: 'preferred', field: 'nearest_substation_distance_m', op: 'lte', expected: 3000, actual: 9000, status: 'fail', weight: 1, contribution: 0 },
    ]);
  });

  it('says rules and distances the way a reader does', () => {
    expect(formatRule({ field: 'acres', op: 'gte', value: 50 })).toBe('Acres ≥ 50 acres');
    expect(formatRule({ field: 'zoning', op: 'in', value: ['AG', 'IND'] })).toBe('Zoning one of AG, IND');
    expect(formatRule({ field: 'within_floodplain_polygon', op: 'eq', value: false })).toBe('Within floodplain polygon = no');
    expect(formatExpected('between', [0, 5])).toBe('0 and 5');
    expect(formatExpected('between', [0, 5], 'slope_degrees')).toBe('0° and 5°');
    expect(formatExpected('exists', true)).toBe('');
    expect(formatDistance(950)).toBe('950 m (3,117 ft)');
    expect(formatDistance(3000)).toBe('3.0 km (1.9 mi)');
  });

  it('says where a graded preference falls to nothing (D41)', () => {
    const spec = fromJson(discoveryv1.BuyBoxSpecSchema, { must: [], preferred: [{ field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3, grade: { zero_at: 8000 } }] });
    expect(rulesInWords(spec)).toEqual(['preferred (weight 3): Nearest substation distance ≤ 1,500 m, falling to 0 at 8,000 m']);
  });

  it('labels facts from the field catalog and rounds them per unit', () => {
    expect(fieldLabel('nearest_substation_distance_m')).toBe('Nearest substation distance');
    expect(fieldLabel('assessed_value_usd')).toBe('Assessed value');
    expect(formatFact('nearest_substation_distance_m', 174.38540113374782)).toBe('174.4 m');
    expect(formatFact('slope_degrees', 2.5432)).toBe('2.5°');
    expect(formatFact('assessed_value_usd', 400000)).toBe('$400,000');
    expect(formatFact('within_floodplain_polygon', true)).toBe('yes');
    expect(shortReference('0b9e8d7c-6a5b-4c3d-8e2f-1a0b9c8d7e6f')).toBe('0B9E8D7C');
    expect(shortReference('rpt-1')).toBe('rpt-1');
  });

  it('groups every screened fact as the catalog groups them, with price per acre', () => {
    const report = siteReportFromProperty(propertyPage({ apn: 'A-1', parcelKey: 'k-1', buyBox: 'DC' }), { loadedSources: [], features: [] }, GENERATED_AT);
    const groups = Object.fromEntries(report.factSheet.map((group) => [group.title, group.facts]));
    expect(groups['Terrain']).toContainEqual({ label: 'Slope', value: '2.5°' });
    expect(groups['Utilities and grid']).toContainEqual({ label: 'Nearest substation distance', value: '9,000.1 m' });
    expect(groups['Parcel record']).toContainEqual({ label: 'Assessed value', value: '$400,000' });
    expect(report.facts).toContainEqual({ label: 'Price per acre', value: '$5,000 / acre' });
    expect(report.vintage).toContainEqual({ label: 'Parcel vintage', value: '0B9E8D7C' });
  });

  it('picks round scale-bar lengths no longer than asked', () => {
    expect([0.9, 1, 3, 7.5, 19, 240, 1234].map(niceLength)).toEqual([0.5, 1, 2, 5, 10, 200, 1000]);
  });

  it('keeps file names to safe ASCII and never empty', () => {
    expect(fileNamePart('R/003 "east"')).toBe('R-003-east');
    expect(fileNamePart('../../etc/passwd')).toBe('etc-passwd');
    expect(fileNamePart('Участок 7')).toBe('7');
    expect(fileNamePart('Участок')).toBe('property');
  });

  it('tolerates a page with nothing in it: every fact prints as a dash, the map says it has nothing to draw', async () => {
    const report = siteReportFromProperty(create(pipelinev1.GetPropertyResponseSchema, { property: { parcelKey: 'k-1' } }), { loadedSources: [], features: [] }, GENERATED_AT);
    expect(report.reference).toBe('k-1');
    expect(report.screen).toBeNull();
    expect(report.facts.find((fact) => fact.label === 'Owner')?.value).toBe('—');
    const pdf = await renderSiteReport(report);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('a delivery keeps the rank order and leaves out evidence of another buy box', async () => {
    const page = (apn: string, specHash: string) =>
      siteReportFromProperty(propertyPage({ apn, parcelKey: apn, buyBox: specHash === 'h1' ? 'DC' : 'Other' }), { loadedSources: [], features: [] }, GENERATED_AT);
    const delivery = deliveryReportFrom({ id: 'd-1', createdAt: '2026-11-23T00:00:00Z', buyBox: { name: 'DC', specHash: 'h1', appliedSpec: SPEC } }, [
      { rank: 2, verdict: 'MONITOR', score: 50, report: page('B', 'h2'), screenSpecHash: 'h2' },
      { rank: 1, verdict: 'PURSUE', score: 90, report: page('A', 'h1'), screenSpecHash: 'h1' },
    ], GENERATED_AT);
    expect(delivery.leads.map((lead) => [lead.reference, lead.screen?.verdict, lead.screen?.evidence.length])).toEqual([
      ['A', 'PURSUE', 4],
      ['B', 'MONITOR', 0],
    ]);
    expect(delivery.leads[1]!.screen?.evidenceNote).toContain('“Other”');
    expect(delivery.buyBox?.rules).toEqual([
      'must: Acres ≥ 50 acres',
      'must: Zoning one of AG, IND (unknown: review)',
      'preferred (weight 2): Slope between 0° and 5°',
      'preferred (weight 1): Nearest substation distance ≤ 3,000 m',
    ]);
    const pdf = await renderDeliveryReport(delivery);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('cuts an over-long text with an ellipsis at MAX_TEXT_LENGTH, never inside a surrogate pair', () => {
    expect(fitText('short')).toBe('short');
    const cut = fitText('x'.repeat(5_000));
    expect(cut).toHaveLength(MAX_TEXT_LENGTH);
    expect(cut.endsWith('x…')).toBe(true);
    const emoji = fitText('😀'.repeat(3_000));
    expect(emoji.endsWith('😀…')).toBe(true);
    expect([...emoji.slice(0, -1)].every((character) => character === '😀')).toBe(true);
  });

  it('prints a contact holding one 200,000-character word: broken inside the word, cut with an ellipsis', async () => {
    const word = 'W'.repeat(200_000);
    const page = propertyPage({ apn: 'LONG-1', parcelKey: 'k-long', contacts: [{ name: word, note: `${'word '.repeat(40_000)}end` }] });
    const report = siteReportFromProperty(page, { loadedSources: [], features: [] }, GENERATED_AT);
    const pdf = await renderSiteReport(report);
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    // A handful of pages, not the thousands a 200,000-character contact would fill.
    const pages = text.match(/\/Type \/Page\b/g) ?? [];
    expect(pages.length).toBeLessThanOrEqual(3);
  });

  it('sets every script DejaVu lacks in a fallback that has each of its characters, and leaves the rest to DejaVu', () => {
    const dejavu = reportFonts().regular;
    const samples: Record<string, [string, string]> = {
      chinese: ['王小明（张伟）', 'NotoSansSC'],
      japanese: ['山田太郎 やまだ カタカナ', 'NotoSansSC'],
      hangul: ['김민준 (서울특별시 강남구)', 'NotoSansKR'],
      hangulAndHanja: ['김민준 金敏俊', 'NotoSansKR'],
      thai: ['สมชาย ใจดี 123 Co.', 'NotoSansThai'],
      devanagari: ['राजेश कुमार, नई दिल्ली', 'NotoSansDevanagari'],
    };
    for (const [script, [text, expected]] of Object.entries(samples)) {
      const chosen = fallbackFor(text);
      expect(chosen?.name, script).toBe(expected);
      const font = fallbackFont(chosen!, 'regular');
      for (const char of text) expect(font.hasGlyphForCodePoint(char.codePointAt(0)!), `${script}: ${char}`).toBe(true);
      expect(fallbackFont(chosen!, 'bold').hasGlyphForCodePoint(text.codePointAt(0)!)).toBe(true);
    }
    // DejaVu itself has Latin, Cyrillic, Greek, Arabic and Hebrew.
    for (const text of ['Zoë Ørsted', 'Иван Петрович', 'Σωκράτης', 'محمد القاهرة', 'דוד תל אביב']) {
      expect(fallbackFor(text), text).toBeUndefined();
      for (const char of text) expect(dejavu.hasGlyphForCodePoint(char.codePointAt(0)!), `${text}: ${char}`).toBe(true);
    }
    // No font has a private-use character: the text stays in DejaVu, which prints its missing-glyph box.
    expect(fallbackFor('\ue000')).toBeUndefined();
  });
});
