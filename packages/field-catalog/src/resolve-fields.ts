// Turns the field selection of a fetch request (D34: `fields` and/or `preset`) into the list
// of catalog field names it stands for, rejecting names the catalog does not know.

import { UnknownFieldError, UnknownPresetError } from './errors.js';
import { FIELD_BY_NAME, fieldsOfPreset } from './fields.js';
import { PRESETS, isPreset } from './vocabulary.js';

export interface FieldSelection {
  readonly fields?: readonly string[];
  readonly preset?: string;
}

/**
 * The de-duplicated field names of a request: the explicit `fields` in the caller's order,
 * then the preset's fields (in catalog order) not already named. Both may be given; the
 * union is what the caller asked for. Neither gives an empty list: whether an empty selection
 * is acceptable is the caller's decision, not the catalog's.
 */
export function resolveFields(selection: FieldSelection): string[] {
  const requested = dedupe(selection.fields ?? []);
  const unknown = requested.filter((name) => !FIELD_BY_NAME.has(name));
  if (unknown.length > 0) throw new UnknownFieldError(unknown, FIELD_BY_NAME.keys());

  if (selection.preset === undefined) return requested;
  if (!isPreset(selection.preset)) throw new UnknownPresetError(selection.preset, PRESETS);
  return dedupe([...requested, ...fieldsOfPreset(selection.preset).map((field) => field.name)]);
}

function dedupe(names: readonly string[]): string[] {
  return [...new Set(names)];
}
