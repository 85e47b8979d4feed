// Answers one gridded source's fields at one location: one sample for grid values, one Horn
// neighbourhood for slope and aspect, whichever the requested fields need.

import type { LocationAnswer, Provenance } from './answers.js';
import type { LocationContext } from './evaluate-vector.js';
import type { GridBlockView } from './grid-blocks.js';
import { compassPoint, type GridLayerIndex, type GridSample, type TerrainSample } from './grid-index.js';
import type { GridGroup } from './plan.js';

export function evaluateGridGroup(
  group: GridGroup,
  index: GridLayerIndex,
  view: GridBlockView,
  provenance: Provenance,
  at: LocationContext,
  answer: LocationAnswer,
): void {
  let sample: GridSample | undefined;
  let terrain: TerrainSample | 'outside' | 'no_data' | undefined;
  for (const slot of group.slots) {
    const evaluator = slot.evaluator;
    const i = slot.index;
    answer.provenance[i] = provenance;
    answer.clearValue(i);
    if (evaluator.conusOnly && !at.inConus()) {
      answer.reasons[i] = 'outside_conus';
      continue;
    }
    if (evaluator.kind === 'grid_value') {
      sample ??= index.sample(at.lon, at.lat, view);
      if (sample === 'outside') answer.reasons[i] = 'outside_coverage';
      else if (sample === 'no_data') answer.reasons[i] = 'no_data';
      else {
        answer.setNumber(i, evaluator.round === 'integer' ? Math.round(sample.value) : sample.value);
        answer.reasons[i] = null;
      }
      continue;
    }
    terrain ??= index.terrain(at.lon, at.lat, view);
    if (terrain === 'outside') answer.reasons[i] = 'outside_coverage';
    else if (terrain === 'no_data') answer.reasons[i] = 'no_data';
    else if (evaluator.kind === 'slope_degrees') {
      answer.setNumber(i, terrain.slopeDegrees);
      answer.reasons[i] = null;
    } else if (terrain.aspectDegrees === null) answer.reasons[i] = 'flat';
    else {
      answer.setValue(i, evaluator.kind === 'aspect_degrees' ? terrain.aspectDegrees : compassPoint(terrain.aspectDegrees));
      answer.reasons[i] = null;
    }
  }
}
