import { Type } from '@sinclair/typebox';
import { Nullable, OpenObject, Str } from './common.js';

/** D30: at most this many rows per import (the spec's 1-10,000). */
export const MAX_IMPORT_ROWS = 10_000;

export const LeadRequestBody = OpenObject(
  {
    buy_box: Str(1, 255, { 'x-name': true, description: 'Name of a saved buy box: its market is ranked.' }),
    count: Type.Integer({ minimum: 1, maximum: 500, description: 'How many leads to deliver.' }),
    note: Type.Optional(Nullable(Str(undefined, 2000))),
  },
  { $id: 'LeadRequestBody' },
);

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

// The answers of the lead routes: @landscreen/api-schemas.
export { DeliveryList, DeliveryRecord, DeliverySummary, LeadImportResponse, LeadRequestList, LeadRequestRecord } from '@landscreen/api-schemas';
