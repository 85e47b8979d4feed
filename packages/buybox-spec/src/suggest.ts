// One wording of "unknown field, did you mean …" for the validator (422) and the text parser
// (warnings), with the catalog's edit-distance matcher behind both.

import { FIELDS, closestMatch } from '@landscreen/field-catalog';

/** The catalog's field names: the suggestion pool when a caller names no other. */
export const CATALOG_FIELD_NAMES: readonly string[] = Object.freeze(FIELDS.map((field) => field.name));

/** The closest known name to a misspelt one, or null when none is a plausible typo. */
export function suggestField(name: string, candidates: Iterable<string>): string | null {
  return closestMatch(name, candidates);
}

/** `unknown field 'acrs'; did you mean 'acres'?` (the second half only when something is close). */
export function unknownFieldSentence(name: string, suggestion: string | null): string {
  const base = `unknown field '${name}'`;
  return suggestion === null ? base : `${base}; did you mean '${suggestion}'?`;
}
