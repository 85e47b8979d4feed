import { Type } from '@sinclair/typebox';
import { Nullable, OpenObject, Str, Uuid } from './common.js';

/** D30: at most this many rows per import (the spec's 1-10,000). */
export const MAX_IMPORT_ROWS = 10_000;

const Verdict = Type.Union([Type.Literal('PURSUE'), Type.Literal('MONITOR'), Type.Literal('HOLD')]);
const Timestamp = Type.String({ format: 'date-time' });

export const LeadRequestBody = OpenObject(
  {
    buy_box: Str(1, 255, { 'x-name': true, description: 'Name of a saved buy box: its market is ranked.' }),
    count: Type.Integer({ minimum: 1, maximum: 500, description: 'How many leads to deliver.' }),
    note: Type.Optional(Nullable(Str(undefined, 2000))),
  },
  { $id: 'LeadRequestBody' },
);

export const LeadRequestRecord = Type.Object(
  {
    id: Uuid(),
    buy_box: Type.String(),
    count: Type.Integer(),
    note: Nullable(Type.String()),
    status: Type.Union([Type.Literal('open'), Type.Literal('fulfilled'), Type.Literal('failed')]),
    delivery_id: Nullable(Uuid()),
    failure_code: Nullable(Type.String({ description: 'Why it failed (snake_case), e.g. buy_box_not_found, no_leads_available.' })),
    failure_reason: Nullable(Type.String()),
    created_at: Timestamp,
    completed_at: Nullable(Timestamp),
  },
  { $id: 'LeadRequest', additionalProperties: true },
);

export const LeadRequestList = Type.Object({ lead_requests: Type.Array(LeadRequestRecord) }, { additionalProperties: true, description: 'Newest first.' });

/** A spreadsheet's cell may arrive as a number (an APN of digits, a numeric ref): taken as text. */
const Cell = (description: string) => Type.Optional(Nullable(Type.Union([Type.String(), Type.Number()]), { description: `${description} Text (a number is taken as its text).` }));
const Coordinate = Type.Optional(Nullable(Type.Number({ description: 'WGS84 degrees; out of range: the row is reported invalid.' })));

export const ImportRow = OpenObject(
  {
    ref: Cell('Your reference for the row, echoed in its report.'),
    apn: Cell('Over 255 characters: the row is reported invalid.'),
    address: Cell('Over 500 characters: the row is reported invalid.'),
    lat: Coordinate,
    lon: Coordinate,
  },
  { description: 'Resolved by apn, else address, else the parcel at lat/lon, else a similar address (D17).' },
);

export const LeadImportBody = OpenObject(
  {
    market: Str(1, 100),
    rows: Type.Array(ImportRow, { minItems: 1, maxItems: MAX_IMPORT_ROWS }),
    buy_box: Type.Optional(Nullable(Str(1, 255, { 'x-name': true, description: 'Screen the resolved parcels against this buy box (same market).' }))),
    add_to_pipeline: Type.Optional(Type.Boolean({ default: false, description: 'Also put each resolved property on the board.' })),
  },
  { $id: 'LeadImportBody' },
);

const ImportCandidate = Type.Object({ parcel_key: Type.String(), apn: Nullable(Type.String()), address: Nullable(Type.String()), acres: Nullable(Type.Number()) });

export const LeadImportResponse = Type.Object(
  {
    market: Type.String(),
    vintage_id: Uuid(),
    rows: Type.Array(
      Type.Object(
        {
          row: Type.Integer({ description: '0-based index of the row in the request.' }),
          ref: Nullable(Type.String()),
          status: Type.Union([Type.Literal('resolved'), Type.Literal('ambiguous'), Type.Literal('not_found'), Type.Literal('invalid')]),
          matched_by: Type.Optional(Type.String({ description: 'apn, address, point or address_similar.' })),
          parcel_key: Type.Optional(Type.String()),
          property_id: Type.Optional(Uuid()),
          pipeline_item_id: Type.Optional(Uuid()),
          verdict: Type.Optional(Verdict),
          score: Type.Optional(Type.Number()),
          eligible: Type.Optional(Type.Boolean()),
          candidates: Type.Optional(Type.Array(ImportCandidate)),
          reason: Type.Optional(Type.String()),
        },
        { additionalProperties: true },
      ),
      { description: 'One per row, in the request\'s order.' },
    ),
    summary: Type.Object({
      resolved: Type.Integer(),
      ambiguous: Type.Integer(),
      not_found: Type.Integer(),
      invalid: Type.Integer(),
      properties_created: Type.Integer(),
      pipeline_items_created: Type.Integer(),
    }),
  },
  { $id: 'LeadImportResponse', additionalProperties: true },
);

export const DeliverySummary = Type.Object(
  { id: Uuid(), lead_request_id: Uuid(), buy_box: Type.String(), market: Type.String(), lead_count: Type.Integer(), created_at: Timestamp },
  { $id: 'DeliverySummary', additionalProperties: true },
);

export const DeliveryList = Type.Object({ deliveries: Type.Array(DeliverySummary) }, { additionalProperties: true, description: 'Newest first.' });

export const DeliveryRecord = Type.Object(
  {
    id: Uuid(),
    created_at: Timestamp,
    lead_request: LeadRequestRecord,
    buy_box: Type.Object({ id: Uuid(), name: Type.String(), spec_hash: Type.String(), query_hash: Type.String(), applied_spec: OpenObject() }),
    market: Type.String(),
    market_id: Uuid(),
    vintage_id: Uuid(),
    leads: Type.Array(
      Type.Object({
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
  { $id: 'Delivery', additionalProperties: true },
);
