import { create } from '@bufbuild/protobuf';
import type { DiscoveryDraft } from '@landscreen/buybox-spec';
import { discoveryjson, discoveryv1 } from '@landscreen/proto';

/** A DiscoveryDraft or canonical spec (D11) as a BuyBoxSpec message; rule values as google.protobuf.Value. */
export function buyBoxSpecMessage(spec: DiscoveryDraft): discoveryv1.BuyBoxSpec {
  return create(discoveryv1.BuyBoxSpecSchema, {
    markets: spec.markets,
    must: (spec.must ?? []).map((rule) => ({ field: rule.field, op: rule.op, value: discoveryjson.valueOf(rule.value), unknown: rule.unknown ?? undefined })),
    preferred: (spec.preferred ?? []).map((rule) => ({ field: rule.field, op: rule.op, value: discoveryjson.valueOf(rule.value), weight: rule.weight })),
    verdictCutoffs: { pursue: spec.verdict_cutoffs.pursue, monitor: spec.verdict_cutoffs.monitor },
  });
}
