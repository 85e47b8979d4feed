import { sql, type Kysely } from 'kysely';

export interface ParcelRow {
  parcel_key: string;
  apn: string | null;
  address: string | null;
  lat: number | null;
  lon: number | null;
  acres: number | null;
  developable_acres: number | null;
  geometry: Record<string, unknown> | null;
  bbox: number[] | null;
  typed: Record<string, unknown>;
  free_facts: Record<string, unknown>;
  derived: Record<string, unknown>;
  provenance: Record<string, unknown>;
}

/** The display fields of the rows of a page, by parcel_key within a vintage (one indexed query). */
export async function parcelRowsByKey(db: Kysely<any>, vintageId: string, keys: string[]): Promise<Map<string, ParcelRow>> {
  if (keys.length === 0) return new Map();
  const { rows } = await sql<ParcelRow>`
    select parcel_key, apn, address, lat, lon, acres, developable_acres, geometry, bbox, typed, free_facts, derived, provenance
    from discovery.parcels where vintage_id = ${vintageId} and parcel_key = any(${keys}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.parcel_key, row]));
}

/** D13: the facts of a parcel are the merge of typed, free and derived. */
export const factsOf = (row: Pick<ParcelRow, 'typed' | 'free_facts' | 'derived'>): Record<string, unknown> => ({
  ...row.typed,
  ...row.free_facts,
  ...row.derived,
});

/**
 * D13: the provenance of each fact of a parcel — what the import stored (computed facts) over
 * "imported with this vintage" for every typed and derived fact the parcel has.
 */
export function provenanceOf(row: Pick<ParcelRow, 'typed' | 'derived' | 'provenance'>, vintageId: string): Record<string, unknown> {
  const provenance: Record<string, unknown> = {};
  const imported = { source: 'import', vintage_id: vintageId };
  for (const [field, value] of Object.entries(row.typed)) if (value !== null && value !== undefined) provenance[field] = imported;
  for (const field of Object.keys(row.derived)) provenance[field] = imported;
  for (const [field, stored] of Object.entries(row.provenance ?? {})) provenance[field] = { ...(stored as object), vintage_id: vintageId };
  return provenance;
}
