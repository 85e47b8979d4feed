// Which catalog fields `landscreen prepare` computes: the ones asked for (--fields/--preset),
// else every field the loaded layers can answer. A field needs the layers of every source it
// reads; parcel_record fields are the parcel's own data and are never prepared by default.

import { FIELDS, FIELD_BY_NAME, evaluatorOf, resolveFields, type FieldEvaluator, type SourceId } from '@landscreen/field-catalog';
import { TYPED_PROPERTIES } from '@landscreen/parcel-io';

export interface PreparedFields {
  /** What the engine evaluates, in catalog (or the caller's) order. */
  fields: string[];
  /** Asked for, but a source they read has no layer loaded: stored as null (no_coverage). */
  uncovered: string[];
}

export class NoLayersError extends Error {
  constructor(readonly sources: readonly string[]) {
    super(
      `no layer is loaded for any requested field (they read ${sources.join(', ') || 'no layer'}): ` +
        'load one with `landscreen import layer --source SOURCE --file PATH`',
    );
    this.name = 'NoLayersError';
  }
}

/** The layer sources a field reads (a derivation reads its input's). */
export function sourcesOf(evaluator: FieldEvaluator): SourceId[] {
  switch (evaluator.kind) {
    case 'derived':
      return sourcesOf(evaluatorOf(FIELD_BY_NAME.get(evaluator.input)!));
    case 'parcel_overlay':
      return [...evaluator.sources];
    case 'parcel_record':
      return [];
    default:
      return 'source' in evaluator && evaluator.source !== undefined ? [evaluator.source] : [];
  }
}

/**
 * Throws the catalog's UnknownFieldError/UnknownPresetError (with did-you-mean) for names it
 * does not know, and NoLayersError when none of the fields has its layers loaded.
 */
export function preparedFields(selection: { fields?: string[]; preset?: string }, loaded: ReadonlySet<string>): PreparedFields {
  const asked = selection.fields !== undefined || selection.preset !== undefined;
  // Typed facts (acres, zoning, …) are the parcel's own columns, never overwritten by prepare.
  const names = (asked ? resolveFields(selection) : FIELDS.map((field) => field.name)).filter((name) => !TYPED_PROPERTIES.includes(name));
  const fields: string[] = [];
  const uncovered: string[] = [];
  const needed = new Set<string>();
  let layered = 0;
  for (const name of names) {
    const evaluator = evaluatorOf(FIELD_BY_NAME.get(name)!);
    if (evaluator.kind === 'parcel_record') {
      // Answered from the parcel itself when asked for by name; no layer makes them worth preparing.
      if (asked) fields.push(name);
      continue;
    }
    const sources = sourcesOf(evaluator);
    sources.forEach((source) => needed.add(source));
    // A field reading no layer (a radius_used field of a search the service makes, such as
    // pipelines_radius_m) answers its service parameter: always prepared, like any field.
    if (sources.every((source) => loaded.has(source))) {
      fields.push(name);
      if (sources.length > 0) layered++;
    } else if (asked) {
      fields.push(name);
      uncovered.push(name);
    }
  }
  if (layered === 0) throw new NoLayersError([...needed].sort());
  return { fields, uncovered };
}

/** The source a prepared field names in its provenance: the first layer it reads, else the catalog's source of it (a service parameter). */
export function fieldSourceOf(field: string): string | null {
  return sourcesOf(evaluatorOf(FIELD_BY_NAME.get(field)!))[0] ?? FIELD_BY_NAME.get(field)!.source ?? null;
}
