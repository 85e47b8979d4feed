// The complete field catalog: every field of the spec's layer tables in the spec's order
// (layers in order, fields in table order), the parcel_record group right after the ordinary
// parcels fields, where the spec places it.

import type { FieldRecord } from './field-record.js';
import { BUILT_ENVIRONMENT_FIELDS } from './layers/built-environment.js';
import { CLIMATE_FIELDS } from './layers/climate.js';
import { HAZARDS_FIELDS } from './layers/hazards.js';
import { LAND_COVER_FIELDS } from './layers/land-cover.js';
import { PARCEL_RECORD_FIELDS } from './layers/parcel-record.js';
import { PARCELS_FIELDS } from './layers/parcels.js';
import { TERRAIN_FIELDS } from './layers/terrain.js';
import { UTILITIES_FIELDS } from './layers/utilities.js';
import type { Layer, MeteredGroup, Preset } from './vocabulary.js';

export type { FieldRecord, FieldBilling, FieldDerivation, EnumValue } from './field-record.js';

export const FIELDS: readonly FieldRecord[] = Object.freeze([
  ...TERRAIN_FIELDS,
  ...LAND_COVER_FIELDS,
  ...BUILT_ENVIRONMENT_FIELDS,
  ...UTILITIES_FIELDS,
  ...PARCELS_FIELDS,
  ...PARCEL_RECORD_FIELDS,
  ...CLIMATE_FIELDS,
  ...HAZARDS_FIELDS,
]);

export const FIELD_BY_NAME: ReadonlyMap<string, FieldRecord> = indexByName(FIELDS);

export function isCatalogField(name: string): boolean {
  return FIELD_BY_NAME.has(name);
}

export function fieldsOfLayer(layer: Layer): FieldRecord[] {
  return FIELDS.filter((field) => field.layer === layer);
}

export function fieldsOfPreset(preset: Preset): FieldRecord[] {
  return FIELDS.filter((field) => field.presets.includes(preset));
}

export function fieldsOfGroup(group: MeteredGroup): FieldRecord[] {
  return FIELDS.filter((field) => field.billing.metered_group === group);
}

function indexByName(fields: readonly FieldRecord[]): ReadonlyMap<string, FieldRecord> {
  const byName = new Map<string, FieldRecord>();
  for (const field of fields) {
    // Names are the public key of a field (requests, billing, responses); a duplicate would
    // silently shadow a record, so refuse to load.
    if (byName.has(field.name)) throw new Error(`duplicate catalog field ${field.name}`);
    byName.set(field.name, field);
  }
  return byName;
}
