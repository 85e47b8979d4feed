import type { MessageInitShape } from '@bufbuild/protobuf';
import type { catalogv1 } from '@landscreen/proto';
import { issue, validationError, type ValidationIssue } from '@landscreen/rpc';
import { estimateHostingCapacity } from '../grid-estimate/estimate.js';
import { gridFactsAt } from '../grid-estimate/grid-features.js';
import type { LayerCache } from '../layers/layer-cache.js';

type Response = MessageInitShape<typeof catalogv1.EstimateHostingCapacityResponseSchema>;

/** An indicative MW range near a point from the current grid layers (D31). */
export function estimateHostingCapacityHandler(layers: LayerCache) {
  return async (request: catalogv1.EstimateHostingCapacityRequest): Promise<Response> => {
    const issues = validate(request);
    if (issues.length > 0) throw validationError(issues);
    const { engine } = await layers.current();
    const estimate = estimateHostingCapacity(gridFactsAt(engine, request.lat, request.lon));
    return {
      estimateMw: estimate.estimateMw ?? undefined,
      basis: estimate.basis.map((feature) => ({
        kind: feature.kind,
        source: feature.source,
        layerVersionId: feature.layerVersion,
        distanceM: feature.distanceM,
        voltageKv: feature.voltageKv ?? undefined,
        status: feature.status ?? undefined,
        estimateMw: feature.estimateMw,
      })),
      confidence: estimate.confidence,
      modelVersion: estimate.modelVersion,
      nullReason: estimate.nullReason ?? '',
    };
  };
}

function validate(request: catalogv1.EstimateHostingCapacityRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!(request.lat >= -90 && request.lat <= 90)) issues.push(issue.valueError(['body', 'latitude'], request.lat, 'latitude must be within [-90, 90]'));
  if (!(request.lon >= -180 && request.lon <= 180)) issues.push(issue.valueError(['body', 'longitude'], request.lon, 'longitude must be within [-180, 180]'));
  return issues;
}
