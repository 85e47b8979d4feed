import type { MessageInitShape } from '@bufbuild/protobuf';
import type { catalogv1 } from '@landscreen/proto';
import { rulerAt, type Engine } from '@landscreen/point-engine';
import { issue, validationError, type ValidationIssue } from '@landscreen/rpc';
import { gridFactsAt, type GridFacts } from '../grid-estimate/grid-features.js';
import { lineCourseNear } from './line-course.js';
import type { LayerCache } from '../layers/layer-cache.js';

type Response = MessageInitShape<typeof catalogv1.NearestGridFeaturesResponseSchema>;

/** Points one call answers: a 500-lead delivery report at most asks for 500. */
export const MAX_GRID_POINTS = 1000;

/**
 * Where the nearest substation and transmission line are from each point (D30: the site report
 * draws them on its parcel map). Distance, voltage and status are the catalog fields' own answers
 * (gridFactsAt), so the map and the report's figures agree; the position is the nearest point of
 * that feature, which the fields do not carry. One read of the current layers for all points.
 */
export function nearestGridFeaturesHandler(layers: LayerCache) {
  return async (request: catalogv1.NearestGridFeaturesRequest): Promise<Response> => {
    const issues = validate(request);
    if (issues.length > 0) throw validationError(issues);
    const { engine } = await layers.current();
    let loadedSources: string[] = [];
    const results = request.points.map((point) => {
      const facts = gridFactsAt(engine, point.lat, point.lon);
      loadedSources = facts.loaded;
      return { features: located(engine, facts, point.lat, point.lon) };
    });
    return { loadedSources, results };
  };
}

function located(engine: Engine, facts: GridFacts, lat: number, lon: number) {
  const ruler = rulerAt(lat);
  return facts.features.flatMap((feature) => {
    const layer = engine.layer(feature.source);
    if (layer?.kind !== 'vector' || layer.version !== feature.layerVersion) return [];
    const nearest = layer.nearest(lon, lat, ruler, null, Math.max(feature.distanceM, layer.spacingM, 1));
    if (!nearest) return [];
    const name = feature.kind === 'substation' ? layer.property(nearest.id, 'name') : null;
    return [
      {
        kind: feature.kind,
        source: feature.source,
        layerVersionId: feature.layerVersion,
        distanceM: feature.distanceM,
        lat: nearest.lat,
        lon: nearest.lon,
        voltageKv: feature.voltageKv ?? undefined,
        status: feature.status ?? undefined,
        name: typeof name === 'string' && name !== '' ? name : undefined,
        // Enough of the line around the point that a map reaching past the nearest point still shows its course.
        paths: feature.kind === 'substation' ? [] : lineCourseNear(layer.shape(nearest.id), lon, lat, Math.max(3 * feature.distanceM, 1_000), ruler),
      },
    ];
  });
}

function validate(request: catalogv1.NearestGridFeaturesRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (request.points.length > MAX_GRID_POINTS) {
    issues.push(issue.valueError(['body', 'points'], request.points.length, `at most ${MAX_GRID_POINTS} points`));
    return issues;
  }
  request.points.forEach((point, index) => {
    if (!(point.lat >= -90 && point.lat <= 90)) issues.push(issue.valueError(['body', 'points', index, 'lat'], point.lat, 'latitude must be within [-90, 90]'));
    if (!(point.lon >= -180 && point.lon <= 180)) issues.push(issue.valueError(['body', 'points', index, 'lon'], point.lon, 'longitude must be within [-180, 180]'));
  });
  return issues;
}
