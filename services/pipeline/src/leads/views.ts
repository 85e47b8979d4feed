import type { pipelinev1 } from '@landscreen/proto';
import { absentIfNull } from '@landscreen/rpc';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { DeliveriesTable, DeliveryLeadsTable, LeadRequestsTable } from '../schema.js';
import type { Selectable } from 'kysely';

const iso = (value: Date | string) => new Date(value).toISOString();

export type LeadRequestRow = Selectable<LeadRequestsTable>;
export type DeliveryRow = Selectable<DeliveriesTable>;
export type DeliveryLeadRow = Selectable<DeliveryLeadsTable>;

/** A lead request row as the LeadRequest message (D30). */
export function leadRequestMessage(row: LeadRequestRow): MessageInitShape<typeof pipelinev1.LeadRequestSchema> {
  return {
    id: row.id,
    buyBox: row.buy_box,
    count: row.count,
    note: absentIfNull(row.note),
    status: row.status,
    deliveryId: absentIfNull(row.delivery_id),
    failureCode: absentIfNull(row.failure_code),
    failureReason: absentIfNull(row.failure_reason),
    createdAt: iso(row.created_at),
    completedAt: row.completed_at === null ? undefined : iso(row.completed_at),
  };
}

export function deliverySummaryMessage(row: DeliveryRow): MessageInitShape<typeof pipelinev1.DeliverySummarySchema> {
  return {
    id: row.id,
    leadRequestId: row.lead_request_id,
    buyBox: row.buy_box,
    market: row.market,
    leadCount: row.lead_count,
    createdAt: iso(row.created_at),
  };
}

export function deliveryLeadMessage(row: DeliveryLeadRow): MessageInitShape<typeof pipelinev1.DeliveryLeadSchema> {
  return {
    rank: row.rank,
    parcelKey: row.parcel_key,
    propertyId: row.property_id,
    apn: absentIfNull(row.apn),
    address: absentIfNull(row.address),
    acres: absentIfNull(row.acres),
    lat: absentIfNull(row.lat),
    lon: absentIfNull(row.lon),
    score: row.score,
    verdict: row.verdict,
    reviewRequired: row.review_required,
  };
}
