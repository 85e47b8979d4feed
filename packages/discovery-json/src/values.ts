import type { AppliedSpec, MustEvidence, PreferredEvidence, StoredEvaluation, StoredParcel } from '@landscreen/api-schemas';
import type { JsonValue } from '@bufbuild/protobuf';
import type { Value } from '@bufbuild/protobuf/wkt';
import type { discoveryv1 } from '@landscreen/proto';
import type { DiscoveryResultShape } from './discovery-result.js';

// The same shapes as the text writers beside this file (buy-box-spec.ts, discovery-result.ts,
// parcel-candidate.ts), built as values for a reader that works on them (a report, a stored row,
// an error's details) instead of writing them out: equal, key for key, to what JSON.parse reads
// from the text writer's output, without writing the text to parse it again.

/** A number as JSON.stringify then JSON.parse leave it: -0 is 0, what JSON cannot hold is null. */
const jsonNumber = (value: number): number | null => (Number.isFinite(value) ? value + 0 : null);

/** A google.protobuf.Value as the JSON value it carries (the inverse of valueOf). */
export function jsonValue(value: Value | undefined): JsonValue {
  if (value === undefined) return null;
  const kind = value.kind;
  switch (kind.case) {
    case 'numberValue':
      return jsonNumber(kind.value);
    case 'stringValue':
    case 'boolValue':
      return kind.value;
    case 'listValue':
      return kind.value.values.map(jsonValue);
    case 'structValue': {
      const object: { [key: string]: JsonValue } = {};
      // defineProperty: a "__proto__" key is data, as JSON.parse makes it.
      for (const [key, field] of Object.entries(kind.value.fields)) Object.defineProperty(object, key, { value: jsonValue(field), enumerable: true, writable: true, configurable: true });
      return object;
    }
    default:
      return null;
  }
}

/** A BuyBoxSpec as an applied spec (buyBoxSpecJson's shape); null for none. */
export function buyBoxSpecValue(spec: discoveryv1.BuyBoxSpec | undefined): AppliedSpec | null {
  if (!spec) return null;
  const cutoffs = spec.verdictCutoffs;
  return {
    markets: [...spec.markets],
    must: spec.must.map((rule) => ({
      field: rule.field,
      op: rule.op,
      value: jsonValue(rule.value),
      ...(rule.unknown !== undefined && { unknown: rule.unknown as 'exclude' | 'review' }),
    })),
    preferred: spec.preferred.map((rule) => ({
      field: rule.field,
      op: rule.op,
      value: jsonValue(rule.value),
      weight: jsonNumber(rule.weight)!,
      ...(rule.grade !== undefined && { grade: { zero_at: jsonNumber(rule.grade.zeroAt)! } }),
    })),
    verdict_cutoffs: { pursue: jsonNumber(cutoffs?.pursue ?? 0)!, monitor: jsonNumber(cutoffs?.monitor ?? 0)! },
  };
}

/** MustEvidence items as values (mustEvidenceJson's shape). */
export function mustEvidenceValues(evidence: readonly discoveryv1.MustEvidence[]): MustEvidence[] {
  return evidence.map((item) => ({ field: item.field, value: jsonValue(item.value), status: item.status as MustEvidence['status'] }));
}

/** PreferredEvidence items as values (preferredEvidenceJson's shape). */
export function preferredEvidenceValues(evidence: readonly discoveryv1.PreferredEvidence[]): PreferredEvidence[] {
  return evidence.map((item) => ({ field: item.field, value: jsonValue(item.value), weight: jsonNumber(item.weight)!, contribution: jsonNumber(item.contribution)! }));
}

/** A DiscoveryResult as a value (discoveryResultJson's shape, keys as that writes them). */
export function discoveryResultValue(result: discoveryv1.DiscoveryResult, shape: DiscoveryResultShape): StoredEvaluation {
  const nullable = (value: number | undefined) => (value === undefined ? null : jsonNumber(value));
  const value: StoredEvaluation = {
    parcel_key: result.parcelKey,
    apn: result.apn ?? null,
    address: result.address ?? null,
    lat: nullable(result.lat),
    lon: nullable(result.lon),
    acres: nullable(result.acres),
    developable_acres: nullable(result.developableAcres),
  } as StoredEvaluation;
  if (shape.geometry) {
    value.geometry = openJsonValue(result.geometryJson, null);
    value.bbox = result.bbox.length === 0 ? null : result.bbox.map((coordinate) => jsonNumber(coordinate)!);
  }
  if (result.factsJson.length > 0) value.facts = openJsonValue(result.factsJson, {});
  if (result.provenanceJson.length > 0) value.provenance = openJsonValue(result.provenanceJson, {});
  value.score = jsonNumber(result.score)!;
  value.verdict = result.verdict as StoredEvaluation['verdict'];
  value.review_required = result.reviewRequired;
  value.unknowns = [...result.unknowns];
  value.score_breakdown = { must: mustEvidenceValues(result.scoreBreakdown?.must ?? []), preferred: preferredEvidenceValues(result.scoreBreakdown?.preferred ?? []) };
  return value;
}

/** Open JSON a service encoded (an `*_json` field), read; `empty` stands for zero bytes. */
export function openJsonValue<T>(bytes: Uint8Array, empty: T): T {
  if (bytes.length === 0) return empty;
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as T;
}

/** A ParcelCandidate as a value (parcelCandidateJson's shape): no `provenance` key when the message leaves it out. */
export function parcelCandidateValue(parcel: discoveryv1.ParcelCandidate): StoredParcel {
  const value: StoredParcel = {
    market: parcel.market,
    vintage_id: parcel.vintageId,
    parcel_key: parcel.parcelKey,
    apn: parcel.apn ?? null,
    address: parcel.address ?? null,
    lat: parcel.lat === undefined ? null : jsonNumber(parcel.lat),
    lon: parcel.lon === undefined ? null : jsonNumber(parcel.lon),
    geometry: openJsonValue(parcel.geometryJson, null),
    typed: openJsonValue(parcel.typedJson, {}),
    free_facts: openJsonValue(parcel.freeFactsJson, {}),
    derived: openJsonValue(parcel.derivedJson, {}),
  };
  if (parcel.provenanceJson.length > 0) value.provenance = openJsonValue(parcel.provenanceJson, {});
  return value;
}
