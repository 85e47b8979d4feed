// Test fixture: the fields a discovery service would accept — the catalog plus the typed parcel
// columns of D13 — in the shapes normaliseDraft and parseBuyBoxText take.

import { FIELDS } from '@landscreen/field-catalog';

export const TYPED_COLUMNS = ['acres', 'developable_acres', 'zoning', 'land_use', 'owner_name', 'assessed_value_usd'];

export const FIELD_NAMES: readonly string[] = [...TYPED_COLUMNS, ...FIELDS.map((field) => field.name)];

const KNOWN = new Set(FIELD_NAMES);

export const knownField = (field: string): boolean => KNOWN.has(field);

export const FIELD_OPTIONS = { knownField, fieldNames: FIELD_NAMES };
