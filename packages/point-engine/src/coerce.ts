// Feature properties as the evaluators read them: only the properties the source declares are
// kept, each coerced once to its declared type, so a layer costs memory for what it answers and
// a CSV's strings compare like a GeoJSON's numbers.

import type { SourceProperty } from '@landscreen/field-catalog';

export type PropertyValue = string | number | boolean | null;

const TRUE = new Set(['true', 't', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'f', 'no', 'n', '0']);

export function coerceProperty(declared: SourceProperty, raw: unknown): PropertyValue {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string' && raw.trim() === '') return null;
  if (declared.unknownValues?.some((unknown) => unknown === raw || String(unknown) === String(raw).trim())) return null;
  switch (declared.type) {
    case 'string': {
      // GEOIDs: a file that stored the code as a number lost its leading zeros; put them back.
      if (declared.digits !== undefined && typeof raw === 'number' && Number.isInteger(raw)) {
        return String(raw).padStart(declared.digits, '0');
      }
      return typeof raw === 'string' ? raw : String(raw);
    }
    case 'number':
    case 'integer': {
      const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isFinite(value)) return null;
      return declared.type === 'integer' ? Math.round(value) : value;
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      const text = String(raw).trim().toLowerCase();
      return TRUE.has(text) ? true : FALSE.has(text) ? false : null;
    }
  }
}

/** The comparison key of a filter: values are matched as lower-cased strings. */
export function filterKey(value: PropertyValue | string | number | boolean): string {
  return String(value).toLowerCase();
}
