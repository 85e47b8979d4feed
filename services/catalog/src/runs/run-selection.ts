import { closestMatch, FIELD_BY_NAME, FIELDS, isPreset, PRESETS, resolveFields } from '@landscreen/field-catalog';
import { issue, validationError, type ValidationIssue } from '@landscreen/rpc';
import type { RunLocation } from './insert-run.js';

export const MAX_RUN_LOCATIONS = 100_000;
const MAX_FIELDS = 500;
const FIELD_NAMES = FIELDS.map((field) => field.name);

/**
 * The fields a run is answered with (D34's selection: `fields` and/or a preset), after checking
 * the whole request; every problem is reported together as D1, unknown names with a did-you-mean.
 */
export function runSelection(request: { locations: readonly RunLocation[]; fields: readonly string[]; preset?: string }): string[] {
  const issues: ValidationIssue[] = [];
  if (request.locations.length === 0) issues.push(issue.tooShort(['body', 'locations'], [], 1, 0));
  if (request.locations.length > MAX_RUN_LOCATIONS) issues.push(issue.tooLong(['body', 'locations'], undefined, MAX_RUN_LOCATIONS, request.locations.length));
  if (request.fields.length > MAX_FIELDS) issues.push(issue.tooLong(['body', 'fields'], undefined, MAX_FIELDS, request.fields.length));
  if (request.fields.length === 0 && request.preset === undefined) {
    issues.push(issue.missing(['body', 'fields'], null));
  }
  request.fields.forEach((name, i) => {
    if (FIELD_BY_NAME.has(name)) return;
    const suggestion = closestMatch(name, FIELD_NAMES);
    const hint = suggestion === null ? '' : ` (did you mean "${suggestion}"?)`;
    issues.push(issue.valueError(['body', 'fields', i], name, `unknown field "${name}"${hint}`, { did_you_mean: suggestion }));
  });
  if (request.preset !== undefined && !isPreset(request.preset)) {
    const suggestion = closestMatch(request.preset, [...PRESETS]);
    const hint = suggestion === null ? '' : ` (did you mean "${suggestion}"?)`;
    issues.push(issue.valueError(['body', 'preset'], request.preset, `unknown preset "${request.preset}"${hint}`, { did_you_mean: suggestion }));
  }
  for (let i = 0; i < request.locations.length && issues.length < 50; i++) {
    const { lat, lon } = request.locations[i];
    if (!(lat >= -90 && lat <= 90)) issues.push(issue.valueError(['body', 'locations', i, 'lat'], lat, 'latitude must be within [-90, 90]'));
    if (!(lon >= -180 && lon <= 180)) issues.push(issue.valueError(['body', 'locations', i, 'lon'], lon, 'longitude must be within [-180, 180]'));
  }
  if (issues.length > 0) throw validationError(issues);
  return resolveFields({ fields: request.fields, preset: request.preset });
}
