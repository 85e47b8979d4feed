import { Type } from '@sinclair/typebox';
import { Stage } from '@landscreen/api-schemas';
import { DiscoveryDraft } from './buybox.js';
import { Decimal, Nullable, OpenObject, Str, Uuid } from './common.js';
import { ChosenFields } from './discovery.js';
import { ExportFormatParam } from './export.js';

/** D18: stages in board order (declared with the answers that carry them). */
export { STAGES, Stage } from '@landscreen/api-schemas';

export const ListPipelineQuery = Type.Object({
  stage: Type.Optional(Nullable(Stage, { description: 'Show one column only.' })),
  archived: Type.Optional(Type.Boolean({ default: false, description: 'Include archived cards.' })),
  format: Type.Optional(ExportFormatParam),
});

export const AddToPipelineBody = OpenObject(
  {
    property_id: Type.Optional(Uuid()),
    market: Type.Optional(Str(1, 100)),
    parcel_key: Type.Optional(Str(1, 500)),
    notes: Type.Optional(Nullable(Str(undefined, 10000))),
  },
  { description: 'Either {"property_id"} or {"market","parcel_key"}; idempotent per property.' },
);

export const PatchPipelineBody = OpenObject({
  stage: Type.Optional(Stage),
  notes: Type.Optional(Nullable(Str(undefined, 10000))),
  archived: Type.Optional(Type.Boolean()),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000000, description: '0-based position within the stage (D18).' })),
});

export const ItemPath = Type.Object({ item_id: Type.String() });
export const PropertyPath = Type.Object({ property_id: Type.String() });
export const DeliveryPath = Type.Object({ delivery_id: Type.String() });

export const DeliveryQuery = Type.Object({ format: Type.Optional(ExportFormatParam) });

export const RevealBody = OpenObject({
  contact: OpenObject({}, { description: 'The contact found by the provider.' }),
  provider: Str(1, 128),
  provider_request_id: Type.Optional(Nullable(Str(undefined, 256))),
  cost_usd: Decimal({ maxPlaces: 4, minimum: 0 }),
});

export const LeadsFindQuery = Type.Object({
  // The spec gives only a maximum; 0 asks for no rows (the count alone).
  limit: Type.Optional(Type.Integer({ maximum: 2000, default: 100 })),
  count_only: Type.Optional(Type.Boolean({ default: false })),
});

export const LeadsFindBody = OpenObject({
  buy_box: Type.Optional(Str(1, 255, { 'x-name': true })),
  draft: Type.Optional(Nullable(DiscoveryDraft)),
  count_only: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Nullable(ChosenFields, { description: 'D40: facts each row shows with their provenance; absent: rows without facts.' })),
});
