import type { FaultInjector, Logger } from '@landscreen/rpc';
import type { PolygonalGeometry } from '@landscreen/point-engine';
import { ParcelIndex, type IndexedParcelInput } from './parcel-index.js';
import { UnusableParcelIndex } from './parcel-index-blob.js';
import { loadStoredParcelParts, saveParcelIndex } from './parcel-index-store.js';
import { restoreInWorker } from './restore-in-worker.js';
import type { DiscoveryDb } from '../schema.js';

const PAGE = 5_000;

interface StoredParcel extends Omit<IndexedParcelInput, 'geometry'> {
  geometry: { type?: string } | null;
}

/**
 * A vintage's parcel index: the stored one (written by the import) when there is one, its parts
 * read here and joined and decoded in a worker thread (restore-in-worker.ts), so the event loop
 * does only the reading; else built from the parcels' rows and stored, so that this is paid once per vintage,
 * not once per start.
 */
export async function loadParcelIndex(db: DiscoveryDb, vintageId: string, options: { logger?: Logger; faults?: FaultInjector } = {}): Promise<ParcelIndex> {
  const { logger, faults } = options;
  try {
    const parts = await loadStoredParcelParts(db, vintageId);
    if (parts) return await restoreInWorker(parts, vintageId);
  } catch (error) {
    if (!(error instanceof UnusableParcelIndex)) throw error;
    logger?.warn({ vintageId, reason: error.message }, 'ignoring the stored parcel index; building it from the parcels');
    await db.deleteFrom('vintage_parcel_shapes').where('vintage_id', '=', vintageId).execute();
  }
  // Tests arm this point to prove a tile came from the stored index.
  await faults?.('discovery.parcel-index.build-from-rows');
  const index = await buildParcelIndex(db, vintageId);
  await saveParcelIndex(db, index.stored()).catch((error) => logger?.warn({ err: error, vintageId }, 'could not store the parcel index'));
  return index;
}

/**
 * Reads a vintage's parcels in keyset pages on the partition's primary key (each page one short
 * index scan, memory bounded by the page) and indexes those with a polygonal geometry; a parcel
 * imported as a point has no area to be in or near, so it is never located.
 */
export async function buildParcelIndex(db: DiscoveryDb, vintageId: string): Promise<ParcelIndex> {
  const parcels: IndexedParcelInput[] = [];
  let after = '';
  for (;;) {
    const rows: StoredParcel[] = await db
      .selectFrom('parcels')
      .select(['parcel_key', 'geometry', 'apn', 'address', 'owner_name', 'zoning', 'acres', 'lat', 'lon'])
      .where('vintage_id', '=', vintageId)
      .where('parcel_key', '>', after)
      .orderBy('parcel_key')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      if (row.geometry?.type !== 'Polygon' && row.geometry?.type !== 'MultiPolygon') continue;
      parcels.push({ ...row, geometry: row.geometry as PolygonalGeometry });
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].parcel_key;
  }
  return ParcelIndex.build(vintageId, parcels);
}
