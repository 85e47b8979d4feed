import { create } from '@bufbuild/protobuf';
import { discoveryv1 } from '@landscreen/proto';
import { stringJson } from './json-chunks.js';
import { valueJson, valueOf } from './value.js';

/**
 * A spec in its JSON form (a DiscoveryDraft, a canonical spec, or one the pipeline stored as
 * discovery answered it); a parsed draft may lack rules, a stored one may lack cutoffs.
 */
export interface BuyBoxSpecJsonShape {
  markets?: readonly string[];
  must?: readonly { field: string; op: string; value: unknown; unknown?: string | null }[];
  preferred?: readonly { field: string; op: string; value: unknown; weight: number; grade?: { zero_at: number } | null }[];
  verdict_cutoffs?: { pursue: number; monitor: number };
}

/** A spec's JSON form as the BuyBoxSpec message (the inverse of buyBoxSpecJson); rule values as google.protobuf.Value. */
export function buyBoxSpecMessage(spec: BuyBoxSpecJsonShape): discoveryv1.BuyBoxSpec {
  return create(discoveryv1.BuyBoxSpecSchema, {
    markets: [...(spec.markets ?? [])],
    must: (spec.must ?? []).map((rule) => ({ field: rule.field, op: rule.op, value: valueOf(rule.value), unknown: rule.unknown ?? undefined })),
    preferred: (spec.preferred ?? []).map((rule) => ({
      field: rule.field,
      op: rule.op,
      value: valueOf(rule.value),
      weight: rule.weight,
      grade: rule.grade ? { zeroAt: rule.grade.zero_at } : undefined,
    })),
    verdictCutoffs: spec.verdict_cutoffs && { pursue: spec.verdict_cutoffs.pursue, monitor: spec.verdict_cutoffs.monitor },
  });
}

/**
 * A BuyBoxSpec as the DiscoveryDraft JSON of the API spec (a buy box's `spec`, a query's
 * `applied_spec`, a parsed draft): markets, must, preferred, verdict_cutoffs, in that order; a
 * must rule's `unknown` only when it has one (a canonical spec always has).
 */
export function buyBoxSpecJson(spec: discoveryv1.BuyBoxSpec | undefined): string {
  if (!spec) return 'null';
  const cutoffs = spec.verdictCutoffs;
  return (
    `{"markets":${JSON.stringify(spec.markets)},"must":[${spec.must.map(mustRuleJson).join(',')}],` +
    `"preferred":[${spec.preferred.map(preferredRuleJson).join(',')}],` +
    `"verdict_cutoffs":{"pursue":${JSON.stringify(cutoffs?.pursue ?? 0)},"monitor":${JSON.stringify(cutoffs?.monitor ?? 0)}}}`
  );
}

function mustRuleJson(rule: discoveryv1.MustRule): string {
  const unknown = rule.unknown === undefined ? '' : `,"unknown":${stringJson(rule.unknown)}`;
  return `{"field":${stringJson(rule.field)},"op":${stringJson(rule.op)},"value":${valueJson(rule.value)}${unknown}}`;
}

/** A preferred rule; `grade` (D41) only on a graded rule, so an ungraded one reads as before. */
function preferredRuleJson(rule: discoveryv1.PreferredRule): string {
  const grade = rule.grade === undefined ? '' : `,"grade":{"zero_at":${JSON.stringify(rule.grade.zeroAt)}}`;
  return `{"field":${stringJson(rule.field)},"op":${stringJson(rule.op)},"value":${valueJson(rule.value)},"weight":${JSON.stringify(rule.weight)}${grade}}`;
}
