import { sql } from 'kysely';
import type { PolygonalGeometry } from '@landscreen/point-engine';
import { ParcelIndex, type IndexedParcelInput } from './parcel-index.js';
import type { DiscoveryDb } from '../schema.js';

const PAGE = 5_000;

interface StoredParcel extends Omit<IndexedParcelInput, 'geometry'> {
  geometry: { type?: string } | null;
}

/**
 * Reads a vintage's parcels in keyset pages on the partition's primary key (each page one short
 * index scan, memory bounded by the page) and indexes those with a polygonal geometry; a parcel
 * imported as a point has no area to be in or near, so it is never located.
 */
export async function loadParcelIndex(db: DiscoveryDb, vintageId: string): Promise<ParcelIndex> {
  const parcels: IndexedParcelInput[] = [];
  let after = '';
  for (;;) {
    const { rows } = await sql<StoredParcel>`
      select parcel_key, geometry, apn, address, owner_name, zoning, acres, lat, lon
      from discovery.parcels
      where vintage_id = ${vintageId} and parcel_key > ${after}
      order by parcel_key
      limit ${PAGE}`.execute(db);
    for (const row of rows) {
      if (row.geometry?.type !== 'Polygon' && row.geometry?.type !== 'MultiPolygon') continue;
      parcels.push({ ...row, geometry: row.geometry as PolygonalGeometry });
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].parcel_key;
  }
  return ParcelIndex.build(vintageId, parcels);
}
