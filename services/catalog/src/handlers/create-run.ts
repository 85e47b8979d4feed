import type { HandlerContext } from '@connectrpc/connect';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { catalogv1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import { billedRequest, billingStatusMessage, quoteCredits, requestHash, unbilledRequest } from '../billing/index.js';
import { insertRun, type RunLocation } from '../runs/insert-run.js';
import { runMessage } from '../runs/run-rows.js';
import { runSelection } from '../runs/run-selection.js';
import type { RunsContext } from '../runs/runs-context.js';

/**
 * POST /v1/runs (D35): charged once at submission like a batch — the run and its chunks are
 * written inside the charge's transaction (billing's billedRequest), so a run never exists without
 * its charge nor a charge without its run; 402 queues nothing. The relay publishes the chunks once
 * the transaction commits. An Idempotency-Key replays the run first created; `dry_run` answers the
 * quote and queues nothing.
 */
export function createRun(context: RunsContext) {
  return async (request: catalogv1.CreateRunRequest, call: HandlerContext): Promise<catalogv1.CreateRunResponse> => {
    const caller = requireCaller(call);
    const locations: RunLocation[] = request.locations.map((location) =>
      location.id === undefined ? { lat: location.lat, lon: location.lon } : { lat: location.lat, lon: location.lon, id: location.id },
    );
    const fields = runSelection({ locations, fields: request.fields, preset: request.preset });
    if (request.dryRun) {
      // The quote, as fetch/batch's dry run: rate-limited like a billed request, nothing charged or queued.
      const { plan, billing } = await unbilledRequest(context, caller.tenantId);
      const quote = quoteCredits(plan, fields, locations.length);
      return create(catalogv1.CreateRunResponseSchema, {
        billing: billingStatusMessage(billing),
        quote: { perLocation: BigInt(quote.perLocation), required: BigInt(quote.total), balance: BigInt(billing.creditsRemaining) },
      });
    }
    const key = request.idempotencyKey;
    const billed = await billedRequest(context, {
      tenantId: caller.tenantId,
      operation: 'run',
      requestId: call.requestHeader.get('x-request-id') ?? undefined,
      idempotency: key === undefined ? undefined : { key, requestHash: requestHash('run', { locations, fields: request.fields, preset: request.preset ?? null }) },
      price: (plan) => ({ credits: quoteCredits(plan, fields, locations.length).total, locations: locations.length, fields: fields.length }),
      work: async (trx, charge, _prepared, plan) => {
        const row = await insertRun(trx, {
          tenantId: caller.tenantId,
          caller,
          fields,
          preset: request.preset,
          locations,
          creditsPerLocation: quoteCredits(plan, fields, 1).perLocation,
          chargeLedgerId: charge.ledgerId,
          createdAt: context.clock.now(),
          chunkSize: context.chunkSize,
        });
        return create(catalogv1.RunSchema, runMessage(row));
      },
      codec: { encode: (run) => toBinary(catalogv1.RunSchema, run), decode: (bytes) => fromBinary(catalogv1.RunSchema, bytes) },
    });
    return create(catalogv1.CreateRunResponseSchema, {
      run: billed.answer,
      billing: billingStatusMessage(billed.billing),
    });
  };
}
