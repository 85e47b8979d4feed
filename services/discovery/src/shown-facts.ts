// What an answer shows of a parcel's facts (D40): the facts a caller chose with `fields` (all of
// them without), each number rounded per its field's unit. Evaluation reads the stored facts with
// every digit; only the facts written into an answer pass through here.

import { suggestField, unknownFieldSentence } from '@landscreen/buybox-spec';
import { FIELDS, isCatalogField, roundFact, roundFacts } from '@landscreen/field-catalog';
import { issue, validationError } from '@landscreen/rpc';
import { setOwn } from '@landscreen/validation';
import { TYPED_FIELDS } from './fields.js';

const CATALOG_NAMES = FIELDS.map((field) => field.name);

/**
 * The facts a request chose, checked against the catalog, the parcel schema and the fields the
 * market's current vintage carries (as a rule's field is, D10): an unknown name is 422 on
 * `[...loc, i]` with a did-you-mean. Undefined when none were chosen (every fact is shown).
 */
export function chosenFields(requested: readonly string[], vintage: { freeFactFields: readonly string[]; derivedFields: readonly string[] }, loc: (string | number)[] = ['body', 'fields']): readonly string[] | undefined {
  if (requested.length === 0) return undefined;
  const extra = new Set([...vintage.freeFactFields, ...vintage.derivedFields]);
  const known = (field: string) => isCatalogField(field) || TYPED_FIELDS.includes(field) || extra.has(field);
  let pool: string[] | undefined;
  const issues = requested.flatMap((field, at) => {
    if (known(field)) return [];
    pool ??= [...new Set([...TYPED_FIELDS, ...CATALOG_NAMES, ...extra])];
    const suggestion = suggestField(field, pool);
    return [issue.valueError([...loc, at], field, unknownFieldSentence(field, suggestion), { did_you_mean: suggestion })];
  });
  if (issues.length > 0) throw validationError(issues);
  return [...new Set(requested)];
}

/** The facts an answer shows: the chosen ones (null when the parcel has none), else all; numbers rounded. */
export function shownFacts(facts: Record<string, unknown>, chosen: readonly string[] | undefined): Record<string, unknown> {
  if (chosen === undefined) return roundFacts(facts);
  const shown: Record<string, unknown> = {};
  for (const field of chosen) setOwn(shown, field, Object.hasOwn(facts, field) ? roundFact(field, facts[field]) : null);
  return shown;
}

/** The provenance an answer shows: that of the chosen facts, else all of it. */
export function shownProvenance(provenance: Record<string, unknown>, chosen: readonly string[] | undefined): Record<string, unknown> {
  if (chosen === undefined) return provenance;
  const shown: Record<string, unknown> = {};
  for (const field of chosen) if (Object.hasOwn(provenance, field)) setOwn(shown, field, provenance[field]);
  return shown;
}
