import { nullIfAbsent, discoveryjson, type pipelinev1 } from '@landscreen/proto';

/**
 * The REST shapes of D30's typed answers (schemas/leads.ts): snake_case, and every optional field
 * of a record present as null rather than left out, so a client reads one shape.
 */

/** A spreadsheet cell as text: a number becomes its text, null or absent nothing. */
export const textCell = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

export function leadRequestJson(request: pipelinev1.LeadRequest) {
  return {
    id: request.id,
    buy_box: request.buyBox,
    count: request.count,
    note: nullIfAbsent(request.note),
    status: request.status,
    delivery_id: nullIfAbsent(request.deliveryId),
    failure_code: nullIfAbsent(request.failureCode),
    failure_reason: nullIfAbsent(request.failureReason),
    created_at: request.createdAt,
    completed_at: nullIfAbsent(request.completedAt),
  };
}

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
      applied_spec: JSON.parse(discoveryjson.buyBoxSpecJson(buyBox.appliedSpec)) as unknown,
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

/** A row of the import report carries the fields of its status only (schemas/leads.ts). */
export function importReportJson(answer: pipelinev1.ImportLeadsResponse) {
  const summary = answer.summary!;
  return {
    market: answer.market,
    vintage_id: answer.vintageId,
    rows: answer.rows.map((row) => ({
      row: row.row,
      ref: nullIfAbsent(row.ref),
      status: row.status,
      ...(row.matchedBy !== undefined && { matched_by: row.matchedBy }),
      ...(row.parcelKey !== undefined && { parcel_key: row.parcelKey }),
      ...(row.propertyId !== undefined && { property_id: row.propertyId }),
      ...(row.pipelineItemId !== undefined && { pipeline_item_id: row.pipelineItemId }),
      ...(row.verdict !== undefined && { verdict: row.verdict, score: row.score, eligible: row.eligible }),
      ...(row.status === 'ambiguous' && {
        candidates: row.candidates.map((candidate) => ({
          parcel_key: candidate.parcelKey,
          apn: nullIfAbsent(candidate.apn),
          address: nullIfAbsent(candidate.address),
          acres: nullIfAbsent(candidate.acres),
        })),
      }),
      ...(row.reason !== undefined && { reason: row.reason }),
    })),
    summary: {
      resolved: summary.resolved,
      ambiguous: summary.ambiguous,
      not_found: summary.notFound,
      invalid: summary.invalid,
      properties_created: summary.propertiesCreated,
      pipeline_items_created: summary.pipelineItemsCreated,
    },
  };
}
