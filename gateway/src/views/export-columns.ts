import { FIELD_BY_NAME } from '@landscreen/field-catalog';
import type { CellValue, ExportColumn, Geometry } from '@landscreen/feature-export';
import { roundCoordinate } from '@landscreen/field-catalog';

// What the export views share: how a fact becomes a column and a cell, and a record's point.

const NUMERIC_TYPED = new Set(['acres', 'developable_acres', 'assessed_value_usd']);

/**
 * The kind of a fact's column: the catalog's type for a catalog field, numbers for the numeric
 * typed columns, else what the first known value in `sample` is (strings when none is).
 */
export function factColumn(field: string, sample: readonly unknown[]): ExportColumn {
  const type = FIELD_BY_NAME.get(field)?.type;
  if (type === 'float' || type === 'int') return { name: field, kind: 'number' };
  if (type === 'bool') return { name: field, kind: 'boolean' };
  if (type !== undefined) return { name: field, kind: 'string' };
  if (NUMERIC_TYPED.has(field)) return { name: field, kind: 'number' };
  const known = sample.find((value) => value !== null && value !== undefined);
  return { name: field, kind: typeof known === 'number' ? 'number' : typeof known === 'boolean' ? 'boolean' : 'string' };
}

/** A fact as a cell of its column: scalars as they are, anything else (a list, an object) as JSON. */
export function cell(value: unknown, column: ExportColumn): CellValue {
  if (value === null || value === undefined) return null;
  if (column.kind === 'string' && typeof value !== 'string') return typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return value as CellValue;
}

/** A record's point as a GeoJSON Point, or null without one. */
export function pointOf(lat: number | null | undefined, lon: number | null | undefined): Geometry | null {
  return lat === null || lat === undefined || lon === null || lon === undefined ? null : { type: 'Point', coordinates: [lon, lat] };
}

/** A coordinate cell (1e-7°, D40). */
export const coordinateCell = (value: number | null | undefined): number | null => (value === null || value === undefined ? null : roundCoordinate(value));
