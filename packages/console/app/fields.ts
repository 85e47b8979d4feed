import { call } from './api.js';

/** A field of the catalog (GET /v1/meta/fields), as the console reads it. */
export interface CatalogField {
  name: string;
  layer: string;
  description: string;
  type: string;
  unit: string | null;
  enum?: (string | number)[];
}

/** The parcel record's own columns (D13): not in the point-data catalog, grouped together. */
const PARCEL_FIELDS: CatalogField[] = [
  { name: 'acres', layer: 'parcel record', description: 'Parcel area as recorded', type: 'float', unit: 'acres' },
  { name: 'developable_acres', layer: 'parcel record', description: 'Acres left once wetlands, floodplain and easements are taken out', type: 'float', unit: 'acres' },
  { name: 'zoning', layer: 'parcel record', description: 'Zoning as recorded', type: 'string', unit: null },
  { name: 'land_use', layer: 'parcel record', description: 'Land use as recorded', type: 'string', unit: null },
  { name: 'owner_name', layer: 'parcel record', description: 'Owner of record', type: 'string', unit: null },
  { name: 'assessed_value_usd', layer: 'parcel record', description: 'Assessed value', type: 'float', unit: 'usd' },
];

const UNIT_SUFFIX = /_(m|km|kv|mw|usd|acres|degrees|percent|pct|kwh|mph|in|ft|fraction|m2|km2|years|days)$/;

/** A field's name as words: nearest_substation_distance_m → "Nearest substation distance". */
export function humanise(name: string): string {
  const words = name.replace(UNIT_SUFFIX, '').replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

let loaded: Promise<Map<string, CatalogField>> | undefined;

/** The catalog by field name, read once. */
export function fieldCatalog(): Promise<Map<string, CatalogField>> {
  return (loaded ??= call<{ fields: CatalogField[] }>('GET', '/v1/meta/fields').then(
    ({ fields }) => new Map([...PARCEL_FIELDS, ...fields].map((field) => [field.name, field])),
    (error) => {
      loaded = undefined;
      throw error;
    },
  ));
}

export const labelOf = (catalog: Map<string, CatalogField>, name: string) => humanise(name) + (catalog.get(name)?.unit ? '' : '');
export const unitOf = (catalog: Map<string, CatalogField>, name: string) => catalog.get(name)?.unit ?? null;
export const groupOf = (catalog: Map<string, CatalogField>, name: string) => catalog.get(name)?.layer ?? 'other facts';
