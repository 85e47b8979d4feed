// One rule of the buy-box text language (D12), without its `must:`/`prefer:` prefix and its
// `unknown …`/`weight …` modifiers: either the structured form (`acres >= 50`, `zoning in (a, b)`,
// `acres between 50 and 200`) or one of the common phrasings ("at least 50 acres", "within 2 km
// of a substation", "not in a floodplain", "zoned industrial", "slope under 5 degrees").

import { normaliseOp, valueShapeError } from '../ops.js';
import type { Op, RuleValue, Scalar } from '../types.js';
import { areaField, distanceField, phraseField, pickField, type FieldContext } from './fields.js';
import { COMPARATOR_PATTERN, SIZE_FIELDS, ZONING_FIELDS, comparatorOp } from './lexicon.js';
import {
  quantityFor,
  readQuantity,
  readScalar,
  readScalars,
  splitList,
  splitRange,
  unquote,
  type Quantity,
  type UnitContext,
  type ValueResult,
} from './literals.js';
import { isUnit, unitDimension } from './units.js';

export interface RuleContext extends FieldContext, UnitContext {}

export interface ParsedRule {
  field: string;
  op: Op;
  value: RuleValue;
  /** Things the user should know about how the line was read (a unit not converted, …). */
  notes: string[];
}

/** A rule, an explanation of why the line (clearly a rule) cannot be one, or null: not understood. */
export type RuleParse = ParsedRule | { error: string } | null;

const IDENT = '[A-Za-z_][A-Za-z0-9_.]*';
const SYMBOLIC = new RegExp(`^(${IDENT})\\s*(==|!=|<>|<=|>=|=<|=>|≤|≥|=|<|>)\\s*(.*)$`);
const WORDED = new RegExp(
  `^(${IDENT})\\s+(not[ _]in|in|between|contains|does\\s+not\\s+exist|not\\s+exists?|exists?|is\\s+not|is|eq|ne|lte|lt|gte|gt)(?:\\s+(.*))?$`,
  'i',
);
const COMPARATOR_FIRST = new RegExp(`^(${COMPARATOR_PATTERN})\\s+(.+)$`, 'i');
const FIELD_COMPARATOR = new RegExp(`^(.+?)\\s+(${COMPARATOR_PATTERN})\\s+(.+)$`, 'i');
// Spellings people type that D10 does not list; the parser writes the canonical op.
const SYMBOL_OPS: Readonly<Record<string, Op>> = { '<>': 'ne', '≤': 'lte', '≥': 'gte', '=<': 'lte', '=>': 'gte' };

function rule(field: string, op: Op, result: ValueResult<RuleValue>): RuleParse {
  if ('error' in result) return result;
  const problem = valueShapeError(op, result.value);
  if (problem !== null) return { error: problem };
  return { field, op, value: result.value, notes: result.notes };
}

/** Fillers people put before a condition: "be", "has", "with", "located", … */
function dropFillers(text: string): string {
  let t = text.trim().replace(/[.;,]+$/, '').trim();
  for (;;) {
    const next = t.replace(/^(?:be|is|are|has|have|having|with|located|situated|lies|lying|sits|sitting)\s+/i, '');
    if (next === t) return t;
    t = next;
  }
}

/** "50 acres or more" → "at least 50 acres", "50+ acres" → "at least 50 acres", "is at least" → "at least". */
function rewrite(text: string): string {
  return text
    .replace(/^(.+?)\s+or\s+(?:more|greater|larger|bigger|higher|above)$/i, 'at least $1')
    .replace(/^(.+?)\s+or\s+(?:less|fewer|smaller|lower|below|closer)$/i, 'at most $1')
    .replace(/^(\$?\d[\d,]*(?:\.\d+)?)\s*\+\s*/, 'at least $1 ')
    .replace(new RegExp(`\\s+(?:is|are|be)\\s+(?=(?:${COMPARATOR_PATTERN})\\s)`, 'i'), ' ');
}

/** Parses the text of one rule. Never throws. */
export function parseRuleText(text: string, context: RuleContext): RuleParse {
  const t = rewrite(dropFillers(text));
  if (t === '') return null;
  return (
    areaPhrase(t, context) ??
    zonedPhrase(t, context) ??
    comparatorFirst(t, context) ??
    rangeFirst(t, context) ??
    structured(t, context) ??
    fieldFirst(t, context)
  );
}

/** "not in a floodplain", "outside the flood zone", "in an opportunity zone", "no wetlands". */
function areaPhrase(text: string, context: RuleContext): RuleParse {
  const match =
    /^(not\s+(?:in|within|inside|on)|outside(?:\s+of)?|out\s+of|free\s+of|clear\s+of|no|in|within|inside|on)\s+(?!\d)(.+)$/i.exec(
      text,
    );
  if (!match) return null;
  const field = areaField(match[2], context);
  if (field === null) return null;
  const inside = /^(?:in|within|inside|on)$/i.test(match[1]);
  return { field, op: 'eq', value: inside, notes: [] };
}

/** "zoned industrial", "zoned industrial or commercial", "not zoned residential". */
function zonedPhrase(text: string, context: RuleContext): RuleParse {
  const match = /^(not\s+)?zoned\s+(?:as\s+|for\s+)?(.+)$/i.exec(text);
  if (!match) return null;
  const values = splitList(match[2]).map((item) => unquote(item) ?? item);
  if (values.length === 0) return { error: 'say which zoning, e.g. "zoned industrial"' };
  const field = pickField(ZONING_FIELDS, context);
  const negated = match[1] !== undefined;
  if (values.length === 1) return rule(field, negated ? 'ne' : 'eq', { value: values[0], notes: [] });
  return rule(field, negated ? 'not_in' : 'in', { value: values, notes: [] });
}

const DISTANCE_TAIL = /^(?:away\s+)?(?:of|from|to)\s+(.+)$/i;

/** The trailing unit words of a phrase: "developable acres" → ["developable", "acres"]. */
function splitTrailingUnit(phrase: string): [string, string] | null {
  const words = phrase.trim().split(/\s+/);
  for (const count of [2, 1]) {
    if (words.length <= count) continue;
    const unit = words.slice(-count).join(' ');
    if (isUnit(unit)) return [words.slice(0, -count).join(' '), unit];
  }
  return null;
}

/**
 * The field a quantity talks about when the phrase names none or names it after the number:
 * "50 acres" → acres, "3 km from a substation" → the substation distance, "50 developable acres"
 * → developable_acres. An error when the phrase is clearly about something unnamed.
 */
function subjectOf(quantity: Quantity, context: RuleContext): { field: string; quantity: Quantity } | { error: string } | null {
  const { unit, rest } = quantity;
  const dimension = unit === null ? null : unitDimension(unit);
  if (rest === '') {
    if (dimension === 'area') return { field: pickField(SIZE_FIELDS, context), quantity };
    if (unit === null) return null;
    return { error: `say what the ${unit} are of, e.g. "within 2 km of a substation"` };
  }
  const distance = DISTANCE_TAIL.exec(rest);
  if (distance && dimension === 'length') {
    const field = distanceField(distance[1], context);
    return field === null ? { error: `no distance field is known for '${distance[1]}'` } : { field, quantity };
  }
  const phrase = rest.replace(/^of\s+/i, '');
  const whole = phraseField(phrase, unit, context);
  if (whole !== null) return { field: whole, quantity };
  const split = unit === null ? splitTrailingUnit(phrase) : null;
  if (split !== null) {
    const field = phraseField(`${split[0]} ${split[1]}`, split[1], context) ?? phraseField(split[0], split[1], context);
    if (field !== null) return { field, quantity: { ...quantity, unit: split[1], rest: '' } };
  }
  return { error: `could not tell which field '${phrase}' is` };
}

/** "at least 50 acres", "within 2 km of a substation", "more than 1 mile from a superfund site". */
function comparatorFirst(text: string, context: RuleContext): RuleParse {
  const match = COMPARATOR_FIRST.exec(text);
  if (!match) return null;
  const op = comparatorOp(match[1]);
  const quantity = readQuantity(match[2]);
  if (op === null || quantity === null) return null;
  const subject = subjectOf(quantity, context);
  if (subject === null || 'error' in subject) return subject;
  return rule(subject.field, op, quantityFor(subject.quantity, subject.field, context));
}

/** "between 50 and 200 acres", "50-200 acres", "between 1 and 3 miles from a rail line". */
function rangeFirst(text: string, context: RuleContext): RuleParse {
  const body = text.replace(/^between\s+/i, '');
  if (!/^[-+]?\$?\.?\d/.test(body)) return null;
  const ends = splitRange(body);
  if (ends === null) return null;
  const lo = readQuantity(ends[0]);
  const hi = readQuantity(ends[1]);
  if (lo === null || hi === null || lo.rest !== '') return null;
  const subject = subjectOf(hi, context);
  if (subject === null || 'error' in subject) return subject;
  // "50 and 200 acres": the unit written once applies to both ends.
  const unit = subject.quantity.unit ?? lo.unit;
  const low = quantityFor({ ...lo, unit: lo.unit ?? unit }, subject.field, context);
  const high = quantityFor({ ...subject.quantity, unit }, subject.field, context);
  return rule(subject.field, 'between', range(low, high));
}

/** Two ends into a `between` value, swapped (with a note) when written high to low. */
function range(lo: ValueResult<Scalar>, hi: ValueResult<Scalar>): ValueResult<RuleValue> {
  if ('error' in lo) return lo;
  if ('error' in hi) return hi;
  const notes = [...new Set([...lo.notes, ...hi.notes])];
  const a = lo.value;
  const b = hi.value;
  const reversed =
    (typeof a === 'number' && typeof b === 'number' && a > b) ||
    (typeof a === 'string' && typeof b === 'string' && a.toLowerCase() > b.toLowerCase());
  if (reversed) return { value: [b, a], notes: [...notes, `the range was written high to low; read as between ${b} and ${a}`] };
  return { value: [a, b], notes };
}

/** The value of a structured rule, read the way its op needs it. */
function structuredValue(field: string, op: Op, text: string, context: RuleContext): ValueResult<RuleValue> {
  switch (op) {
    case 'exists': {
      if (text.trim() === '') return { value: true, notes: [] };
      const read = readScalar(text, field, context);
      if ('error' in read) return read;
      return typeof read.value === 'boolean' ? read : { error: 'exists takes true or false' };
    }
    case 'in':
    case 'not_in': {
      const items = splitList(text);
      if (items.length === 0) return { error: `${op} needs a list, e.g. (a, b, c)` };
      return readScalars(items, field, context);
    }
    case 'between': {
      const ends = splitRange(text);
      if (ends === null) return { error: 'between needs two values, e.g. "between 50 and 200"' };
      const lo = readQuantity(ends[0]);
      const hi = readQuantity(ends[1]);
      // "50 and 200 acres": the unit written once applies to both ends.
      if (lo !== null && hi !== null && lo.rest === '' && hi.rest === '' && lo.unit === null && hi.unit !== null) {
        return range(quantityFor({ ...lo, unit: hi.unit }, field, context), quantityFor(hi, field, context));
      }
      return range(readScalar(ends[0], field, context), readScalar(ends[1], field, context));
    }
    default:
      return readScalar(text, field, context);
  }
}

/** `acres >= 50`, `zoning in (a, b)`, `acres between 50 and 200`, `owner_name contains smith`. */
function structured(text: string, context: RuleContext): RuleParse {
  const symbolic = SYMBOLIC.exec(text);
  const worded = symbolic ? null : WORDED.exec(text);
  const match = symbolic ?? worded;
  if (!match) return null;
  const field = fieldAsWritten(match[1], context);
  const written = match[2].toLowerCase().replace(/\s+/g, ' ');
  const rest = (match[3] ?? '').trim();
  let op: Op | null = SYMBOL_OPS[written] ?? normaliseOp(written.replace(' ', '_'));
  if (/^(?:does not exist|not exists?)$/.test(written)) return rule(field, 'exists', { value: false, notes: [] });
  if (/^exists?$/.test(written)) op = 'exists';
  if (written === 'is') op = 'eq';
  if (written === 'is not') op = 'ne';
  if (op === null) return null;
  // `zoning = (industrial, commercial)` means membership.
  if ((op === 'eq' || op === 'ne') && /^[([].*[)\]]$/.test(rest)) op = op === 'eq' ? 'in' : 'not_in';
  if (rest === '' && op !== 'exists') return { error: `'${match[1]} ${match[2]}' needs a value` };
  return rule(field, op, structuredValue(field, op, rest, context));
}

/** Field names are lower case; "Acres" is read as "acres" when only that is known. */
function fieldAsWritten(field: string, context: RuleContext): string {
  if (context.knownField(field)) return field;
  const lower = field.toLowerCase();
  return context.knownField(lower) ? lower : field;
}

/** "slope under 5 degrees", "elevation between 100 and 300 m", "land use is agricultural". */
function fieldFirst(text: string, context: RuleContext): RuleParse {
  const comparison = FIELD_COMPARATOR.exec(text);
  if (comparison) {
    const op = comparatorOp(comparison[2]);
    const quantity = readQuantity(comparison[3]);
    const field = phraseField(comparison[1], quantity?.unit ?? null, context);
    if (op !== null && field !== null) {
      if (quantity !== null && quantity.rest === '') return rule(field, op, quantityFor(quantity, field, context));
      return rule(field, op, readScalar(comparison[3], field, context));
    }
  }
  const between = /^(.+?)\s+between\s+(.+)$/i.exec(text);
  if (between) {
    const ends = splitRange(between[2]);
    const unit = ends === null ? null : (readQuantity(ends[1])?.unit ?? null);
    const field = phraseField(between[1], unit, context);
    if (field !== null) return rule(field, 'between', structuredValue(field, 'between', between[2], context));
  }
  const equality = /^(.+?)\s+(?:is|are|equals|=)\s+(not\s+)?(.+)$/i.exec(text);
  if (equality) {
    const field = phraseField(equality[1], null, context);
    if (field !== null) return rule(field, equality[2] ? 'ne' : 'eq', readScalar(equality[3], field, context));
  }
  if (comparison) return { error: `could not tell which field '${comparison[1]}' is` };
  return null;
}
