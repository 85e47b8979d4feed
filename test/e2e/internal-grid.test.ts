// The internal endpoints answered from the engine (D31, D8): the hosting-capacity
// estimate near a point and the utility findings of a parcel in a vintage, over HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceToken, authDb } from '@landscreen/auth-service';
import { DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { importLayer } from '../../services/catalog/src/layers/import-layer.js';
import { catalogDb } from '../../services/catalog/src/schema.js';
import { layerFiles, pointCollection, type LayerFiles } from '../../services/catalog/src/testing/layer-files.js';

const session = (role: string, tenant = 'acme') => ({ authorization: `Bearer dev:${role}@${tenant}.test:${role}`, 'x-tenant': tenant });
const ADMIN = session('admin');

// 0.01° north of the 345 kV substation at (35, -97): 1,109.4 m on WGS84 (services/catalog layers.test).
const NEAR = { latitude: 35.01, longitude: -97, state: 'OK' };
// More than 10 km (the model's reach) from every grid feature below.
const FAR = { latitude: 36, longitude: -97, state: 'OK' };

const lineCollection = (lon: number, properties: Record<string, unknown>) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: [{ type: 'Feature', geometry: { type: 'LineString', coordinates: [[lon, 34.9], [lon, 35.1]] }, properties }],
  });

describe.each(DATABASE_MODES)('internal grid endpoints on %s', (mode) => {
  let app: TestStack;
  let files: LayerFiles;
  let substations: string;
  let lines: string;
  let oldVintage: string;
  let vintage: string;
  const estimate = (body: Record<string, unknown>) => app.post('/v1/internal/hosting-capacity/estimate', body, { headers: ADMIN });

  beforeAll(async () => {
    app = await startTestStack(mode);
    files = await layerFiles();
    for (const headers of [ADMIN, session('admin', 'globex')]) expect((await app.get('/v1/me', { headers })).status).toBe(200);
    const db = app.stack.database.db;
    const parcel = { geometry: { type: 'Point' as const, coordinates: [-97, 35.01] }, properties: { parcel_key: 'near', apn: 'N-1', acres: 40 } };
    oldVintage = (await loadMarket(db, 'grid-ok', [parcel])).vintageId;
    const pointless = { geometry: null, properties: { parcel_key: 'pointless', apn: 'P-1' } };
    vintage = (await loadMarket(db, 'grid-ok', [parcel, pointless])).vintageId;
    await entitleTenant(db, 'acme', 'grid-ok');
  });
  afterAll(async () => {
    await app?.close();
    await files?.remove();
  });

  it('answers no estimate, low confidence and no_coverage while no grid layer is loaded', async () => {
    const response = await estimate(NEAR);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ estimate_mw: null, basis: [], confidence: 'low', model_version: 1, null_reason: 'no_coverage' });
  });

  it('estimates from a 345 kV substation alone with medium confidence (hand-computed)', async () => {
    const file = await files.write('substations.geojson', pointCollection([{ lon: -97, lat: 35, properties: { name: 'Alpha', max_voltage_kv: 345, status: 'IN SERVICE' } }]));
    substations = (await importLayer(catalogDb(app.stack.database.db), { source: 'hifld_substations', file })).versionId;
    const response = await estimate(NEAR);
    expect(response.status).toBe(200);
    // 345 kV class: 150-500 MW, times 1 - 1109.4 / 10000 = 0.88906: 133.36 and 444.53, to 0.1 MW.
    expect(response.body.estimate_mw).toEqual({ low: 133.4, high: 444.5 });
    expect(response.body.confidence).toBe('medium');
    expect(response.body.null_reason).toBeNull();
    expect(response.body.basis).toHaveLength(1);
    const [substation] = response.body.basis;
    expect(substation).toMatchObject({ kind: 'substation', source: 'hifld_substations', layer_version: substations, voltage_kv: 345, status: 'IN SERVICE' });
    expect(substation.distance_m).toBeCloseTo(1109.4, 0);
  });

  it('adds the nearest transmission line to the basis and answers high confidence with both grid sources', async () => {
    // A 138 kV line 0.1° east: 9,131 m at 35.01°N, 1 - 0.9131 = 0.0869 of the 30-100 MW class.
    const file = await files.write('lines.geojson', lineCollection(-96.9, { voltage_kv: 138, status: 'IN SERVICE', owner: 'OG&E' }));
    lines = (await importLayer(catalogDb(app.stack.database.db), { source: 'hifld_transmission_lines', file })).versionId;
    const response = await estimate({ ...NEAR, utility_key: null, candidate_operators: ['SPP'] });
    expect(response.status).toBe(200);
    expect(response.body.estimate_mw).toEqual({ low: 133.4, high: 444.5 });
    expect(response.body.confidence).toBe('high');
    expect(response.body.basis.map((feature: { kind: string }) => feature.kind)).toEqual(['substation', 'transmission_line']);
    const line = response.body.basis[1];
    expect(line).toMatchObject({ source: 'hifld_transmission_lines', layer_version: lines, voltage_kv: 138 });
    expect(line.distance_m).toBeGreaterThan(9100);
    expect(line.distance_m).toBeLessThan(9160);
    expect(line.estimate_mw.low).toBeCloseTo(30 * (1 - line.distance_m / 10000), 1);
    expect(line.estimate_mw.high).toBeCloseTo(100 * (1 - line.distance_m / 10000), 1);
  });

  it('answers a known zero far from any line, the distant features still listed', async () => {
    const response = await estimate(FAR);
    expect(response.status).toBe(200);
    expect(response.body.estimate_mw).toEqual({ low: 0, high: 0 });
    expect(response.body.basis).toHaveLength(2);
    for (const feature of response.body.basis) {
      expect(feature.distance_m).toBeGreaterThan(10_000);
      expect(feature.estimate_mw).toEqual({ low: 0, high: 0 });
    }
  });

  it('refuses a bad point with a D1 422, and a role outside D8 with 403', async () => {
    const bad = await estimate({ ...NEAR, latitude: 91 });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'latitude']);
    const analyst = await app.post('/v1/internal/hosting-capacity/estimate', NEAR, { headers: session('analyst') });
    expect(analyst.status).toBe(403);
  });

  it('answers the utility findings of a parcel with a service token, computed at its point, with provenance', async () => {
    const { id, secret } = await createServiceToken(authDb(app.stack.database.db), 'acme', 'grid-bot');
    const headers = { authorization: `Bearer ${secret}`, 'x-service-token-id': id };
    const response = await app.get('/v1/internal/utility-findings', { query: { vintage_id: vintage, parcel_key: 'near' }, headers });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({ market: 'grid-ok', vintage_id: vintage, parcel_key: 'near', location: { lat: 35.01, lon: -97 } });
    expect(body.findings.nearest_substation_distance_m).toBeCloseTo(1109.4, 0);
    expect(body.findings.nearest_substation_max_voltage_kv).toBe(345);
    expect(body.findings.nearest_transmission_line_voltage_kv).toBe(138);
    expect(body.findings.substations_within_radius_count).toBe(1);
    expect(body.provenance.nearest_substation_distance_m).toEqual({ layers: [{ source: 'hifld_substations', layer_version: substations }], formula_version: null });
    expect(body.provenance.nearest_transmission_line_owner).toEqual({ layers: [{ source: 'hifld_transmission_lines', layer_version: lines }], formula_version: null });
    // Every utility field is answered; those of sources not loaded say why.
    expect(Object.keys(body.findings)).toContain('electric_utility_service_territory');
    expect(body.findings.nearest_power_plant_distance_m).toBeNull();
    expect(body.null_reasons.nearest_power_plant_distance_m).toBe('no_coverage');
    expect(body.null_reasons.nearest_substation_distance_m).toBeUndefined();
  });

  it('answers a vintage that is no longer current, and the same findings to an admin session', async () => {
    const response = await app.get('/v1/internal/utility-findings', { query: { vintage_id: oldVintage, parcel_key: 'near' }, headers: ADMIN });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.vintage_id).toBe(oldVintage);
    expect(response.body.findings.nearest_substation_max_voltage_kv).toBe(345);
  });

  it('answers 404 for an unknown parcel or vintage, 403 to a tenant not entitled and to an analyst, 409 for a parcel without a point', async () => {
    const ask = (query: Record<string, string>, headers: Record<string, string> = ADMIN) => app.get('/v1/internal/utility-findings', { query, headers });
    const noParcel = await ask({ vintage_id: vintage, parcel_key: 'nowhere' });
    expect([noParcel.status, noParcel.body.code]).toEqual([404, 'parcel_not_found']);
    const noVintage = await ask({ vintage_id: '00000000-0000-4000-8000-000000000001', parcel_key: 'near' });
    expect([noVintage.status, noVintage.body.code]).toEqual([404, 'vintage_not_found']);
    const notUuid = await ask({ vintage_id: 'v1', parcel_key: 'near' });
    expect([notUuid.status, notUuid.body.code]).toEqual([404, 'vintage_not_found']);
    const { id, secret } = await createServiceToken(authDb(app.stack.database.db), 'globex', 'other-bot');
    const otherTenant = await ask({ vintage_id: vintage, parcel_key: 'near' }, { authorization: `Bearer ${secret}`, 'x-service-token-id': id });
    expect([otherTenant.status, otherTenant.body.code]).toEqual([403, 'not_entitled']);
    const analyst = await ask({ vintage_id: vintage, parcel_key: 'near' }, session('analyst'));
    expect([analyst.status, analyst.body.code]).toEqual([403, 'forbidden']);
    const pointless = await ask({ vintage_id: vintage, parcel_key: 'pointless' });
    expect([pointless.status, pointless.body.code]).toEqual([409, 'parcel_without_location']);
  });
});
