import type { CompiledSpec, Evaluation } from '@landscreen/buybox-spec';
import { discoveryjson, type discoveryv1 } from '@landscreen/proto';
import type { FieldProvenance } from './field-provenance.js';
import { openJson } from './messages/json-bytes.js';
import { parcelFacts, parcelRowsByKey, provenanceOf, type ParcelFacts, type ParcelRow, type VintageFields } from './parcel-rows.js';
import type { VintageIndex } from './ranking/vintage-index.js';
import type { DiscoveryDb } from './schema.js';

const { valueOf } = discoveryjson;

/**
 * The DiscoveryResult of each row of a page, in page order: the parcel's row read back, its
 * facts from the vintage's columns, and its evidence computed with the spec's own rule tests (so
 * it always agrees with the ranking).
 */
export async function discoveryResults(
  db: DiscoveryDb,
  index: VintageIndex,
  fields: VintageFields,
  compiled: CompiledSpec,
  pageRows: number[],
): Promise<discoveryv1.DiscoveryResult[]> {
  const rows = await parcelRowsByKey(db, index.vintageId, pageRows.map((row) => index.keys.at(row)!));
  return pageRows.map((indexRow) => {
    const split = parcelFacts(index, indexRow, fields);
    return discoveryResult(rows.get(index.keys.at(indexRow)!)!, split, compiled.evaluate((field) => split.facts[field]), { id: index.vintageId, fieldProvenance: fields.fieldProvenance });
  });
}

/** What a DiscoveryResult leaves out (ResolveParcels' evaluations: the ParcelCandidate carries it). */
export interface LeftOut {
  /** geometry and bbox. */
  geometry?: boolean;
  /** facts and provenance (a lean evaluation: computing the provenance is most of the work). */
  facts?: boolean;
}

/**
 * The DiscoveryResult of one parcel: its row, its facts and their evaluation against the spec.
 * Built as message literals, not with create(): a page has 50-200 of them with an evidence
 * message per rule each.
 */
export function discoveryResult(
  row: ParcelRow,
  split: ParcelFacts,
  evaluation: Evaluation,
  vintage: { id: string; fieldProvenance?: FieldProvenance | null },
  leftOut: LeftOut = {},
): discoveryv1.DiscoveryResult {
  return {
    $typeName: 'landscreen.discovery.v1.DiscoveryResult',
    parcelKey: row.parcel_key,
    apn: row.apn ?? undefined,
    address: row.address ?? undefined,
    lat: row.lat ?? undefined,
    lon: row.lon ?? undefined,
    acres: row.acres ?? undefined,
    developableAcres: row.developable_acres ?? undefined,
    geometryJson: openJson(leftOut.geometry ? null : row.geometry),
    bbox: leftOut.geometry ? [] : (row.bbox ?? []),
    factsJson: openJson(leftOut.facts ? null : split.facts),
    provenanceJson: openJson(leftOut.facts ? null : provenanceOf(row, split, vintage)),
    score: evaluation.score,
    verdict: evaluation.verdict,
    reviewRequired: evaluation.reviewRequired,
    unknowns: evaluation.unknowns,
    scoreBreakdown: {
      $typeName: 'landscreen.discovery.v1.ScoreBreakdown',
      must: mustEvidence(evaluation.must),
      preferred: evaluation.preferred.map((item) => ({
        $typeName: 'landscreen.discovery.v1.PreferredEvidence',
        field: item.field,
        value: valueOf(item.value),
        weight: item.weight,
        contribution: item.contribution,
      })),
    },
  };
}

/** MustEvidence messages (a result's must evidence, or the failed evidence of an evaluation). */
export function mustEvidence(evidence: Evaluation['must']): discoveryv1.MustEvidence[] {
  return evidence.map((item) => ({ $typeName: 'landscreen.discovery.v1.MustEvidence', field: item.field, value: valueOf(item.value), status: item.status }));
}
