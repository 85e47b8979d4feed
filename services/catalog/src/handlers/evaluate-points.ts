import { createClient, type Client, type HandlerContext, type Transport } from '@connectrpc/connect';
import { closestMatch, evaluatorOf, FIELD_BY_NAME, FIELDS } from '@landscreen/field-catalog';
import type { ParcelMatch, PolygonalGeometry } from '@landscreen/point-engine';
import { discoveryv1, type catalogv1 } from '@landscreen/proto';
import { issue, onBehalfOf, parseJsonBytes, requireCaller, validationError, type ValidationIssue } from '@landscreen/rpc';
import { locationResults } from '../layers/field-answer.js';
import type { LayerCache } from '../layers/layer-cache.js';

/** As many locations as the largest batch of the spec (D35's runs). */
export const MAX_LOCATIONS = 100_000;
export const MAX_FIELDS = 500;
/** LocateParcels' bounds on the parcel search radius (discovery validates them again). */
export const MAX_PARCEL_RADIUS_M = 1_000;

const FIELD_NAMES = FIELDS.map((field) => field.name);

/** The parcel_record group: fields answered from the parcel matched to the point. */
const PARCEL_FIELDS = new Set(
  FIELDS.filter((field) => {
    const kind = evaluatorOf(field).kind;
    return kind === 'parcel_record' || kind === 'parcel_overlay';
  }).map((field) => field.name),
);
/** Members that read the parcel's polygon (the rest read its key, record and match facts). */
const GEOMETRY_FIELDS = new Set(
  FIELDS.filter((field) => {
    const evaluator = evaluatorOf(field);
    return evaluator.kind === 'parcel_overlay' || (evaluator.kind === 'parcel_record' && (evaluator.item === 'geometry_wkt' || evaluator.item === 'boundary_geojson'));
  }).map((field) => field.name),
);

/**
 * N locations x M catalog fields from the current layer versions. When parcel_record
 * fields are asked, the parcel at each location comes from discovery's LocateParcels (exact
 * intersect, else the nearest within the radius, in the parcels the caller may read): a location
 * with no parcel there answers them null `none_within_radius`, and `no_coverage` when no parcel
 * vintage could be searched at all.
 */
export function evaluatePoints(layers: LayerCache, discoveryTransport?: () => Transport) {
  // Made on first use: a catalog service built without peers (its own tests) still starts.
  let discovery: Client<typeof discoveryv1.DiscoveryService> | undefined;
  return async (request: catalogv1.EvaluatePointsRequest, call: HandlerContext) => {
    const issues = validate(request);
    if (issues.length > 0) throw validationError(issues);
    const parcelFields = request.fields.filter((field) => PARCEL_FIELDS.has(field));
    let parcels: (ParcelMatch | null)[] | undefined;
    if (parcelFields.length > 0 && discoveryTransport) {
      // Parcels are a tenant's entitled data: only a caller acting for a tenant may have them matched.
      requireCaller(call);
      discovery ??= createClient(discoveryv1.DiscoveryService, discoveryTransport());
      parcels = await locateParcels(discovery, request, parcelFields, call);
    }
    const { engine } = await layers.current();
    const answer = await engine.evaluateLoaded(request.locations, request.fields, { parcels });
    const results = locationResults(answer, request.locations.map((location) => location.id));
    // The engine calls a location without a match no_parcel; here a search was made and found nothing within the radius.
    if (parcels) {
      results.forEach((result, n) => {
        if (parcels![n] !== null) return;
        for (const field of result.answers!) if (field.nullReason === 'no_parcel') field.nullReason = 'none_within_radius';
      });
    }
    return { results };
  };
}

/** The parcel at each location, or null; undefined when no vintage could be searched (no_coverage). */
async function locateParcels(
  discovery: Client<typeof discoveryv1.DiscoveryService>,
  request: catalogv1.EvaluatePointsRequest,
  parcelFields: readonly string[],
  call: HandlerContext,
): Promise<(ParcelMatch | null)[] | undefined> {
  const located = await discovery.locateParcels(
    {
      points: request.locations.map(({ lat, lon }) => ({ lat, lon })),
      market: request.parcelMarket ?? '',
      radiusM: request.parcelRadiusM,
      omitGeometry: !parcelFields.some((field) => GEOMETRY_FIELDS.has(field)),
    },
    onBehalfOf(call),
  );
  if (located.vintageIds.length === 0) return undefined;
  return located.locations.map(({ parcel }): ParcelMatch | null =>
    parcel
      ? {
          vintage: parcel.vintageId,
          parcel: {
            id: parcel.parcelKey,
            geometry: parcel.geometryJson.length > 0 ? parseJsonBytes<PolygonalGeometry>(parcel.geometryJson) : null,
            apn: parcel.apn ?? null,
            address: parcel.address ?? null,
            owner: parcel.owner ?? null,
            zoning: parcel.zoning ?? null,
            area_m2: parcel.areaM2,
          },
          match_type: parcel.matchType as ParcelMatch['match_type'],
          distance_m: parcel.distanceM,
          radius_m: parcel.radiusM,
        }
      : null,
  );
}

function validate(request: catalogv1.EvaluatePointsRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (request.locations.length === 0) issues.push(issue.tooShort(['body', 'locations'], [], 1, 0));
  if (request.locations.length > MAX_LOCATIONS) issues.push(issue.tooLong(['body', 'locations'], undefined, MAX_LOCATIONS, request.locations.length));
  if (request.fields.length === 0) issues.push(issue.tooShort(['body', 'fields'], [], 1, 0));
  if (request.fields.length > MAX_FIELDS) issues.push(issue.tooLong(['body', 'fields'], undefined, MAX_FIELDS, request.fields.length));
  request.fields.forEach((name, i) => {
    if (FIELD_BY_NAME.has(name)) return;
    const suggestion = closestMatch(name, FIELD_NAMES);
    const hint = suggestion === null ? '' : ` (did you mean "${suggestion}"?)`;
    issues.push(issue.valueError(['body', 'fields', i], name, `unknown field "${name}"${hint}`, { did_you_mean: suggestion }));
  });
  const radius = request.parcelRadiusM;
  if (radius !== undefined) {
    if (!(radius > 0)) issues.push(issue.greaterThan(['body', 'radius_m'], radius, 0));
    else if (!(radius <= MAX_PARCEL_RADIUS_M)) issues.push(issue.lessThanEqual(['body', 'radius_m'], radius, MAX_PARCEL_RADIUS_M));
  }
  request.locations.forEach((location, i) => {
    if (!(location.lat >= -90 && location.lat <= 90)) issues.push(issue.valueError(['body', 'locations', i, 'lat'], location.lat, 'latitude must be within [-90, 90]'));
    if (!(location.lon >= -180 && location.lon <= 180)) issues.push(issue.valueError(['body', 'locations', i, 'lon'], location.lon, 'longitude must be within [-180, 180]'));
  });
  return issues;
}
