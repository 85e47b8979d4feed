import { closestMatch, FIELD_BY_NAME, FIELDS, isPreset, PRESETS, resolveFields } from '@landscreen/field-catalog';
import { issue, type ValidationIssue } from '@landscreen/rpc';

const FIELD_NAMES = FIELDS.map((field) => field.name);

/**
 * D34's `fields` and/or `preset` as the catalog field names they stand for (the explicit fields in
 * the caller's order, then the preset's others), or the 422 issues: each unknown name at its own
 * `loc`, with the closest catalog name as a did-you-mean.
 */
export function selectFields(fields: readonly string[], preset: string | undefined): { fields: string[] } | { issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  if (fields.length === 0 && preset === undefined) {
    issues.push(issue.valueError(['body'], null, 'give `fields`, a `preset`, or both'));
  }
  fields.forEach((name, i) => {
    if (FIELD_BY_NAME.has(name)) return;
    const suggestion = closestMatch(name, FIELD_NAMES);
    issues.push(issue.valueError(['body', 'fields', i], name, `unknown field "${name}"${hint(suggestion)}`, { did_you_mean: suggestion }));
  });
  if (preset !== undefined && !isPreset(preset)) {
    const suggestion = closestMatch(preset, PRESETS);
    issues.push(issue.valueError(['body', 'preset'], preset, `unknown preset "${preset}"${hint(suggestion)}`, { did_you_mean: suggestion, presets: [...PRESETS] }));
  }
  if (issues.length > 0) return { issues };
  return { fields: resolveFields({ fields, preset }) };
}

const hint = (suggestion: string | null) => (suggestion === null ? '' : ` (did you mean "${suggestion}"?)`);
