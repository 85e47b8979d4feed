import type { MarketVintage } from './market-access.js';
import { parcelFacts, provenanceOf, type ParcelFacts, type ParcelRow } from './parcel-rows.js';
import type { VintageIndex } from './ranking/vintage-index.js';

/** The ParcelCandidate of a parcel row: its facts split as imported, read from the vintage's columns. */
export function parcelCandidate(
  { market, vintage }: MarketVintage,
  index: VintageIndex,
  row: ParcelRow,
  split: ParcelFacts = parcelFacts(index, index.rowOfKey(row.parcel_key)!, vintage),
) {
  return {
    market: market.slug,
    vintage_id: vintage.id,
    parcel_key: row.parcel_key,
    apn: row.apn,
    address: row.address,
    lat: row.lat,
    lon: row.lon,
    geometry: row.geometry,
    typed: split.typed,
    free_facts: split.free_facts,
    derived: split.derived,
    provenance: provenanceOf(row, split, vintage),
  };
}
