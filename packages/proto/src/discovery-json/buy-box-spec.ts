import type { BuyBoxSpec, MustRule, PreferredRule } from '../gen/landscreen/discovery/v1/discovery_pb.js';
import { stringJson } from './json-chunks.js';
import { valueJson } from './value.js';

/**
 * A BuyBoxSpec as the DiscoveryDraft JSON of the API spec (a buy box's `spec`, a query's
 * `applied_spec`, a parsed draft): markets, must, preferred, verdict_cutoffs, in that order; a
 * must rule's `unknown` only when it has one (a canonical spec always has).
 */
export function buyBoxSpecJson(spec: BuyBoxSpec | undefined): string {
  if (!spec) return 'null';
  const cutoffs = spec.verdictCutoffs;
  return (
    `{"markets":${JSON.stringify(spec.markets)},"must":[${spec.must.map(mustRuleJson).join(',')}],` +
    `"preferred":[${spec.preferred.map(preferredRuleJson).join(',')}],` +
    `"verdict_cutoffs":{"pursue":${JSON.stringify(cutoffs?.pursue ?? 0)},"monitor":${JSON.stringify(cutoffs?.monitor ?? 0)}}}`
  );
}

function mustRuleJson(rule: MustRule): string {
  const unknown = rule.unknown === undefined ? '' : `,"unknown":${stringJson(rule.unknown)}`;
  return `{"field":${stringJson(rule.field)},"op":${stringJson(rule.op)},"value":${valueJson(rule.value)}${unknown}}`;
}

function preferredRuleJson(rule: PreferredRule): string {
  return `{"field":${stringJson(rule.field)},"op":${stringJson(rule.op)},"value":${valueJson(rule.value)},"weight":${JSON.stringify(rule.weight)}}`;
}
