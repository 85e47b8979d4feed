import type { CompiledSpec, Evaluation } from '@landscreen/buybox-spec';
import type { Kysely } from 'kysely';
import type { FieldProvenance } from './field-provenance.js';
import { parcelFacts, parcelRowsByKey, provenanceOf, type ParcelFacts, type ParcelRow, type VintageFields } from './parcel-rows.js';
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
) {
  const rows = await parcelRowsByKey(db, index.vintageId, pageRows.map((row) => index.keys.at(row)!));
  return pageRows.map((indexRow) => {
    const split = parcelFacts(index, indexRow, fields);
    return discoveryResult(rows.get(index.keys.at(indexRow)!)!, split, compiled.evaluate((field) => split.facts[field]), { id: index.vintageId, fieldProvenance: fields.fieldProvenance });
  });
}

/** The DiscoveryResult of one parcel: its row, its facts and their evaluation against the spec. */
export function discoveryResult(
  row: ParcelRow,
  split: ParcelFacts,
  evaluation: Evaluation,
  vintage: { id: string; fieldProvenance?: FieldProvenance | null },
) {
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
    provenance: provenanceOf(row, split, vintage),
    score: evaluation.score,
    verdict: evaluation.verdict,
    review_required: evaluation.reviewRequired,
    unknowns: evaluation.unknowns,
    score_breakdown: { must: evaluation.must, preferred: evaluation.preferred },
  };
}
