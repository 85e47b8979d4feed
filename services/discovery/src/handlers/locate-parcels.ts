import type { MessageInitShape } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type { discoveryv1 } from '@landscreen/proto';
import { forbidden, issue, jsonBytes, notFound, requireCaller, validationError, type ValidationIssue } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import type { ParcelIndex } from '../locate/parcel-index.js';
import { entitledColumn } from '../market-access.js';
import { MarketElsewhere, type Forwarder } from '../placement/forward.js';

/** As many points as the largest batch of the point-data API (D35's runs). */
export const MAX_POINTS = 100_000;
/** The radius when the request names none: a point on a road or a driveway still finds its parcel. */
export const DEFAULT_RADIUS_M = 100;
/** The largest radius: farther than this, "the parcel at the point" is no longer a fair answer. */
export const MAX_RADIUS_M = 1_000;

type Response = MessageInitShape<typeof discoveryv1.LocateParcelsResponseSchema>;
type LocationInit = MessageInitShape<typeof discoveryv1.ParcelLocationSchema>;
type LocatedInit = MessageInitShape<typeof discoveryv1.LocatedParcelSchema>;

/** One searched market: its parcel index here, or what its holder answered for every point. */
type Searched =
  | { market: string; vintageId: string; index: ParcelIndex }
  | { market: string; vintageId: string; answered: discoveryv1.LocateParcelsResponse };

/**
 * The parcel at each point (the engine's parcel_record group, /v1/lookup's include_parcel): exact
 * intersect in any searched vintage first, else the nearest boundary within the radius across
 * them (ties: the first market by slug). Searched: the current vintage of the one market named
 * (404/403 as every market request), else those of every market the caller's tenant is entitled to.
 * Each market is searched where its parcel index is held: here, or by the replica holding it, over
 * this same RPC for that market alone; the answers are merged point by point as one search would.
 */
export function locateParcelsHandler(context: DiscoveryContext, forwarder: Forwarder) {
  return async (request: discoveryv1.LocateParcelsRequest, call: HandlerContext): Promise<Response> => {
    const { tenantId } = requireCaller(call);
    const issues = validate(request);
    if (issues.length > 0) throw validationError(issues);
    const radiusM = request.radiusM ?? DEFAULT_RADIUS_M;
    const current = await currentVintages(context, tenantId, request.market);
    const searched = await Promise.all(current.map((vintage) => search(context, forwarder, vintage, request, call)));
    const locations = request.points.map((point, i): LocationInit => {
      if (searched.length === 0) return { nullReason: 'no_coverage' };
      const found = locate(searched, i, point.lon, point.lat, radiusM, request.omitGeometry);
      return found ? { parcel: found } : { nullReason: 'none_within_radius' };
    });
    return { locations, radiusM, vintageIds: searched.map((vintage) => vintage.vintageId) };
  };
}

async function search(context: DiscoveryContext, forwarder: Forwarder, vintage: CurrentVintage, request: discoveryv1.LocateParcelsRequest, call: HandlerContext): Promise<Searched> {
  const market = { id: vintage.marketId, slug: vintage.market };
  const access = { market, vintage: { id: vintage.vintageId, freeFactFields: [], derivedFields: [], fieldProvenance: null } };
  try {
    return { market: vintage.market, vintageId: vintage.vintageId, index: await context.indexes.parcels(access, call) };
  } catch (error) {
    if (!(error instanceof MarketElsewhere)) throw error;
    const answered = (await forwarder.send(error.route, market, 'locateParcels', { ...request, market: vintage.market }, call)) as discoveryv1.LocateParcelsResponse;
    return { market: vintage.market, vintageId: answered.vintageIds[0] ?? vintage.vintageId, answered };
  }
}

/** The parcel at point `i`: the first exact intersect in market order, else the nearest boundary (ties: the first market). */
function locate(searched: readonly Searched[], i: number, lon: number, lat: number, radiusM: number, omitGeometry: boolean): LocatedInit | null {
  let best: LocatedInit | null = null;
  for (const vintage of searched) {
    const found = 'index' in vintage ? locatedHere(vintage, lon, lat, radiusM, omitGeometry) : vintage.answered.locations[i]?.parcel;
    if (!found) continue;
    if (found.matchType === 'exact_intersect') return found;
    if (!best || found.distanceM! < best.distanceM!) best = found;
  }
  return best;
}

function locatedHere(vintage: Extract<Searched, { index: ParcelIndex }>, lon: number, lat: number, radiusM: number, omitGeometry: boolean): LocatedInit | null {
  const hit = vintage.index.locate(lon, lat, radiusM);
  if (!hit) return null;
  const parcel = vintage.index.parcel(hit.id);
  const exact = hit.match_type === 'exact_intersect';
  return {
    matchType: hit.match_type,
    distanceM: exact ? 0 : hit.distance_m,
    radiusM: exact ? 0 : radiusM,
    market: vintage.market,
    vintageId: vintage.index.vintageId,
    parcelKey: parcel.parcel_key,
    apn: parcel.apn ?? undefined,
    address: parcel.address ?? undefined,
    owner: parcel.owner_name ?? undefined,
    zoning: parcel.zoning ?? undefined,
    areaM2: parcel.area_m2,
    acres: parcel.acres ?? undefined,
    lat: parcel.lat ?? undefined,
    lon: parcel.lon ?? undefined,
    geometryJson: omitGeometry ? undefined : jsonBytes(parcel.geometry),
  };
}

interface CurrentVintage {
  market: string;
  marketId: string;
  vintageId: string;
}

/** The current vintage of the named market (checked as D16 says), or of every entitled market. */
async function currentVintages(context: DiscoveryContext, tenantId: string, market: string): Promise<CurrentVintage[]> {
  const query = context.db.selectFrom('markets').select(['id', 'slug', 'current_vintage_id', entitledColumn(tenantId)]);
  if (market !== '') {
    const row = await query.where('slug', '=', market).executeTakeFirst();
    if (!row) throw notFound('market_not_found', `No market "${market}".`);
    if (!row.entitled) throw forbidden('not_entitled', `Your organization is not entitled to market "${market}".`);
    // A market with nothing loaded yet has no parcel anywhere: every point answers no_coverage.
    return row.current_vintage_id ? [{ market: row.slug, marketId: row.id, vintageId: row.current_vintage_id }] : [];
  }
  const rows = await query.where('current_vintage_id', 'is not', null).orderBy('slug').execute();
  return rows.filter((row) => row.entitled).map((row) => ({ market: row.slug, marketId: row.id, vintageId: row.current_vintage_id! }));
}

function validate(request: discoveryv1.LocateParcelsRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (request.points.length === 0) issues.push(issue.tooShort(['body', 'points'], [], 1, 0));
  if (request.points.length > MAX_POINTS) issues.push(issue.tooLong(['body', 'points'], undefined, MAX_POINTS, request.points.length));
  const radius = request.radiusM;
  if (radius !== undefined) {
    if (!(radius > 0)) issues.push(issue.greaterThan(['body', 'radius_m'], radius, 0));
    else if (!(radius <= MAX_RADIUS_M)) issues.push(issue.lessThanEqual(['body', 'radius_m'], radius, MAX_RADIUS_M));
  }
  request.points.forEach((point, i) => {
    if (!(point.lat >= -90 && point.lat <= 90)) issues.push(issue.valueError(['body', 'points', i, 'lat'], point.lat, 'latitude must be within [-90, 90]'));
    if (!(point.lon >= -180 && point.lon <= 180)) issues.push(issue.valueError(['body', 'points', i, 'lon'], point.lon, 'longitude must be within [-180, 180]'));
  });
  return issues;
}
