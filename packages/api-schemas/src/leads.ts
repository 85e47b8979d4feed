import { Type, type Static } from '@sinclair/typebox';
import { AppliedSpec } from './buyboxes.js';
import { Closed, Nullable, OneOf, OpenRecord, Timestamp, Uuid } from './building-blocks.js';
import { Verdict } from './discovery.js';

/** D30: a lead request (open in the spec); every optional field present as null. */
export const LeadRequestRecord = OpenRecord(
  {
    id: Uuid(),
    buy_box: Type.String(),
    count: Type.Integer(),
    note: Nullable(Type.String()),
    status: OneOf(['open', 'fulfilled', 'failed'] as const),
    delivery_id: Nullable(Uuid()),
    failure_code: Nullable(Type.String({ description: 'Why it failed (snake_case), e.g. buy_box_not_found, no_leads_available.' })),
    failure_reason: Nullable(Type.String()),
    created_at: Timestamp(),
    completed_at: Nullable(Timestamp()),
  },
  { $id: 'LeadRequest' },
);
export type LeadRequestRecord = Static<typeof LeadRequestRecord>;

export const LeadRequestList = Closed({ lead_requests: Type.Array(LeadRequestRecord, { description: 'Newest first.' }) }, { $id: 'LeadRequestList' });
export type LeadRequestList = Static<typeof LeadRequestList>;

const ImportCandidate = Closed({ parcel_key: Type.String(), apn: Nullable(Type.String()), address: Nullable(Type.String()), acres: Nullable(Type.Number()) });

/** A row of the import report carries the fields of its status only (an imported lead: open in the spec). */
export const ImportedLead = OpenRecord(
  {
    row: Type.Integer({ description: '0-based index of the row in the request.' }),
    ref: Nullable(Type.String()),
    status: OneOf(['resolved', 'ambiguous', 'not_found', 'invalid'] as const),
    matched_by: Type.Optional(OneOf(['apn', 'address', 'point', 'address_similar'] as const)),
    parcel_key: Type.Optional(Type.String()),
    property_id: Type.Optional(Uuid()),
    pipeline_item_id: Type.Optional(Uuid()),
    verdict: Type.Optional(Verdict),
    score: Type.Optional(Type.Number()),
    eligible: Type.Optional(Type.Boolean()),
    candidates: Type.Optional(Type.Array(ImportCandidate, { description: 'With status ambiguous.' })),
    reason: Type.Optional(Type.String({ description: 'With status not_found or invalid.' })),
  },
  { $id: 'ImportedLead' },
);
export type ImportedLead = Static<typeof ImportedLead>;

export const LeadImportResponse = Closed(
  {
    market: Type.String(),
    vintage_id: Uuid(),
    rows: Type.Array(ImportedLead, { description: 'One per row, in the request\'s order.' }),
    summary: Closed({
      resolved: Type.Integer(),
      ambiguous: Type.Integer(),
      not_found: Type.Integer(),
      invalid: Type.Integer(),
      properties_created: Type.Integer(),
      pipeline_items_created: Type.Integer(),
    }),
  },
  { $id: 'LeadImportResponse' },
);
export type LeadImportResponse = Static<typeof LeadImportResponse>;

export const DeliverySummary = OpenRecord(
  { id: Uuid(), lead_request_id: Uuid(), buy_box: Type.String(), market: Type.String(), lead_count: Type.Integer(), created_at: Timestamp() },
  { $id: 'DeliverySummary' },
);
export type DeliverySummary = Static<typeof DeliverySummary>;

export const DeliveryList = Closed({ deliveries: Type.Array(DeliverySummary, { description: 'Newest first.' }) }, { $id: 'DeliveryList' });
export type DeliveryList = Static<typeof DeliveryList>;

export const DeliveryRecord = OpenRecord(
  {
    id: Uuid(),
    created_at: Timestamp(),
    lead_request: LeadRequestRecord,
    buy_box: Closed({ id: Uuid(), name: Type.String(), spec_hash: Type.String(), query_hash: Type.String(), applied_spec: AppliedSpec }),
    market: Type.String(),
    market_id: Uuid(),
    vintage_id: Uuid(),
    leads: Type.Array(
      Closed({
        rank: Type.Integer({ minimum: 1 }),
        parcel_key: Type.String(),
        property_id: Uuid(),
        apn: Nullable(Type.String()),
        address: Nullable(Type.String()),
        acres: Nullable(Type.Number()),
        lat: Nullable(Type.Number()),
        lon: Nullable(Type.Number()),
        score: Type.Number(),
        verdict: Verdict,
        review_required: Type.Boolean(),
      }),
      { description: 'By rank: discovery\'s order (score desc, then parcel_key).' },
    ),
  },
  { $id: 'Delivery' },
);
export type DeliveryRecord = Static<typeof DeliveryRecord>;
