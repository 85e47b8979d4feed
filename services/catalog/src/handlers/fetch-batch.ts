import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { fieldsOfGroup } from '@landscreen/field-catalog';
import { catalogv1 } from '@landscreen/proto';
import { issue, requireCaller, validationError, type ValidationIssue } from '@landscreen/rpc';
import { billedRequest, billingStatusMessage, quoteCredits, requestHash, unbilledRequest, type BillingContext } from '../billing/index.js';
import { evaluateLocations, type EvaluatePointsFn } from '../fetch/evaluate.js';
import { selectFields } from '../fetch/field-selection.js';
import { answerFetchResults, engineFetchResults } from '../fetch/fetch-values.js';
import { answerTooLarge, fetchAnswerBytes, MAX_FETCH_ANSWER_BYTES } from '../fetch/answer-size.js';
import type { LayerCache } from '../layers/layer-cache.js';

/** D34: at most 1,000 locations per batch (larger ones are runs). */
export const MAX_BATCH_LOCATIONS = 1_000;

const PARCEL_GROUP = new Set(fieldsOfGroup('parcel_record').map((field) => field.name));

/** The stored (replayable) part of an answer: everything but the per-request billing status. */
const codec = {
  encode: (answer: catalogv1.FetchBatchResponse) => toBinary(catalogv1.FetchBatchResponseSchema, answer),
  decode: (bytes: Uint8Array) => fromBinary(catalogv1.FetchBatchResponseSchema, bytes),
};

/**
 * POST /v1/fetch/batch (D34): the fields at each location, charged by billing rules 1-3 before the
 * values are returned; a dry run answers the quote. Values are evaluated before the charge's
 * transaction (so the tenant's balance row is locked for a few statements, not an evaluation),
 * and an answer over MAX_FETCH_ANSWER_BYTES is refused there, uncharged (413); the rest are
 * handed out only after the charge committed.
 */
export function fetchBatchHandler(billing: BillingContext, layers: LayerCache, evaluate: EvaluatePointsFn) {
  return async (request: catalogv1.FetchBatchRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    const selection = selectFields(request.fields, request.preset);
    const issues = [...locationIssues(request), ...('issues' in selection ? selection.issues : [])];
    if (issues.length > 0 || !('fields' in selection)) throw validationError(issues);
    const { fields } = selection;
    const count = request.locations.length;

    if (request.dryRun) {
      const { plan, billing: status } = await unbilledRequest(billing, tenantId);
      const quote = quoteCredits(plan, fields, count);
      return {
        fields,
        results: [],
        credits: { charged: 0n, perLocation: BigInt(quote.perLocation), balance: BigInt(status.creditsRemaining) },
        billing: billingStatusMessage(status),
      };
    }

    const key = request.idempotencyKey;
    const outcome = await billedRequest(billing, {
      tenantId,
      operation: 'fetch',
      price: (plan) => ({ credits: quoteCredits(plan, fields, count).total, locations: count, fields: fields.length }),
      requestId: call.requestHeader.get('x-request-id') ?? undefined,
      idempotency: key ? { key, requestHash: requestHash('fetch', canonicalRequest(request)) } : undefined,
      prepare: async (_plan, standing) => {
        const located = request.locations.map(({ lat, lon, id }) => ({ lat, lon, id: id ?? null }));
        // Parcel-group fields need the parcel at each point: EvaluatePoints' own path (LocateParcels,
        // then the engine). Without them, the results are built from the engine's answer directly.
        const results = fields.some((field) => PARCEL_GROUP.has(field))
          ? answerFetchResults(located, await evaluateLocations(evaluate, { locations: request.locations, fields }, call))
          : engineFetchResults(located, await (await layers.current()).engine.evaluateLoaded(request.locations, fields));
        // Bounded before the charge (D39): an answer too large to give is refused, not charged.
        const bytes = fetchAnswerBytes(fields, results);
        if (bytes > MAX_FETCH_ANSWER_BYTES) throw answerTooLarge(bytes, standing.creditsRemaining, standing.rate);
        return results;
      },
      work: async (_trx, charge, results, plan) =>
        create(catalogv1.FetchBatchResponseSchema, {
          fields,
          results,
          credits: { charged: BigInt(charge.credits), perLocation: BigInt(quoteCredits(plan, fields, 1).perLocation), balance: BigInt(charge.remaining) },
        }),
      codec,
    });
    const { fields: answered, results, credits } = outcome.answer;
    return create(catalogv1.FetchBatchResponseSchema, { fields: answered, results, credits, billing: billingStatusMessage(outcome.billing) });
  };
}

/** What an Idempotency-Key is bound to: the request as received, minus the key itself. */
function canonicalRequest(request: catalogv1.FetchBatchRequest) {
  return {
    locations: request.locations.map(({ lat, lon, id }) => [lat, lon, id ?? null]),
    fields: request.fields,
    preset: request.preset ?? null,
  };
}

function locationIssues(request: catalogv1.FetchBatchRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const count = request.locations.length;
  if (count === 0) issues.push(issue.tooShort(['body', 'locations'], [], 1, 0));
  if (count > MAX_BATCH_LOCATIONS) issues.push(issue.tooLong(['body', 'locations'], undefined, MAX_BATCH_LOCATIONS, count));
  request.locations.forEach((location, i) => {
    if (!(location.lat >= -90 && location.lat <= 90)) issues.push(issue.valueError(['body', 'locations', i, 'lat'], location.lat, 'latitude must be within [-90, 90]'));
    if (!(location.lon >= -180 && location.lon <= 180)) issues.push(issue.valueError(['body', 'locations', i, 'lon'], location.lon, 'longitude must be within [-180, 180]'));
  });
  return issues;
}
