// The hosting-capacity estimate of a point (D31): the best of what its nearest substation and
// nearest transmission line support under the model, the features as its basis, and a confidence
// that says how much of the grid data the answer could use.

import { featureEstimate, MODEL_VERSION, type MwRange } from './capacity-model.js';
import type { GridFacts, GridFeature } from './grid-features.js';

export type Confidence = 'low' | 'medium' | 'high';

export interface HostingCapacityEstimate {
  /** Null when no grid layer is loaded: nothing is known, not "no capacity". */
  estimateMw: MwRange | null;
  basis: (GridFeature & { estimateMw: MwRange })[];
  confidence: Confidence;
  modelVersion: number;
  /** Why estimateMw is null; null when there is one. */
  nullReason: 'no_coverage' | null;
}

const GRID_SOURCE_COUNT = 2;

export function estimateHostingCapacity(facts: GridFacts): HostingCapacityEstimate {
  if (facts.loaded.length === 0) {
    return { estimateMw: null, basis: [], confidence: 'low', modelVersion: MODEL_VERSION, nullReason: 'no_coverage' };
  }
  const basis = facts.features
    .map((feature) => ({ ...feature, estimateMw: featureEstimate(feature.voltageKv, feature.distanceM) }))
    .sort((a, b) => b.estimateMw.high - a.estimateMw.high || a.distanceM - b.distanceM);
  // Loaded layers with nothing in reach answer a known zero, not an unknown.
  const best = basis[0]?.estimateMw ?? { low: 0, high: 0 };
  return { estimateMw: { ...best }, basis, confidence: confidenceOf(facts, basis[0]), modelVersion: MODEL_VERSION, nullReason: null };
}

/** high: both grid sources loaded and the deciding feature's voltage known; medium otherwise. */
function confidenceOf(facts: GridFacts, deciding: GridFeature | undefined): Confidence {
  const voltageKnown = deciding === undefined || deciding.voltageKv !== null;
  return facts.loaded.length === GRID_SOURCE_COUNT && voltageKnown ? 'high' : 'medium';
}
