import type { CompiledSpec } from '@landscreen/buybox-spec';
import type { Kysely } from 'kysely';
import { parcelFacts, parcelRowsByKey, provenanceOf, type ParcelRow, type VintageFields } from './parcel-rows.js';
import type { VintageIndex } from './ranking/vintage-index.js';

/**
 * The DiscoveryResult of each row of a page, in page order: the parcel's row read back, its
 * facts from the vintage's columns, and its evidence computed with the spec's own rule tests (so
 * it always agrees with the ranking).
 */
export async function discoveryResults(
  db: Kysely<any>,
  index: VintageIndex,
  fields: VintageFields,
  compiled: CompiledSpec,
  pageRows: number[],
  /** The page's parcel rows when the caller has read them already. */
  read?: Map<string, ParcelRow>,
) {
  const rows = read ?? (await parcelRowsByKey(db, index.vintageId, pageRows.map((row) => index.keys[row]!)));
  return pageRows.map((indexRow) => {
    const row = rows.get(index.keys[indexRow]!)!;
    const split = parcelFacts(index, indexRow, fields);
    const evaluation = compiled.evaluate((field) => split.facts[field]);
    return {
      parcel_key: row.parcel_key,
      apn: row.apn,
      address: row.address,
      lat: row.lat,
      lon: row.lon,
      acres: row.acres,
      developable_acres: row.developable_acres,
      geometry: row.geometry,
      bbox: row.bbox,
      facts: split.facts,
      provenance: provenanceOf(row, split, index.vintageId),
      score: evaluation.score,
      verdict: evaluation.verdict,
      review_required: evaluation.reviewRequired,
      unknowns: evaluation.unknowns,
      score_breakdown: { must: evaluation.must, preferred: evaluation.preferred },
    };
  });
}
