import { Code, ConnectError } from '@connectrpc/connect';
import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { callerHeaders, readServiceError, type Caller } from '@landscreen/rpc';
import { advisoryLock } from '../advisory-lock.js';
import type { PipelineContext } from '../context.js';
import { ensureMatches } from '../matches/match-rows.js';
import { ensureProperties, RawJson } from './bulk-rows.js';
import { excludedParcelKeys, pickLeads } from './pick-leads.js';

/** Fault point inside the delivery's transaction, after every row is written: a crash there. */
export const FULFIL_FAULT_BEFORE_COMMIT = 'pipeline.leads.fulfil.before_commit';

/** Discovery answers that retrying cannot change: the request fails with their reason. */
const PERMANENT = new Set([Code.NotFound, Code.PermissionDenied, Code.FailedPrecondition, Code.InvalidArgument]);

/** A parcel picked was taken by a concurrent delivery or promotion meanwhile: pick again. */
class PickedParcelTaken extends Error {}

export type FulfilOutcome = 'fulfilled' | 'failed' | 'done_before';

/**
 * D30: fulfils one lead request — the worker's handler of `leads.request.created`. A request that
 * is no longer open (a redelivered event) is left as it is. Otherwise the best parcels of the buy
 * box's market not excluded (pick-leads.ts) become a delivery: their properties (made as promotion
 * makes them, with the buy-box match holding their evaluation), the delivery and its leads, and the
 * request's status, in ONE transaction that holds the tenant's lead lock and re-checks that the
 * request is still open and that no picked parcel was taken meanwhile. Discovery refusing the
 * request (buy box deleted, market no longer entitled) fails it with the reason. No provider call
 * and no spend.
 */
export async function fulfilLeadRequest(context: PipelineContext, requestId: string): Promise<FulfilOutcome> {
  const request = await context.db.selectFrom('lead_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
  if (!request || request.status !== 'open') return 'done_before';
  const caller = request.caller as Caller;
  const options = { headers: callerHeaders(caller) };
  for (let attempt = 1; ; attempt++) {
    try {
      return await deliver(context, request.id, caller, request.buy_box, request.count, options);
    } catch (error) {
      if (error instanceof PickedParcelTaken && attempt < 5) continue;
      if (error instanceof ConnectError && PERMANENT.has(error.code)) {
        const { reason, message } = readServiceError(error);
        await markFailed(context, request.id, reason ?? 'not_fulfillable', message);
        return 'failed';
      }
      throw error;
    }
  }
}

async function deliver(context: PipelineContext, requestId: string, caller: Caller, buyBox: string, count: number, options: { headers: Record<string, string> }): Promise<FulfilOutcome> {
  const excluded = await excludedParcelKeys(context.db, caller.tenantId);
  const picked = await pickLeads(context, options, buyBox, count, excluded);
  if (picked.parcelKeys.length === 0) {
    await markFailed(context, requestId, 'no_leads_available', 'Every parcel the buy box ranks is already in your pipeline or an earlier delivery.');
    return 'failed';
  }
  // The picked parcels' candidates (geometry, facts) and their evaluation against the buy box.
  const resolved: discoveryv1.ResolveParcelsResponse = await context.discovery.resolveParcels(
    { market: picked.market, lookups: picked.parcelKeys.map((parcelKey) => ({ parcelKey })), buyBox },
    options,
  );
  const screen = resolved.screen!;
  if (resolved.vintageId !== picked.vintageId || screen.queryHash !== picked.queryHash) {
    // A new vintage became current between the two calls: rank again on it.
    throw new PickedParcelTaken('the market was re-ranked meanwhile');
  }
  const leads = picked.parcelKeys.map((parcelKey, index) => {
    const candidate = resolved.resolutions[index]!.candidates[0]!;
    return { parcelKey, candidate, evaluation: candidate.evaluation! };
  });
  return context.db.transaction().execute(async (trx) => {
    await advisoryLock(trx, `pipeline.leads:${caller.tenantId}`);
    const current = await trx.selectFrom('lead_requests').select('status').where('id', '=', requestId).forUpdate().executeTakeFirstOrThrow();
    if (current.status !== 'open') return 'done_before';
    const taken = await excludedParcelKeys(trx, caller.tenantId, picked.parcelKeys);
    if (taken.size > 0) throw new PickedParcelTaken(`${taken.size} picked parcels were taken meanwhile`);
    const properties = await ensureProperties(
      trx,
      caller.tenantId,
      leads.map(({ parcelKey, candidate }) => ({
        marketId: resolved.marketId,
        market: resolved.market,
        vintageId: resolved.vintageId,
        parcelKey,
        apn: candidate.apn ?? null,
        address: candidate.address ?? null,
        lat: candidate.lat ?? null,
        lon: candidate.lon ?? null,
        acres: candidate.acres ?? null,
        parcel: new RawJson(discoveryjson.parcelCandidateJson(candidate.parcel!)),
      })),
    );
    const appliedSpec = discoveryjson.buyBoxSpecValue(screen.appliedSpec);
    await ensureMatches(
      trx,
      caller.tenantId,
      leads.map(({ parcelKey, evaluation }) => ({
        propertyId: properties.get(parcelKey)!.id,
        buyBoxId: screen.buyBoxId,
        buyBox: screen.buyBox,
        specHash: screen.specHash,
        queryHash: screen.queryHash,
        vintageId: resolved.vintageId,
        source: 'ranked' as const,
        verdict: evaluation.verdict,
        score: evaluation.score,
        eligible: evaluation.eligible,
        appliedSpec,
        evaluation: new RawJson(discoveryjson.discoveryResultJson(evaluation.result!, { geometry: false })),
        failed: discoveryjson.mustEvidenceValues(evaluation.failed),
      })),
    );
    const delivery = await trx
      .insertInto('deliveries')
      .values({
        tenant_id: caller.tenantId,
        lead_request_id: requestId,
        buy_box_id: screen.buyBoxId,
        buy_box: screen.buyBox,
        spec_hash: screen.specHash,
        query_hash: screen.queryHash,
        applied_spec: JSON.stringify(appliedSpec),
        market: resolved.market,
        market_id: resolved.marketId,
        vintage_id: resolved.vintageId,
        lead_count: leads.length,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
        .insertInto('delivery_leads')
        .values(
          leads.map(({ parcelKey, candidate, evaluation }, index) => ({
            delivery_id: delivery.id,
            tenant_id: caller.tenantId,
            rank: index + 1,
            parcel_key: parcelKey,
            property_id: properties.get(parcelKey)!.id,
            apn: candidate.apn ?? null,
            address: candidate.address ?? null,
            acres: candidate.acres ?? null,
            lat: candidate.lat ?? null,
            lon: candidate.lon ?? null,
            score: evaluation.score,
            verdict: evaluation.verdict,
            review_required: evaluation.reviewRequired,
          })),
        )
        .execute();
    await trx.updateTable('lead_requests').set({ status: 'fulfilled', delivery_id: delivery.id, completed_at: context.clock.now() }).where('id', '=', requestId).execute();
    await context.fault(FULFIL_FAULT_BEFORE_COMMIT);
    return 'fulfilled';
  });
}

/** The request as failed, with why; only an open one (a fulfilled request stays fulfilled). */
export async function markFailed(context: PipelineContext, requestId: string, code: string, reason: string): Promise<void> {
  await context.db
    .updateTable('lead_requests')
    .set({ status: 'failed', failure_code: code, failure_reason: reason, completed_at: context.clock.now() })
    .where('id', '=', requestId)
    .where('status', '=', 'open')
    .execute();
}
