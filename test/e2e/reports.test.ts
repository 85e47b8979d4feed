// D30: the site report and the delivery report as real PDFs, fetched over HTTP and read back with
// poppler-utils the way a person sees them: page count, text (APN, verdict, every rule's field,
// owner names in Cyrillic and Greek, page numbers) and pixels (the parcel drawn on the map).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { importLayer } from '../../services/catalog/src/layers/import-layer.js';
import { catalogDb } from '../../services/catalog/src/schema.js';
import { layerFiles, pointCollection, type LayerFiles } from '../../services/catalog/src/testing/layer-files.js';
import { createClient } from '@connectrpc/connect';
import { pipelinev1 } from '@landscreen/proto';
import { directTransport } from '@landscreen/rpc';
import { asMember, claimed, diligenceApi, expectStatus, session, STEPS } from '../support/diligence.js';
import { countPixels, getPdf, pdfFonts, pdfInfo, pdfText, renderRegion, wordBoxes } from '../support/pdf.js';

const ACME = session('ann@acme-rpt.test', 'acme-rpt', 'admin');
const ACME_VIEWER = session('vic@acme-rpt.test', 'acme-rpt', 'viewer');
const GLOBEX = session('gil@globex-rpt.test', 'globex-rpt', 'admin');
const WORKER = session('wes@acme-rpt.test', 'acme-rpt', 'worker');

const CYRILLIC_OWNER = 'Иван Петрович Сидоров';
const GREEK_OWNER = 'Σωκράτης Παπαδόπουλος';
const CJK_CONTACT = '王小明（山田太郎）';
/** Contacts in the scripts DejaVu Sans lacks (each set in the Noto Sans that has it) and in two right-to-left scripts DejaVu has. */
const SCRIPT_CONTACTS = [
  { script: 'Hangul', name: '김민준 (서울특별시)', font: 'NotoSansKR-Regular' },
  { script: 'Thai', name: 'สมชาย ใจดี', font: 'NotoSansThai-Regular' },
  { script: 'Devanagari', name: 'राजेश कुमार', font: 'NotoSansDevanagari-Regular' },
  { script: 'Arabic', name: 'محمد القاهرة', font: 'DejaVuSans' },
  { script: 'Hebrew', name: 'דוד כהן', font: 'DejaVuSans' },
];

/** A rectangle of `w` x `h` degrees whose south-west corner is (lon, lat). */
const box = (lon: number, lat: number, w: number, h: number) => ({
  type: 'Polygon' as const,
  coordinates: [[[lon, lat], [lon + w, lat], [lon + w, lat + h], [lon + w * 0.4, lat + h * 1.3], [lon, lat + h], [lon, lat]]],
});

const PARCELS = [
  { geometry: box(-97.004, 34.997, 0.008, 0.006), properties: { parcel_key: 'rpt-1', apn: 'R-001', address: '1 Substation Road', owner_name: CYRILLIC_OWNER, zoning: 'AG', acres: 120, assessed_value_usd: 600000, within_floodplain_polygon: false, nearest_substation_distance_m: 1200 } },
  { geometry: box(-96.95, 34.997, 0.006, 0.006), properties: { parcel_key: 'rpt-2', apn: 'R-002', address: '2 Substation Road', owner_name: GREEK_OWNER, zoning: 'IND', acres: 90, within_floodplain_polygon: false, nearest_substation_distance_m: 5200 } },
  { geometry: box(-96.9, 34.997, 0.005, 0.005), properties: { parcel_key: 'rpt-3', apn: 'R/003 "east"', address: '3 Substation Road', owner_name: 'Zoë Ørsted', zoning: 'AG', acres: 75, within_floodplain_polygon: false, nearest_substation_distance_m: 9000 } },
  { geometry: box(-96.8, 34.997, 0.007, 0.005), properties: { parcel_key: 'rpt-5', apn: 'R-005', address: '5 Substation Road', owner_name: 'Ανδρέας Νικολάου', zoning: 'IND', acres: 110, within_floodplain_polygon: false, nearest_substation_distance_m: 2100 } },
  { geometry: box(-96.75, 34.997, 0.006, 0.006), properties: { parcel_key: 'rpt-6', apn: 'R-006', address: '6 Substation Road', owner_name: 'Ольга Кузнецова', zoning: 'AG', acres: 95, within_floodplain_polygon: false, nearest_substation_distance_m: 2900 } },
  { geometry: box(-96.85, 34.997, 0.005, 0.005), properties: { parcel_key: 'rpt-4', apn: 'R-004', address: '4 Substation Road', owner_name: 'Wet Acres LLC', zoning: 'AG', acres: 60, within_floodplain_polygon: true, nearest_substation_distance_m: 300 } },
];

const SPEC = {
  markets: ['rpt-ok'],
  must: [
    { field: 'acres', op: 'gte', value: 50 },
    { field: 'zoning', op: 'in', value: ['AG', 'IND'] },
    { field: 'within_floodplain_polygon', op: 'eq', value: false },
  ],
  preferred: [
    { field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 2 },
    { field: 'slope_degrees', op: 'lte', value: 5, weight: 1 },
  ],
  verdict_cutoffs: { pursue: 60, monitor: 30 },
};
const RULE_FIELDS = ['acres', 'zoning', 'within_floodplain_polygon', 'nearest_substation_distance_m', 'slope_degrees'];
// The same rules as the reports label them (the field catalog's names in words, the unit left to the values).
const RULE_LABELS = ['Acres', 'Zoning', 'Within floodplain polygon', 'Nearest substation distance', 'Slope'];
/** A machine name: snake_case words, e.g. within_floodplain_polygon. */
const MACHINE_NAMES = RULE_FIELDS.filter((field) => field.includes('_'));
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

// The map's frame on page 1 (reports/src/site-report.ts): full content width below the heading.
const MAP_REGION = { x: 60, y: 110, w: 490, h: 270 };
// The parcel's fill (reports/src/theme.ts parcelFill at half opacity): clearly greener than red and blue.
const isParcelGreen = (r: number, g: number, b: number) => g > r + 20 && g > b + 20;
const isInk = (r: number, g: number, b: number) => r < 235 || g < 235 || b < 235;

describe.each(DATABASE_MODES)('PDF reports on %s', (mode) => {
  let app: TestStack;
  let files: LayerFiles;
  let queryHash: string;
  let propertyId: string;

  beforeAll(async () => {
    app = await startTestStack(mode);
    files = await layerFiles();
    for (const headers of [ACME, ACME_VIEWER, GLOBEX, WORKER]) expectStatus(await app.get('/v1/me', { headers }), 200);
    const db = app.stack.database.db;
    await loadMarket(db, 'rpt-ok', PARCELS);
    await entitleTenant(db, 'acme-rpt', 'rpt-ok');
    await entitleTenant(db, 'globex-rpt', 'rpt-ok');
    // A substation ~1 km east of rpt-1 and a 345 kV line ~3 km west of it.
    await importLayer(catalogDb(db), { source: 'hifld_substations', file: await files.write('subs.geojson', pointCollection([{ lon: -96.985, lat: 35.002, properties: { name: 'Cimarron', max_voltage_kv: 138, status: 'IN SERVICE' } }])) });
    const line = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'LineString', coordinates: [[-97.033, 34.9], [-97.033, 35.1]] }, properties: { voltage_kv: 345, status: 'IN SERVICE', owner: 'OG&E' } }] };
    await importLayer(catalogDb(db), { source: 'hifld_transmission_lines', file: await files.write('lines.geojson', JSON.stringify(line)) });
    expectStatus(await app.post('/v1/buyboxes', { name: 'Data center', spec: SPEC }, { headers: ACME }), 201);
    queryHash = expectStatus(await app.post('/v2/discovery/query', { buy_box: 'Data center' }, { headers: ACME }), 200).body.query_hash;
    const promoted = expectStatus(await app.post('/v2/pipeline', { parcel_key: 'rpt-1', buy_box: 'Data center', query_hash: queryHash }, { headers: ACME }), 202).body;
    propertyId = promoted.property_id;
    // Diligence with a customer-readable summary and a citation, and a revealed contact.
    const api = diligenceApi(app, WORKER);
    const token = await claimed(api, promoted.diligence_job_id);
    const citation = { url: 'https://records.example.com/deed/77', title: 'Recorded deed 2019-0077' };
    expectStatus(await api.complete(promoted.diligence_job_id, STEPS[0]!, token, { data: { summary: 'Deed confirms the owner and the APN.' }, citations: [citation], cost_usd: '2.25', provider_request_id: 'deed-77' }), 200);
    expectStatus(await api.reveal(propertyId, { contact: { name: CJK_CONTACT, phone: '+1 405 555 0199' }, provider: 'skiptrace', provider_request_id: 'c-77', cost_usd: '0.75' }), 201);
    for (const [i, contact] of SCRIPT_CONTACTS.entries()) {
      expectStatus(await api.reveal(propertyId, { contact: { name: contact.name }, provider: 'skiptrace', provider_request_id: `c-script-${i}`, cost_usd: '0.75' }), 201);
    }
  });
  afterAll(async () => {
    await app?.close();
    await files?.remove();
  });

  it('answers the site report as a PDF a viewer may download, named after the APN', async () => {
    const pdf = await getPdf(app, `/v1/properties/${propertyId}/pdf`, ACME_VIEWER);
    expect(pdf.status, pdf.bytes.toString('utf8', 0, 300)).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe('attachment; filename="R-001-site-report.pdf"');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const info = await pdfInfo(pdf.bytes);
    expect(info.Title).toBe('Site report R-001');
    expect(Number(info.Pages)).toBeGreaterThanOrEqual(2);
  });

  it('prints the key facts, verdict, score and every rule\'s evidence, owner names in any script, and page numbers', async () => {
    const pdf = await getPdf(app, `/v1/properties/${propertyId}/pdf`, ACME);
    const text = await pdfText(pdf.bytes);
    const pages = Number((await pdfInfo(pdf.bytes)).Pages);
    for (const expected of ['APN R-001', '1 Substation Road', 'PURSUE', 'Screening against “Data center”', 'rpt-ok', 'AG', '120']) expect(text).toContain(expected);
    for (const label of RULE_LABELS) expect(text).toContain(label);
    for (const field of MACHINE_NAMES) expect(text).not.toContain(field);
    // Evidence lines: the rule's test and the parcel's value side by side, in the field's unit.
    expect(text).toMatch(/Acres\s+≥\s+50 acres\s+120 acres\s+passed/);
    expect(text).toMatch(/Slope\s+≤\s+5°\s+—\s+unknown/);
    expect(text).toContain(CYRILLIC_OWNER);
    for (let page = 1; page <= pages; page++) expect(text).toContain(`Page ${page} of ${pages}`);
  });

  it('prints the diligence per step, the contacts and the grid features, never costs or raw provider ids', async () => {
    const text = await pdfText((await getPdf(app, `/v1/properties/${propertyId}/pdf`, ACME)).bytes);
    expect(text).toContain('Deed confirms the owner and the APN.');
    expect(text).toContain('Recorded deed 2019-0077');
    expect(text).toContain('https://records.example.com/deed/77');
    expect(text).toMatch(/Utility findings \(Pending\)/);
    expect(text).toContain('+1 405 555 0199');
    // A contact in Chinese and Japanese script is set in the fallback font and reads back whole.
    expect(text).toContain(CJK_CONTACT);
    expect(text).toMatch(/Substation Cimarron, 138 kV: 1\.\d km/);
    expect(text).toMatch(/Transmission line, 345 kV: 3\.\d km/);
    for (const secret of ['2.25', '0.75', 'deed-77', 'c-77', 'cost']) expect(text).not.toContain(secret);
  });

  it('prints Hangul, Thai and Devanagari in a font that has them, and Arabic and Hebrew right to left, never dropped: read back whole as text, the fonts embedded, ink where each stands', async () => {
    const pdf = (await getPdf(app, `/v1/properties/${propertyId}/pdf`, ACME)).bytes;
    const text = await pdfText(pdf);
    const fonts = await pdfFonts(pdf);
    const words = await wordBoxes(pdf);
    for (const contact of SCRIPT_CONTACTS) {
      expect(fonts, contact.script).toContain(contact.font);
      // Every name reads back whole, the right-to-left ones too: their words drawn right to left
      // by the bidi pass (packages/reports/src/bidi.ts), so a reader (pdftotext) finds them in order.
      expect(text, contact.script).toContain(contact.name);
    }
    // Right to left on the page: a name's first word stands to the right of its second.
    const reversedText = (word: string) => [...word].reverse().join('');
    for (const contact of SCRIPT_CONTACTS.filter((c) => c.font === 'DejaVuSans')) {
      const [first, second] = contact.name.split(' ').map((word) => words.find((box) => box.text === word || box.text === reversedText(word)));
      expect(first, contact.script).toBeDefined();
      expect(first!.xMin, contact.script).toBeGreaterThan(second!.xMax);
    }
    // The chosen fonts draw: ink to the right of each contact's "Name:" label, on its line.
    const labels = words.filter((word) => word.text === 'Name:');
    expect(labels.length).toBe(SCRIPT_CONTACTS.length + 1);
    for (const label of labels) {
      const region = { x: label.xMax + 2, y: label.yMin - 1, w: 160, h: label.yMax - label.yMin + 4 };
      const raster = await renderRegion(pdf, label.page, region, 144);
      const ink = countPixels(raster, (r, g, b) => r + g + b < 3 * 160);
      expect(ink, `ink after the label at y=${label.yMin} on page ${label.page}`).toBeGreaterThan(150);
    }
  });

  it('reads as an investment committee reads it: human labels, a fact sheet by catalog group, price and $/acre, no UUIDs', async () => {
    const text = await pdfText((await getPdf(app, `/v1/properties/${propertyId}/pdf`, ACME)).bytes);
    expect(text).toMatch(/Price\s+\$600,000 \(assessed value\)/);
    expect(text).toMatch(/Price per acre\s+\$5,000 \/ acre/);
    expect(text).toContain('Fact sheet');
    for (const group of ['Parcel record', 'Terrain', 'Land cover', 'Built environment', 'Utilities and grid', 'Parcel overlays', 'Climate', 'Hazards']) expect(text).toContain(group);
    expect(text).toMatch(/Nearest substation\s+distance\s+1,200 m/);
    expect(text).toMatch(/Developable\s+acres/);
    expect(text).toMatch(/Within floodplain polygon\s+no/);
    for (const field of MACHINE_NAMES) expect(text).not.toContain(field);
    expect(text).not.toMatch(UUID);
    // The locator names where the parcel is, from the Census outlines.
    expect(text).toMatch(/\w+ County, Oklahoma/);
  });

  it('draws the transmission line as a line along its course, and the parcel filled where it lies', async () => {
    const pdf = await getPdf(app, `/v1/properties/${propertyId}/pdf`, ACME);
    const map = await renderRegion(pdf.bytes, 1, MAP_REGION, 72);
    // The test line runs due north-south ~3 km west of the parcel: on the map, one column of the
    // line's colour from the map's top to its bottom (a diamond marker would colour ~11 rows).
    const isLine = (r: number, g: number, b: number) => r > 80 && r < 150 && g < 80 && b > 170;
    const rowsOfColumn = (x: number) => {
      let rows = 0;
      for (let y = 0; y < map.height; y++) {
        const i = (y * map.width + x) * 3;
        if (isLine(map.pixels[i]!, map.pixels[i + 1]!, map.pixels[i + 2]!)) rows++;
      }
      return rows;
    };
    const columns = Array.from({ length: map.width }, (_, x) => rowsOfColumn(x));
    const lineX = columns.indexOf(Math.max(...columns));
    // Most of the height (the key and the scale bar, on a white ground, cover its two ends).
    expect(columns[lineX]!).toBeGreaterThan(map.height * 0.5);
    // The parcel's fill lies east of the line, as the parcel lies east of it.
    let sumX = 0;
    let green = 0;
    for (let y = 0; y < map.height; y++)
      for (let x = 0; x < map.width; x++) {
        const i = (y * map.width + x) * 3;
        if (isParcelGreen(map.pixels[i]!, map.pixels[i + 1]!, map.pixels[i + 2]!)) {
          sumX += x;
          green++;
        }
      }
    expect(green).toBeGreaterThan(map.width * map.height * 0.02);
    expect(sumX / green).toBeGreaterThan(lineX + 40);
  });

  it('draws the parcel on the map (the map region is not blank) with a scale bar and a north arrow', async () => {
    const pdf = await getPdf(app, `/v1/properties/${propertyId}/pdf`, ACME);
    const map = await renderRegion(pdf.bytes, 1, MAP_REGION, 72);
    expect(map.width * map.height).toBeGreaterThan(100_000);
    // The parcel's fill covers a real share of the map, not a stray pixel.
    expect(countPixels(map, isParcelGreen)).toBeGreaterThan(map.width * map.height * 0.02);
    expect(countPixels(map, isInk)).toBeGreaterThan(map.width * map.height * 0.05);
    const text = await pdfText(pdf.bytes);
    expect(text).toMatch(/\b\d[\d,.]* (m|km)\b/);
    expect(text).toMatch(/\b\d[\d,.]* (ft|mi)\b/);
    expect(text).toMatch(/\nN\n/);
  });

  it('prints a Greek owner and names the file from a sanitised APN', async () => {
    const second = expectStatus(await app.post('/v2/pipeline', { parcel_key: 'rpt-2', buy_box: 'Data center', query_hash: queryHash }, { headers: ACME }), 202).body;
    const third = expectStatus(await app.post('/v2/pipeline', { parcel_key: 'rpt-3', buy_box: 'Data center', query_hash: queryHash }, { headers: ACME }), 202).body;
    const greek = await getPdf(app, `/v1/properties/${second.property_id}/pdf`, ACME);
    expect(await pdfText(greek.bytes)).toContain(GREEK_OWNER);
    const odd = await getPdf(app, `/v1/properties/${third.property_id}/pdf`, ACME);
    expect(odd.status).toBe(200);
    expect(odd.headers.get('content-disposition')).toBe('attachment; filename="R-003-east-site-report.pdf"');
    expect(await pdfText(odd.bytes)).toContain('Zoë Ørsted');
  });

  it('answers 404 for another tenant\'s property, an unknown one and a malformed id', async () => {
    for (const [id, headers] of [[propertyId, GLOBEX], ['00000000-0000-4000-8000-000000000000', ACME], ['not-a-uuid', ACME]] as const) {
      const response = await app.get(`/v1/properties/${id}/pdf`, { headers });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('property_not_found');
    }
    expect((await app.get(`/v1/properties/${propertyId}/pdf`, { headers: { 'x-tenant': 'acme-rpt' } })).status).toBe(401);
  });

  it('reads many properties reduced to what a report prints, only the caller\'s (GetReportProperties)', async () => {
    const pipeline = createClient(pipelinev1.PipelineService, directTransport(app.stack.modules, { checkMessages: true }));
    const read = async (tenant: string, ids: string[]) => (await pipeline.getReportProperties({ propertyIds: ids }, await asMember(app, tenant))).properties;
    const [page] = await read('acme-rpt', [propertyId, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']);
    const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));
    expect(page).toMatchObject({ id: propertyId, apn: 'R-001' });
    expect(decode(page!.typedFactsJson)).toMatchObject({ owner_name: CYRILLIC_OWNER });
    expect(decode(page!.geometryJson)).toMatchObject({ type: 'Polygon' });
    expect(page!.screen).toMatchObject({ buyBox: 'Data center', verdict: 'PURSUE' });
    expect(page!.screen!.appliedSpec!.must.length).toBe(SPEC.must.length);
    expect(page!.screen!.scoreBreakdown!.must.length).toBe(SPEC.must.length);
    expect(await read('globex-rpt', [propertyId])).toEqual([]);
  });

  it('delivers a lead request as one PDF: the buy box and a summary table, then a page per lead', async () => {
    const requested = expectStatus(await app.post('/v1/lead-requests', { buy_box: 'Data center', count: 5, note: 'For the Cimarron call' }, { headers: ACME }), 201).body;
    const deliveryId = await fulfilled(app, requested.id);
    const delivery = expectStatus(await app.get(`/v1/deliveries/${deliveryId}`, { headers: ACME }), 200).body;
    expect(delivery.leads.length).toBeGreaterThan(0);

    const pdf = await getPdf(app, `/v1/deliveries/${deliveryId}/pdf`, ACME_VIEWER);
    expect(pdf.status, pdf.bytes.toString('utf8', 0, 300)).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="delivery-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.pdf"$/);
    const pages = Number((await pdfInfo(pdf.bytes)).Pages);
    expect(pages).toBeGreaterThanOrEqual(1 + delivery.leads.length);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain('Buy box “Data center”');
    expect(text).toContain('must: Acres ≥ 50 acres');
    expect(text).not.toMatch(UUID);
    expect(text).toContain('For the Cimarron call');
    delivery.leads.forEach((lead: { apn: string; verdict: string }, index: number) => {
      expect(text).toContain(lead.apn);
      expect(text).toContain(`LEAD ${index + 1} OF ${delivery.leads.length}`);
    });
    for (const label of RULE_LABELS) expect(text).toContain(label);
    for (const field of MACHINE_NAMES) expect(text).not.toContain(field);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    // Each lead's page has its map drawn: the page after the cover.
    const leadPage = text.split('\f').findIndex((page) => page.includes('LEAD 1 OF')) + 1;
    // Each lead's page carries the delivery's verdict and every rule's evidence for that parcel.
    const firstLead = text.split('\f')[leadPage - 1]!;
    expect(firstLead).toContain(delivery.leads[0].apn);
    expect(firstLead).toContain(delivery.leads[0].verdict);
    expect(firstLead).toMatch(/Within floodplain polygon\s+=\s+no\s+no\s+passed/);
    for (const label of RULE_LABELS) expect(firstLead).toContain(label);
    const map = await renderRegion(pdf.bytes, leadPage, { ...MAP_REGION, h: 200 }, 72);
    expect(countPixels(map, isParcelGreen)).toBeGreaterThan(map.width * map.height * 0.02);

    // Screened again later against another box, a lead's page still shows this delivery's screening.
    const otherSpec = { ...SPEC, must: [{ field: 'acres', op: 'gte', value: 10 }], preferred: [] };
    expectStatus(await app.post('/v1/buyboxes', { name: 'Solar', spec: otherSpec }, { headers: ACME }), 201);
    expectStatus(await app.post('/v2/pipeline/direct', { parcel_key: delivery.leads[0].parcel_key, buy_box: 'Solar', vintage_id: delivery.vintage_id }, { headers: ACME }), 202);
    const again = await pdfText((await getPdf(app, `/v1/deliveries/${deliveryId}/pdf`, ACME)).bytes);
    const againFirst = again.split('\f')[leadPage - 1]!;
    expect(againFirst).toContain('Screening against “Data center”');
    expect(againFirst).toMatch(/Within floodplain polygon\s+=\s+no\s+no\s+passed/);
    expect(again).not.toContain('Solar');

    const other = await app.get(`/v1/deliveries/${deliveryId}/pdf`, { headers: GLOBEX });
    expect(other.status).toBe(404);
    expect((await app.get('/v1/deliveries/not-a-uuid/pdf', { headers: ACME })).status).toBe(404);
  });
});

/** Waits for the lead worker (over the bus) to fulfil a request; answers its delivery id. */
async function fulfilled(app: TestStack, requestId: string): Promise<string> {
  for (;;) {
    const list = expectStatus(await app.get('/v1/lead-requests', { headers: ACME }), 200).body;
    const request = list.lead_requests.find((entry: { id: string }) => entry.id === requestId);
    if (request?.status === 'fulfilled') return request.delivery_id;
    if (request?.status === 'failed') throw new Error(`lead request failed: ${JSON.stringify(request)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
