import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { createClient, type Client, type HandlerContext, type Transport } from '@connectrpc/connect';
import { CREDIT_COSTS, fieldsOfGroup } from '@landscreen/field-catalog';
import { catalogv1, discoveryv1 } from '@landscreen/proto';
import { issue, notFound, onBehalfOf, requireCaller, validationError, type ValidationIssue } from '@landscreen/rpc';
import { billedRequest, billingStatusMessage, requestHash, type BillingContext } from '../billing/index.js';
import { evaluateLocations, type EvaluatePointsFn } from '../fetch/evaluate.js';
import { answerFetchValues } from '@landscreen/fetch-results';

/** The radius when the request names none (the gateway's default too). */
export const DEFAULT_LOOKUP_RADIUS_M = 250;
/** LocateParcels' largest radius. */
export const MAX_LOOKUP_RADIUS_M = 1_000;

/** Every field of the parcel_record group, in catalog order: what include_parcel answers. */
const PARCEL_FIELDS = fieldsOfGroup('parcel_record').map((field) => field.name);

type Match = MessageInitShape<typeof catalogv1.LookupMatchSchema> & { lat: number; lon: number };

interface Prepared {
  match: Match;
  /** The parcel-record fields at the match, with include_parcel. */
  parcel?: MessageInitShape<typeof catalogv1.LookupParcelSchema>;
}

/** The stored (replayable) part of an answer: everything but the per-request billing status. */
const codec = {
  encode: (answer: catalogv1.LookupResponse) => toBinary(catalogv1.LookupResponseSchema, answer),
  decode: (bytes: Uint8Array) => fromBinary(catalogv1.LookupResponseSchema, bytes),
};

/**
 * POST /v1/lookup (D35; response shape in docs/decisions.md, "POST /v1/lookup"): an address
 * geocoded against the loaded parcels' addresses (discovery's GeocodeAddress), or a point
 * (reverse: the address of the parcel there, if any); with include_parcel, the parcel-record
 * group at the location through the same engine code as fetch/batch (exact intersect, else the
 * nearest within radius_m). Billed `geocode`, or the plan's resolve_credits with include_parcel;
 * an address that matches nothing is 404 with nothing charged.
 */
export function lookupHandler(billing: BillingContext, evaluate: EvaluatePointsFn, discoveryTransport: () => Transport) {
  let discovery: Client<typeof discoveryv1.DiscoveryService> | undefined;
  const peer = () => (discovery ??= createClient(discoveryv1.DiscoveryService, discoveryTransport()));
  return async (request: catalogv1.LookupRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    const issues = validate(request);
    if (issues.length > 0) throw validationError(issues);
    const radiusM = request.radiusM ?? DEFAULT_LOOKUP_RADIUS_M;
    const market = request.market ?? '';
    const key = request.idempotencyKey;

    const outcome = await billedRequest<catalogv1.LookupResponse, Prepared>(billing, {
      tenantId,
      operation: request.includeParcel ? 'resolve' : 'geocode',
      price: (plan) => ({ credits: request.includeParcel ? plan.resolve_credits : CREDIT_COSTS.geocode, locations: 1, fields: request.includeParcel ? PARCEL_FIELDS.length : 0 }),
      requestId: call.requestHeader.get('x-request-id') ?? undefined,
      idempotency: key ? { key, requestHash: requestHash('lookup', canonicalRequest(request, radiusM)) } : undefined,
      prepare: async (): Promise<Prepared> => {
        const match = request.address !== undefined ? await geocode(peer(), request.address, market, call) : await reverse(peer(), request.lat!, request.lon!, market, radiusM, call);
        if (!request.includeParcel) return { match };
        const [result] = await evaluateLocations(evaluate, { locations: [match], fields: PARCEL_FIELDS, parcelMarket: market || undefined, parcelRadiusM: radiusM }, call);
        return { match, parcel: { fields: PARCEL_FIELDS, values: answerFetchValues(result.answers) } };
      },
      work: async (_trx, charge, prepared) =>
        create(catalogv1.LookupResponseSchema, {
          query: { address: request.address, lat: request.lat, lon: request.lon, market: request.market, includeParcel: request.includeParcel, radiusM },
          match: prepared.match,
          parcel: prepared.parcel,
          credits: { charged: BigInt(charge.credits), balance: BigInt(charge.remaining) },
        }),
      codec,
    });
    const { query, match, parcel, credits } = outcome.answer;
    return create(catalogv1.LookupResponseSchema, { query, match, parcel, credits, billing: billingStatusMessage(outcome.billing) });
  };
}

async function geocode(discovery: Client<typeof discoveryv1.DiscoveryService>, address: string, market: string, call: HandlerContext): Promise<Match> {
  const found = await discovery.geocodeAddress({ address, market, limit: 1 }, onBehalfOf(call));
  const best = found.matches[0];
  if (!best || best.lat === undefined || best.lon === undefined) {
    throw notFound('address_not_found', found.vintageIds.length === 0
      ? 'No parcels are loaded in a market you are entitled to; nothing to geocode against.'
      : `No loaded parcel address matches "${address}".`, { normalised: found.normalised });
  }
  return {
    lat: best.lat,
    lon: best.lon,
    address: best.address,
    score: Math.round(best.score * 1e6) / 1e6,
    matchType: best.match === 'exact' ? 'address_exact' : 'address_similar',
    market: best.market,
    parcelKey: best.parcelKey,
  };
}

/** A point's own match: the address of the parcel at (or nearest within the radius of) it, if any. */
async function reverse(discovery: Client<typeof discoveryv1.DiscoveryService>, lat: number, lon: number, market: string, radiusM: number, call: HandlerContext): Promise<Match> {
  const located = await discovery.locateParcels({ points: [{ lat, lon }], market, radiusM, omitGeometry: true }, onBehalfOf(call));
  const parcel = located.locations[0]?.parcel;
  return { lat, lon, address: parcel?.address, matchType: 'point', market: parcel?.market, parcelKey: parcel?.parcelKey };
}

function canonicalRequest(request: catalogv1.LookupRequest, radiusM: number) {
  return [request.address ?? null, request.lat ?? null, request.lon ?? null, request.market ?? null, request.includeParcel, radiusM];
}

function validate(request: catalogv1.LookupRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const hasPoint = request.lat !== undefined || request.lon !== undefined;
  if (request.address !== undefined && hasPoint) {
    issues.push(issue.valueError(['body'], null, 'give an address or a point (lat and lon), not both'));
  } else if (request.address === undefined && !hasPoint) {
    issues.push(issue.valueError(['body'], null, 'give an address or a point (lat and lon)'));
  } else if (hasPoint) {
    if (request.lat === undefined) issues.push(issue.missing(['body', 'lat']));
    if (request.lon === undefined) issues.push(issue.missing(['body', 'lon']));
  }
  if (request.address !== undefined && request.address.trim() === '') issues.push(issue.valueError(['body', 'address'], request.address, 'the address is empty'));
  if (request.lat !== undefined && !(request.lat >= -90 && request.lat <= 90)) issues.push(issue.valueError(['body', 'lat'], request.lat, 'latitude must be within [-90, 90]'));
  if (request.lon !== undefined && !(request.lon >= -180 && request.lon <= 180)) issues.push(issue.valueError(['body', 'lon'], request.lon, 'longitude must be within [-180, 180]'));
  const radius = request.radiusM;
  if (radius !== undefined) {
    if (!(radius > 0)) issues.push(issue.greaterThan(['body', 'radius_m'], radius, 0));
    else if (!(radius <= MAX_LOOKUP_RADIUS_M)) issues.push(issue.lessThanEqual(['body', 'radius_m'], radius, MAX_LOOKUP_RADIUS_M));
  }
  return issues;
}

