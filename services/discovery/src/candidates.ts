import type { discoveryv1 } from '@landscreen/proto';
import type { MarketVintage } from './market-access.js';
import { openJson } from './messages/json-bytes.js';
import { parcelFacts, provenanceOf, type ParcelFacts, type ParcelRow } from './parcel-rows.js';
import type { VintageIndex } from './ranking/vintage-index.js';

/**
 * The ParcelCandidate of a parcel row: its facts split as imported, read from the vintage's
 * columns. `lean` leaves the provenance out (ResolveParcels for a bulk caller).
 */
export function parcelCandidate(
  { market, vintage }: MarketVintage,
  index: VintageIndex,
  row: ParcelRow,
  split: ParcelFacts = parcelFacts(index, index.rowOfKey(row.parcel_key)!, vintage),
  lean = false,
): discoveryv1.ParcelCandidate {
  return {
    $typeName: 'landscreen.discovery.v1.ParcelCandidate',
    market: market.slug,
    vintageId: vintage.id,
    parcelKey: row.parcel_key,
    apn: row.apn ?? undefined,
    address: row.address ?? undefined,
    lat: row.lat ?? undefined,
    lon: row.lon ?? undefined,
    geometryJson: openJson(row.geometry),
    typedJson: openJson(split.typed),
    freeFactsJson: openJson(split.free_facts),
    derivedJson: openJson(split.derived),
    provenanceJson: openJson(lean ? null : provenanceOf(row, split, vintage)),
  };
}
