// The parcel at a point (the parcel_record group): discovery's LocateParcels over Connect —
// exact intersect (holes outside, every part of a multipolygon inside), else the nearest boundary
// within a bounded radius, else none_within_radius; no_coverage without any vintage — and the
// catalog's EvaluatePoints answering the parcel_record fields from it. PGlite and PostgreSQL.

import type { MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTenant, authDb } from '@landscreen/auth-service';
import { discoveryDb, ensureMarket } from '@landscreen/discovery-service';
import { catalogv1, discoveryv1 } from '@landscreen/proto';
import { callerHeaders, type Caller } from '@landscreen/rpc';
import { DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestFeature, type TestStack } from '@landscreen/testing';

// WGS84 meters per degree of latitude at `lat` (the meridian's radius of curvature), written out
// here rather than taken from the code under test.
function metersPerDegreeLat(lat: number): number {
  const a = 6_378_137;
  const f = 1 / 298.257_223_563;
  const e2 = f * (2 - f);
  const s = Math.sin((lat * Math.PI) / 180);
  return ((a * (1 - e2)) / (1 - e2 * s * s) ** 1.5) * (Math.PI / 180);
}

const square = (minLon: number, minLat: number, maxLon: number, maxLat: number) => [
  [minLon, minLat],
  [maxLon, minLat],
  [maxLon, maxLat],
  [minLon, maxLat],
  [minLon, minLat],
];

// A 0.01° square with a 0.004° square hole in its middle.
const HOLED: TestFeature = {
  geometry: { type: 'Polygon', coordinates: [square(-97, 30, -96.99, 30.01), square(-96.997, 30.003, -96.993, 30.007)] },
  properties: { parcel_key: 'holed', apn: 'H-1', address: '1 Ring Rd', owner_name: 'Ring LLC', zoning: 'industrial', acres: 230 },
};
// Two parts 2 km apart.
const MULTI: TestFeature = {
  geometry: { type: 'MultiPolygon', coordinates: [[square(-96.98, 30, -96.975, 30.005)], [square(-96.96, 30, -96.955, 30.005)]] },
  properties: { parcel_key: 'multi', apn: 'M-1', acres: 120 },
};
// Alone, more than 10 km from the others.
const LONE: TestFeature = { geometry: { type: 'Polygon', coordinates: [square(-96.9, 30.1, -96.89, 30.11)] }, properties: { parcel_key: 'lone', apn: 'L-1' } };

const IN_HOLED_RING = { lat: 30.001, lon: -96.999 };
// The hole's centre: 0.002° of longitude (about 193 m) from the hole's east and west edges.
const IN_THE_HOLE = { lat: 30.005, lon: -96.995 };
const IN_SECOND_PART = { lat: 30.0025, lon: -96.9575 };
// 100 m north of the lone parcel's north edge, above its middle.
const NORTH_OF_LONE = { lat: 30.11 + 100 / metersPerDegreeLat(30.11), lon: -96.895 };
const NOWHERE = { lat: 31, lon: -96 };

describe.each(DATABASE_MODES)('LocateParcels and the parcel_record group on %s', (mode) => {
  let app: TestStack;
  let discovery: Client<typeof discoveryv1.DiscoveryService>;
  let catalog: Client<typeof catalogv1.CatalogService>;
  const callers: Record<string, Caller> = {};
  const as = (tenant: string) => ({ headers: callerHeaders(callers[tenant]) });
  const locate = (tenant: string, request: MessageInitShape<typeof discoveryv1.LocateParcelsRequestSchema>) => discovery.locateParcels(request, as(tenant));
  const code = (error: unknown) => (error instanceof ConnectError ? error.code : error);

  beforeAll(async () => {
    app = await startTestStack(mode);
    const db = app.stack.database.db;
    for (const tenant of ['acme', 'globex', 'initech']) {
      expect((await app.get('/v1/me', { headers: { authorization: `Bearer dev:admin@${tenant}.test:admin`, 'x-tenant': tenant } })).status).toBe(200);
      const found = (await findTenant(authDb(db), tenant))!;
      callers[tenant] = { tenantId: found.id, tenantSlug: tenant, tenantName: tenant, identityId: '', email: `admin@${tenant}.test`, role: 'admin', kind: 'dev', sessionId: '' };
    }
    await loadMarket(db, 'locate-tx', [HOLED, MULTI, LONE]);
    // A market acme is not entitled to, with a parcel right under a point acme asks about.
    await loadMarket(db, 'locate-other', [{ geometry: { type: 'Polygon', coordinates: [square(-96.0005, 30.9995, -95.9995, 31.0005)] }, properties: { parcel_key: 'other' } }]);
    await ensureMarket(discoveryDb(db), 'locate-empty');
    await entitleTenant(db, 'acme', 'locate-tx');
    await entitleTenant(db, 'acme', 'locate-empty');
    await entitleTenant(db, 'globex', 'locate-other');
    const module = (name: string) => app.stack.modules.find((candidate) => candidate.name === name)!;
    discovery = createClient(discoveryv1.DiscoveryService, createRouterTransport(module('discovery').routes));
    catalog = createClient(catalogv1.CatalogService, createRouterTransport(module('catalog').routes));
    // Starting the stack on PGlite takes over a minute on a loaded 2-core machine.
  });
  afterAll(async () => {
    await app?.close();
  });

  it('matches the polygon containing the point, with its record, and not a point in its hole', async () => {
    const answer = await locate('acme', { market: 'locate-tx', points: [IN_HOLED_RING, IN_THE_HOLE], radiusM: 50 });
    expect(answer.radiusM).toBe(50);
    expect(answer.vintageIds).toHaveLength(1);
    const [ring, hole] = answer.locations;
    expect(ring.nullReason).toBe('');
    expect(ring.parcel).toMatchObject({
      matchType: 'exact_intersect',
      distanceM: 0,
      radiusM: 0,
      market: 'locate-tx',
      vintageId: answer.vintageIds[0],
      parcelKey: 'holed',
      apn: 'H-1',
      address: '1 Ring Rd',
      owner: 'Ring LLC',
      zoning: 'industrial',
      acres: 230,
    });
    // The geometry comes back as it was stored, hole included.
    expect(JSON.parse(new TextDecoder().decode(ring.parcel!.geometryJson))).toEqual(HOLED.geometry);
    // 0.01° x 0.01° minus 0.004° x 0.004° at 30°N: about 1,069,000 - 171,000 m².
    expect(ring.parcel!.areaM2).toBeGreaterThan(890_000);
    expect(ring.parcel!.areaM2).toBeLessThan(905_000);
    // The hole's edges are about 193 m away: nothing within 50 m.
    expect(hole.parcel).toBeUndefined();
    expect(hole.nullReason).toBe('none_within_radius');
  });

  it('finds the hole-edge of the surrounding parcel once the radius reaches it', async () => {
    const [hole] = (await locate('acme', { market: 'locate-tx', points: [IN_THE_HOLE], radiusM: 250 })).locations;
    expect(hole.parcel).toMatchObject({ matchType: 'nearest_within_radius', parcelKey: 'holed', radiusM: 250 });
    // 0.002° of longitude at 30.005°N: cos φ · N(φ) · π/180 · 0.002 = 192.9 m.
    expect(Math.abs(hole.parcel!.distanceM - 192.9) / 192.9).toBeLessThan(0.005);
  });

  it("matches a point on a multipolygon's second part", async () => {
    const [second] = (await locate('acme', { market: 'locate-tx', points: [IN_SECOND_PART] })).locations;
    expect(second.parcel).toMatchObject({ matchType: 'exact_intersect', parcelKey: 'multi', apn: 'M-1' });
    expect(JSON.parse(new TextDecoder().decode(second.parcel!.geometryJson))).toEqual(MULTI.geometry);
  });

  it('finds a parcel 100 m away only with a radius that reaches it (hand-computed)', async () => {
    const [narrow] = (await locate('acme', { market: 'locate-tx', points: [NORTH_OF_LONE], radiusM: 50 })).locations;
    expect(narrow).toMatchObject({ nullReason: 'none_within_radius' });
    expect(narrow.parcel).toBeUndefined();
    const [wide] = (await locate('acme', { market: 'locate-tx', points: [NORTH_OF_LONE], radiusM: 200 })).locations;
    expect(wide.nullReason).toBe('');
    expect(wide.parcel).toMatchObject({ matchType: 'nearest_within_radius', parcelKey: 'lone', radiusM: 200 });
    expect(Math.abs(wide.parcel!.distanceM - 100) / 100).toBeLessThan(0.005);
    // The default radius, 100 m, is just short of it or just reaches it: the exact boundary is not asserted.
    const [byDefault] = (await locate('acme', { market: 'locate-tx', points: [{ ...NORTH_OF_LONE, lat: NORTH_OF_LONE.lat + 0.0005 }] })).locations;
    expect(byDefault.nullReason).toBe('none_within_radius');
  });

  it('searches every entitled market when none is named, and only those', async () => {
    const answer = await locate('acme', { points: [IN_SECOND_PART, NOWHERE] });
    // locate-empty has no vintage: only locate-tx's is searched.
    expect(answer.vintageIds).toHaveLength(1);
    expect(answer.locations[0].parcel?.parcelKey).toBe('multi');
    // locate-other's parcel is right there, but acme may not read it.
    expect(answer.locations[1]).toMatchObject({ nullReason: 'none_within_radius' });
    const globex = await locate('globex', { points: [NOWHERE, IN_SECOND_PART] });
    expect(globex.locations[0].parcel).toMatchObject({ parcelKey: 'other', market: 'locate-other', matchType: 'exact_intersect' });
    expect(globex.locations[1].nullReason).toBe('none_within_radius');
  });

  it('answers no_coverage where no vintage can be searched', async () => {
    const none = await locate('initech', { points: [IN_HOLED_RING] });
    expect(none.vintageIds).toEqual([]);
    expect(none.locations[0]).toMatchObject({ nullReason: 'no_coverage' });
    const empty = await locate('acme', { market: 'locate-empty', points: [IN_HOLED_RING] });
    expect(empty.locations[0]).toMatchObject({ nullReason: 'no_coverage' });
  });

  it('refuses an unknown or unentitled market, bad points and radii, and a call without a caller', async () => {
    await expect(locate('acme', { market: 'nope', points: [IN_HOLED_RING] }).catch(code)).resolves.toBe(Code.NotFound);
    await expect(locate('acme', { market: 'locate-other', points: [IN_HOLED_RING] }).catch(code)).resolves.toBe(Code.PermissionDenied);
    for (const bad of [{ points: [] }, { points: [{ lat: 91, lon: 0 }] }, { points: [IN_HOLED_RING], radiusM: 0 }, { points: [IN_HOLED_RING], radiusM: 1001 }]) {
      await expect(locate('acme', bad).catch(code)).resolves.toBe(Code.InvalidArgument);
    }
    await expect(discovery.locateParcels({ points: [IN_HOLED_RING] }).catch(code)).resolves.toBe(Code.Unauthenticated);
  });

  it('uses the market’s new vintage once it is current', async () => {
    const db = app.stack.database.db;
    const moved: TestFeature = { geometry: { type: 'Polygon', coordinates: [square(-96.8, 30.2, -96.79, 30.21)] }, properties: { parcel_key: 'moved' } };
    const { vintageId } = await loadMarket(db, 'locate-other', [moved]);
    const answer = await locate('globex', { market: 'locate-other', points: [NOWHERE, { lat: 30.205, lon: -96.795 }] });
    expect(answer.vintageIds).toEqual([vintageId]);
    expect(answer.locations[0].nullReason).toBe('none_within_radius');
    expect(answer.locations[1].parcel).toMatchObject({ parcelKey: 'moved', vintageId });
  });

  describe('EvaluatePoints', () => {
    const FIELDS = ['parcel_id', 'parcel_apn', 'parcel_match_type', 'parcel_match_distance_m', 'parcel_match_radius_m', 'parcel_boundary_geojson', 'parcel_data_source'];
    const evaluate = (tenant: string, locations: { lat: number; lon: number }[], extra: MessageInitShape<typeof catalogv1.EvaluatePointsRequestSchema> = {}) =>
      catalog.evaluatePoints({ locations: locations.map((location, i) => ({ ...location, id: `p${i}` })), fields: FIELDS, ...extra }, as(tenant));
    const byField = (answers: catalogv1.FieldAnswer[]) => Object.fromEntries(answers.map((answer) => [answer.field, answer]));

    it('answers the parcel_record group from the parcel at each point, with its vintage as provenance', async () => {
      const { results } = await evaluate('acme', [IN_HOLED_RING, NORTH_OF_LONE, IN_THE_HOLE], { parcelMarket: 'locate-tx', parcelRadiusM: 200 });
      const ring = byField(results[0].answers);
      expect(ring.parcel_id.value).toEqual({ case: 'stringValue', value: 'holed' });
      expect(ring.parcel_apn.value).toEqual({ case: 'stringValue', value: 'H-1' });
      expect(ring.parcel_match_type.value).toEqual({ case: 'stringValue', value: 'exact_intersect' });
      expect(ring.parcel_match_distance_m.value.value).toBe(0);
      expect(ring.parcel_match_radius_m.value.value).toBe(0);
      expect(JSON.parse(ring.parcel_boundary_geojson.value.value as string)).toEqual(HOLED.geometry);
      expect(ring.parcel_data_source).toMatchObject({ value: { case: undefined }, nullReason: 'not_published' });
      const vintage = ring.parcel_id.provenance!.layers[0];
      expect(vintage.source).toBe('parcel_vendor');
      const lone = byField(results[1].answers);
      expect(lone.parcel_id.value.value).toBe('lone');
      expect(lone.parcel_match_type.value.value).toBe('nearest_within_radius');
      expect(Math.abs((lone.parcel_match_distance_m.value.value as number) - 100) / 100).toBeLessThan(0.005);
      expect(lone.parcel_match_radius_m.value.value).toBe(200);
      // The hole's centre is 193 m from the ring: within 200 m.
      expect(byField(results[2].answers).parcel_id.value.value).toBe('holed');
    });

    it('answers none_within_radius where nothing is near, and no_coverage without any vintage', async () => {
      const near = await evaluate('acme', [NORTH_OF_LONE], { parcelRadiusM: 50 });
      for (const answer of near.results[0].answers) expect(answer).toMatchObject({ value: { case: undefined }, nullReason: 'none_within_radius' });
      const uncovered = await evaluate('initech', [IN_HOLED_RING]);
      for (const answer of uncovered.results[0].answers) expect(answer).toMatchObject({ value: { case: undefined }, nullReason: 'no_coverage' });
    });

    it('refuses a radius out of bounds and passes on an unentitled market', async () => {
      await expect(evaluate('acme', [IN_HOLED_RING], { parcelRadiusM: 5000 }).catch(code)).resolves.toBe(Code.InvalidArgument);
      await expect(evaluate('acme', [IN_HOLED_RING], { parcelMarket: 'locate-other' }).catch(code)).resolves.toBe(Code.PermissionDenied);
    });
  });
});
