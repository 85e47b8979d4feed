import { roundFact } from '@landscreen/field-catalog';
import type { EstimateResponse, UtilityFindingsResponse } from '@landscreen/api-schemas';
import type { catalogv1 } from '@landscreen/proto';

type Basis = EstimateResponse['basis'][number];

/** EstimateHostingCapacity as POST /v1/internal/hosting-capacity/estimate answers it (D31). */
export function estimateRecord(estimate: catalogv1.EstimateHostingCapacityResponse): EstimateResponse {
  return {
    estimate_mw: estimate.estimateMw ? mwRange(estimate.estimateMw) : null,
    basis: estimate.basis.map((feature) => ({
      kind: feature.kind as Basis['kind'],
      source: feature.source,
      layer_version: feature.layerVersionId,
      distance_m: feature.distanceM,
      voltage_kv: feature.voltageKv ?? null,
      status: feature.status ?? null,
      estimate_mw: mwRange(feature.estimateMw),
    })),
    confidence: estimate.confidence as EstimateResponse['confidence'],
    model_version: estimate.modelVersion,
    null_reason: estimate.nullReason === '' ? null : estimate.nullReason,
  };
}

/**
 * GetUtilityFindings as GET /v1/internal/utility-findings answers it: D34's values/null_reasons
 * shape, numbers rounded per unit as every answer shows them (D40).
 */
export function utilityFindingsRecord(answer: catalogv1.GetUtilityFindingsResponse): UtilityFindingsResponse {
  const findings: UtilityFindingsResponse['findings'] = {};
  const null_reasons: Record<string, string> = {};
  const provenance: UtilityFindingsResponse['provenance'] = {};
  for (const finding of answer.findings) {
    findings[finding.field] = roundFact(finding.field, valueOf(finding.value)) as UtilityFindingsResponse['findings'][string];
    if (finding.nullReason !== '') null_reasons[finding.field] = finding.nullReason;
    if (finding.provenance) {
      provenance[finding.field] = {
        layers: finding.provenance.layers.map((layer) => ({ source: layer.source, layer_version: layer.layerVersionId })),
        formula_version: finding.provenance.formulaVersion ?? null,
      };
    }
  }
  return {
    market: answer.market,
    vintage_id: answer.vintageId,
    parcel_key: answer.parcelKey,
    // The service always sends the parcel's point; without one the answer says null rather than failing.
    location: { lat: answer.location?.lat ?? null, lon: answer.location?.lon ?? null } as UtilityFindingsResponse['location'],
    findings,
    null_reasons,
    provenance,
  };
}

const mwRange = (range: catalogv1.MwRange | undefined) => ({ low: range?.low ?? 0, high: range?.high ?? 0 });

function valueOf(value: catalogv1.FieldAnswer['value']) {
  if (value.case === undefined) return null;
  return value.case === 'intValue' ? Number(value.value) : value.value;
}
