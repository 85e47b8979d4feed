// From the words of a phrase to a field name: "a substation" → nearest_substation_distance_m,
// "a floodplain" → within_floodplain_polygon, "slope" (in degrees) → slope_degrees. The lexicon
// is tried first, then the naming conventions of the catalog, so that most catalog fields are
// reachable without a lexicon row.

import { AREA_FIELDS, DISTANCE_FIELDS, FIELD_ALIASES } from './lexicon.js';
import { unitDimension } from './units.js';

export interface FieldContext {
  knownField(field: string): boolean;
  fieldNames: readonly string[];
}

/** The first candidate the schema knows; else the first, so the user gets an unknown-field warning. */
export function pickField(candidates: readonly string[], context: FieldContext): string {
  return candidates.find((field) => context.knownField(field)) ?? candidates[0];
}

/** Lower case, hyphens and underscores as spaces, leading articles and "nearest" dropped. */
export function plainWords(phrase: string): string {
  return phrase
    .toLowerCase()
    .replace(/[-_]+/g, ' ')
    .replace(/[.,;:!?]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:the|a|an|any|some)\s+/, '')
    .replace(/^(?:nearest|closest|existing)\s+/, '');
}

/** The phrase and its singular ("substations" → "substation"), for lexicon look-ups. */
function variants(words: string): string[] {
  const singular = words.replace(/(ie)s$/, 'y').replace(/([^s])s$/, '$1');
  return singular === words ? [words] : [words, singular];
}

function slug(words: string): string {
  return words.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

function fromTable(
  table: Readonly<Record<string, readonly string[]>>,
  words: string,
  context: FieldContext,
): string | null {
  for (const variant of variants(words)) {
    if (Object.hasOwn(table, variant)) return pickField(table[variant], context);
  }
  return null;
}

function firstKnown(candidates: readonly string[], context: FieldContext): string | null {
  return candidates.find((field) => context.knownField(field)) ?? null;
}

/** The distance field for "a <thing>", or null when neither lexicon nor naming convention knows it. */
export function distanceField(thing: string, context: FieldContext): string | null {
  const words = plainWords(thing);
  const listed = fromTable(DISTANCE_FIELDS, words, context);
  if (listed !== null) return listed;
  for (const variant of variants(words)) {
    const name = slug(variant);
    const found = firstKnown([`nearest_${name}_distance_m`, `${name}_distance_m`], context);
    if (found !== null) return found;
  }
  return null;
}

/** The boolean "lies in a <area>" field, or null. */
export function areaField(area: string, context: FieldContext): string | null {
  const words = plainWords(area);
  const listed = fromTable(AREA_FIELDS, words, context);
  if (listed !== null) return listed;
  for (const variant of variants(words)) {
    const name = slug(variant);
    const found = firstKnown([`within_${name}_polygon`, `intersects_${name}`, `in_${name}`], context);
    if (found !== null) return found;
  }
  return null;
}

// Name endings that carry a unit of each dimension, for "<slope> under 5 degrees".
const SUFFIXES: Readonly<Record<string, readonly string[]>> = {
  length: ['_m', '_distance_m', '_km'],
  area: ['_acres', '_m2'],
  angle: ['_degrees'],
  ratio: ['_pct'],
  power: ['_mw'],
  voltage: ['_kv'],
  money: ['_usd'],
};

/**
 * The field a descriptive phrase names: the name itself, "distance to a <thing>", an alias
 * ("slope"), the name plus the unit the value was written in ("slope" + degrees), or the one
 * known field the name is a prefix of.
 */
export function phraseField(phrase: string, unit: string | null, context: FieldContext): string | null {
  const raw = phrase.trim();
  if (context.knownField(raw)) return raw;
  const words = plainWords(raw);
  if (words === '') return null;

  const distance = /^(?:distance|dist)\s+(?:to|from)\s+(.+)$/.exec(words) ?? /^(.+?)\s+distance$/.exec(words);
  if (distance) return distanceField(distance[1], context);

  const name = slug(words);
  if (context.knownField(name)) return name;
  const alias = fromTable(FIELD_ALIASES, words, context);
  if (alias !== null) return alias;

  const dimension = unit === null ? null : unitDimension(unit);
  if (dimension !== null) {
    const found = firstKnown(
      (SUFFIXES[dimension] ?? []).map((suffix) => `${name}${suffix}`),
      context,
    );
    if (found !== null) return found;
  }

  const prefixed = context.fieldNames.filter((field) => field.startsWith(`${name}_`) && context.knownField(field));
  if (prefixed.length === 1) return prefixed[0];
  // "substation under 2 km": a length next to a thing means the distance to it.
  return dimension === 'length' ? distanceField(words, context) : null;
}
