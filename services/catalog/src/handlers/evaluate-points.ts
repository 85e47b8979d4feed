import { closestMatch, FIELD_BY_NAME, FIELDS } from '@landscreen/field-catalog';
import type { catalogv1 } from '@landscreen/proto';
import { issue, validationError, type ValidationIssue } from '@landscreen/rpc';
import { locationResults } from '../layers/field-answer.js';
import type { LayerCache } from '../layers/layer-cache.js';

/** As many locations as the largest batch of the spec (D35's runs). */
export const MAX_LOCATIONS = 100_000;
export const MAX_FIELDS = 500;

const FIELD_NAMES = FIELDS.map((field) => field.name);

/** N locations x M catalog fields from the current layer versions (issue 12). */
export function evaluatePoints(layers: LayerCache) {
  return async (request: catalogv1.EvaluatePointsRequest) => {
    const issues = validate(request);
    if (issues.length > 0) throw validationError(issues);
    const { engine } = await layers.current();
    const answer = engine.evaluate(request.locations, request.fields);
    return { results: locationResults(answer, request.locations.map((location) => location.id)) };
  };
}

function validate(request: catalogv1.EvaluatePointsRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (request.locations.length === 0) issues.push(issue.tooShort(['body', 'locations'], [], 1, 0));
  if (request.locations.length > MAX_LOCATIONS) issues.push(issue.tooLong(['body', 'locations'], undefined, MAX_LOCATIONS, request.locations.length));
  if (request.fields.length === 0) issues.push(issue.tooShort(['body', 'fields'], [], 1, 0));
  if (request.fields.length > MAX_FIELDS) issues.push(issue.tooLong(['body', 'fields'], undefined, MAX_FIELDS, request.fields.length));
  request.fields.forEach((name, i) => {
    if (FIELD_BY_NAME.has(name)) return;
    const suggestion = closestMatch(name, FIELD_NAMES);
    const hint = suggestion === null ? '' : ` (did you mean "${suggestion}"?)`;
    issues.push(issue.valueError(['body', 'fields', i], name, `unknown field "${name}"${hint}`, { did_you_mean: suggestion }));
  });
  request.locations.forEach((location, i) => {
    if (!(location.lat >= -90 && location.lat <= 90)) issues.push(issue.valueError(['body', 'locations', i, 'lat'], location.lat, 'latitude must be within [-90, 90]'));
    if (!(location.lon >= -180 && location.lon <= 180)) issues.push(issue.valueError(['body', 'locations', i, 'lon'], location.lon, 'longitude must be within [-180, 180]'));
  });
  return issues;
}
