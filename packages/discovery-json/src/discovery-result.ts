import type { discoveryv1 } from '@landscreen/proto';
import { JsonChunks, scalarJson, stringJson, stringsJson } from './json-chunks.js';
import { valueJson } from './value.js';

export interface DiscoveryResultShape {
  /**
   * Whether the `geometry` and `bbox` keys are written: a query's results have them; a
   * ResolveParcels evaluation leaves them out (the parcel's ParcelCandidate carries them).
   */
  geometry: boolean;
}

/**
 * Writes a DiscoveryResult as the API spec's JSON: the parcel, its facts and provenance (spliced
 * as the service encoded them; left out when the message leaves them empty, as a lean
 * evaluation does), score, verdict and the evidence of every rule.
 */
export function writeDiscoveryResult(out: JsonChunks, result: discoveryv1.DiscoveryResult, shape: DiscoveryResultShape): void {
  out.write(
    `{"parcel_key":${stringJson(result.parcelKey)},"apn":${scalarJson(result.apn)},"address":${scalarJson(result.address)},` +
      `"lat":${scalarJson(result.lat)},"lon":${scalarJson(result.lon)},"acres":${scalarJson(result.acres)},` +
      `"developable_acres":${scalarJson(result.developableAcres)}`,
  );
  if (shape.geometry) {
    out.write(',"geometry":').raw(result.geometryJson);
    out.write(`,"bbox":${result.bbox.length === 0 ? 'null' : JSON.stringify(result.bbox)}`);
  }
  if (result.factsJson.length > 0) out.write(',"facts":').raw(result.factsJson);
  if (result.provenanceJson.length > 0) out.write(',"provenance":').raw(result.provenanceJson);
  const breakdown = result.scoreBreakdown;
  out.write(
    `,"score":${JSON.stringify(result.score)},"verdict":${stringJson(result.verdict)},"review_required":${result.reviewRequired},` +
      `"unknowns":${stringsJson(result.unknowns)},"score_breakdown":{"must":${mustEvidenceJson(breakdown?.must ?? [])},` +
      `"preferred":${preferredEvidenceJson(breakdown?.preferred ?? [])}}}`,
  );
}

/** A DiscoveryResult as JSON text (a stored evaluation). */
export function discoveryResultJson(result: discoveryv1.DiscoveryResult, shape: DiscoveryResultShape): string {
  const out = new JsonChunks();
  writeDiscoveryResult(out, result, shape);
  return out.toString();
}

/** MustEvidence items as a JSON array: `field`, `value`, `status` each. */
export function mustEvidenceJson(evidence: readonly discoveryv1.MustEvidence[]): string {
  let text = '';
  for (const item of evidence) {
    text += `${text ? ',' : ''}{"field":${stringJson(item.field)},"value":${valueJson(item.value)},"status":${stringJson(item.status)}}`;
  }
  return `[${text}]`;
}

/** PreferredEvidence items as a JSON array: `field`, `value`, `weight`, `contribution` each. */
export function preferredEvidenceJson(evidence: readonly discoveryv1.PreferredEvidence[]): string {
  let text = '';
  for (const item of evidence) {
    text +=
      `${text ? ',' : ''}{"field":${stringJson(item.field)},"value":${valueJson(item.value)},` +
      `"weight":${JSON.stringify(item.weight)},"contribution":${JSON.stringify(item.contribution)}}`;
  }
  return `[${text}]`;
}
