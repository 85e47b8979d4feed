import type { CompiledSpec, Evaluation } from '@landscreen/buybox-spec';
import { roundFact } from '@landscreen/field-catalog';
import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import type { FieldProvenance } from './field-provenance.js';
import { openJson } from './messages/json-bytes.js';
import { parcelFacts, parcelRowsByKey, provenanceOf, type ParcelFacts, type ParcelRow, type VintageFields } from './parcel-rows.js';
import type { VintageIndex } from './ranking/vintage-index.js';
import type { DiscoveryDb } from './schema.js';
import { shownFacts, shownProvenance } from './shown-facts.js';

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
  chosen?: readonly string[],
): Promise<discoveryv1.DiscoveryResult[]> {
  const [rows, values] = await Promise.all([parcelRowsByKey(db, index.vintageId, pageRows.map((row) => index.keys.at(row)!)), index.rowValues(pageRows)]);
  return pageRows.map((indexRow) => {
    const split = parcelFacts(values, indexRow, fields);
    const evaluation = compiled.evaluate((field) => split.facts[field]);
    return discoveryResult(rows.get(index.keys.at(indexRow)!)!, split, evaluation, { id: index.vintageId, fieldProvenance: fields.fieldProvenance }, { chosen });
  });
}

/** What a DiscoveryResult leaves out (ResolveParcels' evaluations: the ParcelCandidate carries it). */
export interface LeftOut {
  /** geometry and bbox. */
  geometry?: boolean;
  /** facts and provenance (a lean evaluation: computing the provenance is most of the work). */
  facts?: boolean;
  /** D40: the facts (and provenance) to show, by name; undefined: all of them. */
  chosen?: readonly string[];
}

/**
 * The DiscoveryResult of one parcel: its row, its facts and their evaluation against the spec.
 * Built as message literals, not with create(): a page has 50-200 of them with an evidence
 * message per rule each. Facts, evidence values and acres are shown rounded per unit (D40); the
 * evaluation was made on the stored values.
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
    acres: shownNumber('acres', row.acres),
    developableAcres: shownNumber('developable_acres', row.developable_acres),
    geometryJson: openJson(leftOut.geometry ? null : row.geometry),
    bbox: leftOut.geometry ? [] : (row.bbox ?? []),
    factsJson: openJson(leftOut.facts ? null : shownFacts(split.facts, leftOut.chosen)),
    provenanceJson: openJson(leftOut.facts ? null : shownProvenance(provenanceOf(row, split, vintage), leftOut.chosen)),
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
        value: valueOf(roundFact(item.field, item.value)),
        weight: item.weight,
        contribution: item.contribution,
      })),
    },
  };
}

/** MustEvidence messages (a result's must evidence, or the failed evidence of an evaluation). */
export function mustEvidence(evidence: Evaluation['must']): discoveryv1.MustEvidence[] {
  return evidence.map((item) => ({ $typeName: 'landscreen.discovery.v1.MustEvidence', field: item.field, value: valueOf(roundFact(item.field, item.value)), status: item.status }));
}

/** A number column of the parcel row as shown (D40); undefined for null. */
export function shownNumber(field: string, value: number | null): number | undefined {
  return value === null ? undefined : (roundFact(field, value) as number);
}
