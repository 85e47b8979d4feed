// Tests: every stored fact and provenance of a vintage, by parcel_key, as a reader shows it —
// which null reason a vintage stores once and which each parcel stores is decided by prepare's
// first page, so it moves with how the work is cut; what it means does not.

import { sql } from 'kysely';
import type { DatabaseHandle } from '@landscreen/db';
import { discoveryDb, fieldProvenanceOf, provenanceOf } from '@landscreen/discovery-service';
import { valueAt } from '../../../services/discovery/src/ranking/columns.js';
import { loadVintageIndex } from '../../../services/discovery/src/ranking/column-store.js';

export async function vintageContents(db: DatabaseHandle['db'], vintageId: string) {
  const index = await loadVintageIndex(discoveryDb(db), vintageId);
  const fields = [...index.entries()].map(([field]) => field).sort();
  const { rows } = await sql<{ parcel_key: string; provenance: unknown; lat: number | null; geometry: unknown }>`
    select parcel_key, provenance, lat, geometry from discovery.parcels where vintage_id = ${vintageId} order by parcel_key`.execute(db);
  const fieldProvenance = await fieldProvenanceOf(discoveryDb(db), vintageId);
  return rows.map((row) => {
    const facts = Object.fromEntries(fields.map((field) => [field, valueAt(index.column(field), index.rowOfKey(row.parcel_key)!)]).filter(([, value]) => value !== null));
    const provenance = provenanceOf({ provenance: row.provenance } as Parameters<typeof provenanceOf>[0], { typed: {}, derived: facts } as unknown as Parameters<typeof provenanceOf>[1], { id: 'VINTAGE', fieldProvenance });
    return { key: row.parcel_key, provenance, lat: row.lat, geometry: row.geometry, facts };
  });
}

/** Contents with the base vintage's id (named by the parcel overlays' provenance) as BASE. */
export const withBaseNamed = (rows: unknown, base: string): unknown => JSON.parse(JSON.stringify(rows).replaceAll(base, 'BASE'));
