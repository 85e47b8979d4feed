import { Type } from '@sinclair/typebox';
import { DiscoveryDraft, BuyBoxName } from './buybox.js';
import { Closed, Nullable, Str, Uuid } from './common.js';
import { ExportFormatParam } from './export.js';

/**
 * D40: the facts a result shows, by name (a catalog field, a typed column or a fact of the market's
 * vintage; an unknown name is 422 with a did-you-mean). Absent or null: every fact.
 */
export const ChosenFields = Type.Array(Str(1, 100), {
  minItems: 1,
  maxItems: 500,
  description:
    'D40: the facts (and their provenance) each result shows, by name: catalog fields, typed parcel columns or facts of the market. Each is shown, null when the parcel has none. Absent: every fact.',
});

export const DiscoveryQueryRequest = Closed(
  {
    buy_box: Str(1, 255, { 'x-name': true, description: 'Name of a saved buy box.' }),
    draft: Type.Optional(Nullable(DiscoveryDraft, { description: 'A spec supplied by the caller instead of the saved one.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Nullable(Str(undefined, 4096), { description: 'Taken from next_cursor.' })),
    fields: Type.Optional(Nullable(ChosenFields)),
  },
  { $id: 'DiscoveryQueryRequest' },
);

export const ParcelResolveRequest = Closed(
  {
    market: Str(1, 100),
    apn: Type.Optional(Nullable(Str(undefined, 255))),
    address: Type.Optional(Nullable(Str(undefined, 500))),
  },
  { $id: 'ParcelResolveRequest' },
);

export const PromoteRequest = Closed(
  {
    parcel_key: Str(1, 500),
    buy_box: BuyBoxName,
    query_hash: Str(64, 64),
    draft: Type.Optional(Nullable(DiscoveryDraft)),
  },
  { $id: 'PromoteRequest' },
);

export const DirectPromoteRequest = Closed(
  {
    parcel_key: Str(1, 500),
    buy_box: Str(1, 255, { 'x-name': true, description: 'Names a SAVED buy box.' }),
    vintage_id: Type.Optional(Nullable(Uuid({ description: 'The vintage the caller resolved the parcel against.' }))),
  },
  { $id: 'DirectPromoteRequest' },
);

// The answers of the discovery routes: @landscreen/api-schemas.
export { DiscoveryQueryResponse, DiscoveryResult, ParcelCandidate, ParcelResolveResponse, PromoteResponse } from '@landscreen/api-schemas';

/** POST /v2/discovery/export: a ranking as a file (D40); the format is a query parameter. */
export const DiscoveryExportRequest = Closed(
  {
    buy_box: Str(1, 255, { 'x-name': true, description: 'Name of a saved buy box.' }),
    draft: Type.Optional(Nullable(DiscoveryDraft, { description: 'A spec supplied by the caller instead of the saved one.' })),
    fields: Type.Optional(Nullable(ChosenFields, { description: 'D40: a column per fact, by name. Absent: the facts the buy box\'s rules read.' })),
  },
  { $id: 'DiscoveryExportRequest' },
);

export const DiscoveryExportQuery = Type.Object({ format: ExportFormatParam });

/** GET /v2/discovery/export: a saved buy box's ranking as a file, by URL (a link or a button). */
export const DiscoveryExportLinkQuery = Type.Object({
  buy_box: Str(1, 255, { 'x-name': true, description: 'Name of a saved buy box.' }),
  format: ExportFormatParam,
});
