import type { MessageInitShape } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type { discoveryv1 } from '@landscreen/proto';
import { forbidden, issue, jsonBytes, notFound, requireCaller, validationError, type ValidationIssue } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import type { ParcelHit, ParcelIndex } from '../locate/parcel-index.js';
import type { ParcelIndexes } from '../locate/parcel-indexes.js';
import { entitledColumn } from '../market-access.js';

/** As many points as the largest batch of the point-data API (D35's runs). */
export const MAX_POINTS = 100_000;
/** The radius when the request names none: a point on a road or a driveway still finds its parcel. */
export const DEFAULT_RADIUS_M = 100;
/** The largest radius: farther than this, "the parcel at the point" is no longer a fair answer. */
export const MAX_RADIUS_M = 1_000;

type Response = MessageInitShape<typeof discoveryv1.LocateParcelsResponseSchema>;
type LocationInit = MessageInitShape<typeof discoveryv1.ParcelLocationSchema>;

interface SearchedVintage {
  market: string;
  index: ParcelIndex;
}

/**
 * The parcel at each point (the engine's parcel_record group, /v1/lookup's include_parcel): exact
 * intersect in any searched vintage first, else the nearest boundary within the radius across
 * them (ties: the first market by slug). Searched: the current vintage of the one market named
 * (404/403 as every market request), else those of every market the caller's tenant is entitled to.
 */
export function locateParcelsHandler(context: DiscoveryContext, indexes: ParcelIndexes) {
  return async (request: discoveryv1.LocateParcelsRequest, call: HandlerContext): Promise<Response> => {
    const { tenantId } = requireCaller(call);
    const issues = validate(request);
    if (issues.length > 0) throw validationError(issues);
    const radiusM = request.radiusM ?? DEFAULT_RADIUS_M;
    const current = await currentVintages(context, tenantId, request.market);
    const vintages: SearchedVintage[] = await Promise.all(current.map(async ({ market, vintageId }) => ({ market, index: await indexes.index(vintageId) })));
    const locations = request.points.map((point): LocationInit => {
      if (vintages.length === 0) return { nullReason: 'no_coverage' };
      const found = locate(vintages, point.lon, point.lat, radiusM);
      if (!found) return { nullReason: 'none_within_radius' };
      const { vintage, hit } = found;
      const parcel = vintage.index.parcel(hit.id);
      const exact = hit.match_type === 'exact_intersect';
      return {
        parcel: {
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
          geometryJson: request.omitGeometry ? undefined : jsonBytes(parcel.geometry),
        },
      };
    });
    return { locations, radiusM, vintageIds: vintages.map((vintage) => vintage.index.vintageId) };
  };
}

function locate(vintages: readonly SearchedVintage[], lon: number, lat: number, radiusM: number) {
  let best: { vintage: SearchedVintage; hit: ParcelHit } | null = null;
  for (const vintage of vintages) {
    const hit = vintage.index.locate(lon, lat, radiusM);
    if (!hit) continue;
    if (hit.match_type === 'exact_intersect') return { vintage, hit };
    if (!best || hit.distance_m < best.hit.distance_m) best = { vintage, hit };
  }
  return best;
}

/** The current vintage of the named market (checked as D16 says), or of every entitled market. */
async function currentVintages(context: DiscoveryContext, tenantId: string, market: string): Promise<{ market: string; vintageId: string }[]> {
  const query = context.db.selectFrom('markets').select(['slug', 'current_vintage_id', entitledColumn(tenantId)]);
  if (market !== '') {
    const row = await query.where('slug', '=', market).executeTakeFirst();
    if (!row) throw notFound('market_not_found', `No market "${market}".`);
    if (!row.entitled) throw forbidden('not_entitled', `Your organization is not entitled to market "${market}".`);
    // A market with nothing loaded yet has no parcel anywhere: every point answers no_coverage.
    return row.current_vintage_id ? [{ market: row.slug, vintageId: row.current_vintage_id }] : [];
  }
  const rows = await query.where('current_vintage_id', 'is not', null).orderBy('slug').execute();
  return rows.filter((row) => row.entitled).map((row) => ({ market: row.slug, vintageId: row.current_vintage_id! }));
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
