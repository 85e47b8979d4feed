import type { discoveryv1 } from '@landscreen/proto';
import type { MarketVintage } from './market-vintage.js';
import { openJson } from './messages/json-bytes.js';
import { parcelFacts, provenanceOf, type ParcelFacts, type ParcelRow } from './parcel-rows.js';
import { roundFacts } from '@landscreen/field-catalog';
import type { VintageIndex } from './ranking/vintage-index.js';

/** The facts of parcel rows of the index, split as imported (for parcelCandidate). */
export async function candidateFacts(index: VintageIndex, vintage: MarketVintage['vintage'], rows: readonly Pick<ParcelRow, 'parcel_key'>[]): Promise<ParcelFacts[]> {
  const indexRows = rows.map((row) => index.rowOfKey(row.parcel_key)!);
  const values = await index.rowValues(indexRows);
  return indexRows.map((indexRow) => parcelFacts(values, indexRow, vintage));
}

/**
 * The ParcelCandidate of a parcel row: its facts split as imported, read from the vintage's
 * columns (candidateFacts), numbers shown rounded per unit (D40). `lean` leaves the provenance out (ResolveParcels
 * for a bulk caller). The point stays as stored: callers evaluate layers at it.
 */
export function parcelCandidate(
  { market, vintage }: MarketVintage,
  row: ParcelRow,
  split: ParcelFacts,
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
    typedJson: openJson(roundFacts(split.typed)),
    freeFactsJson: openJson(roundFacts(split.free_facts)),
    derivedJson: openJson(roundFacts(split.derived)),
    provenanceJson: openJson(lean ? null : provenanceOf(row, split, vintage)),
  };
}
