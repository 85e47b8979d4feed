import type { Selectable } from 'kysely';
import { setOwn } from '@landscreen/validation';
import { preparedEntry, type FieldProvenance } from './field-provenance.js';
import { TYPED_FIELDS } from './fields.js';
import type { RowValues } from './ranking/resident-columns.js';
import type { DiscoveryDb, ParcelsTable } from './schema.js';

/** What a parcel row holds besides its facts (those live in the vintage's columns). */
export const PARCEL_COLUMNS = ['parcel_key', 'apn', 'address', 'lat', 'lon', 'acres', 'developable_acres', 'geometry', 'bbox', 'provenance'] as const satisfies readonly (keyof ParcelsTable)[];

export type ParcelRow = Pick<Selectable<ParcelsTable>, (typeof PARCEL_COLUMNS)[number]>;

/** The rows of a page, by parcel_key within a vintage (one indexed query on one partition). */
export async function parcelRowsByKey(db: DiscoveryDb, vintageId: string, keys: string[]): Promise<Map<string, ParcelRow>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('parcels')
    .select(PARCEL_COLUMNS)
    .where('vintage_id', '=', vintageId)
    .where((eb) => eb('parcel_key', '=', eb.fn.any(eb.val(keys))))
    .execute();
  return new Map(rows.map((row) => [row.parcel_key, row]));
}

export interface VintageFields {
  freeFactFields: string[];
  derivedFields: string[];
  /** A prepared vintage's provenance per field (field-provenance.ts); absent or null: imported. */
  fieldProvenance?: FieldProvenance | null;
}

export interface ParcelFacts {
  typed: Record<string, unknown>;
  free_facts: Record<string, unknown>;
  derived: Record<string, unknown>;
  /** D13: the merge of the three. */
  facts: Record<string, unknown>;
}

/**
 * The facts of one row of the vintage index, split as the import split them (D13), from the
 * values of the rows read for a page (VintageIndex.rowValues).
 */
export function parcelFacts(values: RowValues, row: number, fields: VintageFields): ParcelFacts {
  // The merge is built as the three are, not spread from them: spreading objects of dozens of
  // properties (V8 keeps those as dictionaries) took ~100 µs a parcel, 5 ms of a 50-row page.
  const facts: Record<string, unknown> = {};
  const typed: Record<string, unknown> = {};
  for (const field of TYPED_FIELDS) typed[field] = facts[field] = values(field, row);
  const pick = (names: string[]) => {
    const picked: Record<string, unknown> = {};
    for (const field of names) {
      const value = values(field, row);
      if (value === null) continue;
      setOwn(picked, field, value);
      setOwn(facts, field, value);
    }
    return picked;
  };
  const free_facts = pick(fields.freeFactFields);
  const derived = pick(fields.derivedFields);
  return { typed, free_facts, derived, facts };
}

/**
 * D13: the provenance of each fact of a parcel — how it was computed (what the import stored, or
 * a prepared vintage's field provenance with the parcel's own differences) over "imported with
 * this vintage" for every typed and derived fact the parcel has.
 */
export function provenanceOf(
  row: Pick<ParcelRow, 'provenance'>,
  facts: Pick<ParcelFacts, 'typed' | 'derived'>,
  vintage: { id: string; fieldProvenance?: FieldProvenance | null },
): Record<string, unknown> {
  const vintageId = vintage.id;
  const provenance: Record<string, unknown> = {};
  const imported = { source: 'import', vintage_id: vintageId };
  for (const [field, value] of Object.entries(facts.typed)) if (value !== null && value !== undefined) provenance[field] = imported;
  for (const field of Object.keys(facts.derived)) provenance[field] = imported;
  const stored = (row.provenance ?? {}) as Record<string, unknown>;
  const prepared = vintage.fieldProvenance;
  if (prepared) {
    for (const field of Object.keys(prepared)) {
      if (!Object.hasOwn(stored, field)) provenance[field] = preparedEntry(prepared, field, undefined, !Object.hasOwn(facts.derived, field), vintageId);
    }
  }
  for (const [field, entry] of Object.entries(stored)) {
    provenance[field] = preparedEntry(prepared, field, entry, !Object.hasOwn(facts.derived, field), vintageId);
  }
  return provenance;
}
