import type { DeliveryList } from '@landscreen/api-schemas';
import type { pipelinev1 } from '@landscreen/proto';
import { nullIfAbsent } from '@landscreen/rpc';
import * as discoveryjson from '@landscreen/discovery-json';
import { leadRequestJson } from './lead-request.js';

/** GET /v1/deliveries: the tenant's deliveries, newest first. */
export function deliveryListJson(deliveries: readonly pipelinev1.DeliverySummary[]): DeliveryList {
  return { deliveries: deliveries.map(deliverySummaryJson) };
}

/** A delivery in the list of a tenant's deliveries (D30). */
export function deliverySummaryJson(delivery: pipelinev1.DeliverySummary) {
  return {
    id: delivery.id,
    lead_request_id: delivery.leadRequestId,
    buy_box: delivery.buyBox,
    market: delivery.market,
    lead_count: delivery.leadCount,
    created_at: delivery.createdAt,
  };
}

/**
 * A delivery (D30) as its REST record: its lead request, the buy box as applied, and its leads in
 * rank order, every optional field present as null.
 */
export function deliveryJson(delivery: pipelinev1.Delivery) {
  const buyBox = delivery.buyBox!;
  return {
    id: delivery.id,
    created_at: delivery.createdAt,
    lead_request: leadRequestJson(delivery.leadRequest!),
    buy_box: {
      id: buyBox.id,
      name: buyBox.name,
      spec_hash: buyBox.specHash,
      query_hash: buyBox.queryHash,
      applied_spec: discoveryjson.buyBoxSpecValue(buyBox.appliedSpec),
    },
    market: delivery.market,
    market_id: delivery.marketId,
    vintage_id: delivery.vintageId,
    leads: delivery.leads.map((lead) => ({
      rank: lead.rank,
      parcel_key: lead.parcelKey,
      property_id: lead.propertyId,
      apn: nullIfAbsent(lead.apn),
      address: nullIfAbsent(lead.address),
      acres: nullIfAbsent(lead.acres),
      lat: nullIfAbsent(lead.lat),
      lon: nullIfAbsent(lead.lon),
      score: lead.score,
      verdict: lead.verdict,
      review_required: lead.reviewRequired,
    })),
  };
}
