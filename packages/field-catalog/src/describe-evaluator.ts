// One sentence per evaluator saying how the field is computed, for docs/layers.md (and for
// GET /v1/meta/sources when it lists what each source feeds). Written from the declaration, so
// the document cannot drift from what the engine runs.

import type { FeatureFilter, FieldEvaluator } from './field-evaluator.js';

const meters = (m: number) => (m >= 1000 ? `${m / 1000} km` : `${m} m`);

function where(filter: FeatureFilter | undefined): string {
  return filter ? ` whose \`${filter.property}\` is ${filter.oneOf.map((v) => `\`${String(v)}\``).join(' or ')}` : '';
}

export function describeEvaluator(evaluator: FieldEvaluator): string {
  const conus = 'conusOnly' in evaluator && evaluator.conusOnly ? ' CONUS only: null `outside_conus` elsewhere.' : '';
  return sentence(evaluator) + conus;
}

function sentence(e: FieldEvaluator): string {
  switch (e.kind) {
    case 'nearest_distance':
      return `Geodesic meters to the nearest feature${where(e.filter)} (0 inside a polygon)${e.maxDistanceM !== undefined ? `; null \`none_within_radius\` past ${meters(e.maxDistanceM)}` : ''}.`;
    case 'nearest_attribute':
      return `\`${e.property}\` of the nearest feature${where(e.filter)}${e.maxDistanceM !== undefined ? ` within ${meters(e.maxDistanceM)} (else null \`none_within_radius\`)` : ''}.`;
    case 'voltage_basis':
      return `Of the nearest feature: \`numeric\` when \`${e.numberProperty}\` is published (> 0), else \`class_band\` when \`${e.classProperty}\` is, else \`not_published\`.`;
    case 'count_within':
      return `Number of features${where(e.filter)} within ${meters(e.radiusM)} (0 when none).`;
    case 'sum_within':
      return `Sum of \`${e.property}\` over the features within ${meters(e.radiusM)}${e.perSquareKm ? `, per km² of that disc` : ''}.`;
    case 'radius_used':
      return `The search radius of the counts, ${e.radiusM} m${e.source ? ` (null \`no_coverage\` when \`${e.source}\` is not loaded)` : ''}.`;
    case 'max_within':
      return `Highest \`${e.property}\` among the features within ${meters(e.radiusM)}${e.rank === 'voltage_class' ? ', ranked by the first number of the class band' : ''}; null \`none_within_radius\` when none.`;
    case 'contains':
      return `Whether the point is inside or on the edge of a polygon${where(e.filter)}.`;
    case 'containing_attribute':
      return `\`${e.property}\` of the smallest polygon${where(e.filter)} containing the point${e.as === 'positive' ? ', as whether it is above 0' : ''}; ${e.whenNotInside !== undefined ? `\`${e.whenNotInside}\`` : 'null `not_inside`'} outside every polygon.`;
    case 'containing_ranked':
      return `The worst \`${e.property}\` (${e.rank.join(' > ')}) among the polygons${where(e.filter)} containing the point${e.blankWhenOnlyUnfiltered ? '; blank when the point is only in other polygons of the source' : ''}.`;
    case 'containing_joined':
      return `The distinct \`${e.property}\` values of every polygon${where(e.filter)} containing the point, sorted, joined with ", ".`;
    case 'polygon_area':
      return `Geodesic area of the whole polygon containing the point, in ${e.unit === 'acres' ? 'acres' : 'square meters'}.`;
    case 'grid_value':
      return `The band at the point, bilinear between cell centres${e.round ? ', rounded to an integer' : ''}.`;
    case 'slope_degrees':
      return "Slope by Horn's method on the 3x3 cells around the point's cell, cell sizes in meters at the latitude.";
    case 'aspect_degrees':
      return "Aspect (downhill direction, clockwise from north) by Horn's method; null `flat` on flat ground.";
    case 'aspect_cardinal':
      return 'The aspect as one of 8 compass points (45° sectors centred on N, NE, …).';
    case 'derived':
      return `\`${e.input}\` x ${Number(e.factor.toPrecision(12))} (formula_version ${e.formula_version}).`;
    case 'parcel_record':
      return `\`${e.item}\` of the matched parcel (exact intersect, else the nearest within the bounded radius).`;
    case 'parcel_overlay':
      return `${e.formula} (formula_version ${e.formula_version}).`;
  }
}
