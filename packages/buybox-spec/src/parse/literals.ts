// The small literals of the buy-box text language: quoted strings, booleans, numbers with units,
// lists and ranges. Nothing here throws: a reader answers null (not this kind of literal) or an
// error sentence that the parser turns into a warning for the line.

import type { Scalar } from '../types.js';
import { MAX_UNIT_WORDS, convertQuantity, isUnit } from './units.js';

/** Options the value readers need: how to find a field's stored unit. */
export interface UnitContext {
  unitOf?: (field: string) => string | null | undefined;
}

export type ValueResult<T> = { value: T; notes: string[] } | { error: string };

/** The line without its `#` comment; a `#` inside quotes ("lot #5") is text, not a comment. */
export function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote !== null) {
      if (char === '\\') i++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '#') return line.slice(0, i);
  }
  return line;
}

/** The text inside matching quotes, unescaped, or null when `text` is not one quoted string. */
export function unquote(text: string): string | null {
  const t = text.trim();
  if (t.length < 2) return null;
  const quote = t[0];
  if ((quote !== '"' && quote !== "'") || t.at(-1) !== quote) return null;
  let out = '';
  for (let i = 1; i < t.length - 1; i++) {
    const char = t[i];
    if (char === '\\' && i + 1 < t.length - 1) {
      out += t[++i];
      continue;
    }
    // An unescaped quote in the middle means this is not a single quoted string ("a" or "b").
    if (char === quote) return null;
    out += char;
  }
  return out;
}

/** Splits on `separator` where it is not inside quotes. */
function splitOutsideQuotes(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote !== null) {
      if (char === '\\') i++;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      continue;
    }
    separator.lastIndex = i;
    const match = separator.exec(text);
    if (match !== null && match.index === i) {
      parts.push(text.slice(start, i));
      start = i + match[0].length;
      i = start - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * The items of a written list: `(a, b, c)`, `[a, b]`, `a, b or c`, `"x, y", z`. Commas inside
 * quotes belong to the item; a final "or"/"and" separates like a comma, as people write lists.
 */
export function splitList(text: string): string[] {
  let t = text.trim();
  if ((t.startsWith('(') && t.endsWith(')')) || (t.startsWith('[') && t.endsWith(']'))) t = t.slice(1, -1);
  return splitOutsideQuotes(t, /\s*,\s*|\s+(?:or|and)\s+/iy)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** The two ends of a written range: `50 and 200`, `50 to 200`, `50-200`, `[50, 200]`. */
export function splitRange(text: string): [string, string] | null {
  const t = text.trim();
  if ((t.startsWith('(') || t.startsWith('[')) && (t.endsWith(')') || t.endsWith(']'))) {
    const items = splitOutsideQuotes(t.slice(1, -1), /\s*,\s*/y);
    return items.length === 2 ? [items[0].trim(), items[1].trim()] : null;
  }
  for (const separator of [/\s+and\s+/iy, /\s+to\s+/iy, /\s*(?:-|–|\.\.)\s*/y]) {
    // The dash of a negative lower bound ("-5 to 5") is a sign, not a separator: skip position 0.
    const parts = splitOutsideQuotes(t.replace(/^-/, '\u0000'), separator);
    if (parts.length === 2 && parts[0].trim() && parts[1].trim()) {
      return [parts[0].replace('\u0000', '-').trim(), parts[1].trim()];
    }
  }
  return null;
}

export interface Quantity {
  amount: number;
  /** The unit as written, or null for a bare number. */
  unit: string | null;
  /** Whatever follows the number and its unit. */
  rest: string;
}

const NUMBER = /^([-+])?\s*(\$)?\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)/;

/**
 * A number at the start of `text`, with thousands separators ("3,000"), an optional `$`, and
 * the unit that follows it attached or after a space ("3km", "3 km", "20 sq ft", "70%").
 */
export function readQuantity(text: string): Quantity | null {
  const t = text.trim();
  const match = NUMBER.exec(t);
  if (match === null) return null;
  const amount = Number(`${match[1] ?? ''}${match[3].replace(/,/g, '')}`);
  if (!Number.isFinite(amount)) return null;
  let rest = t.slice(match[0].length);
  // A number glued to letters that are no unit ("5th", "3x") is not a quantity.
  if (/^[A-Za-z0-9]/.test(rest) && !startsWithUnit(rest)) return null;
  let unit: string | null = match[2] ? '$' : null;
  const words = rest.trim().split(/\s+/);
  for (let count = Math.min(MAX_UNIT_WORDS, words.length); count >= 1; count--) {
    const candidate = words.slice(0, count).join(' ').replace(/[.,;:]$/, '');
    if (candidate && isUnit(candidate)) {
      unit = candidate;
      rest = words.slice(count).join(' ');
      break;
    }
  }
  return { amount, unit, rest: rest.trim() };
}

function startsWithUnit(text: string): boolean {
  const word = /^[^\s,()[\]]+/.exec(text)?.[0] ?? '';
  return isUnit(word.replace(/[.,;:]$/, ''));
}

/** A quantity converted into the unit `field` is stored in (D12: "3 km" → 3000 for a meters field). */
export function quantityFor(quantity: Quantity, field: string, context: UnitContext): ValueResult<number> {
  if (quantity.unit === null) return { value: quantity.amount, notes: [] };
  const converted = convertQuantity(quantity.amount, quantity.unit, field, context.unitOf);
  if ('error' in converted) return converted;
  return { value: converted.value, notes: converted.note ? [converted.note] : [] };
}

/**
 * One scalar value for `field`: a quoted string, true/false, null, a number (converted from its
 * unit), or else the bare words as a string (`zoning = light industrial`).
 */
export function readScalar(text: string, field: string, context: UnitContext): ValueResult<Scalar> {
  const t = text.trim();
  if (t === '') return { error: 'a value is missing' };
  const quoted = unquote(t);
  if (quoted !== null) return { value: quoted, notes: [] };
  if (/^(?:true|false)$/i.test(t)) return { value: t.toLowerCase() === 'true', notes: [] };
  if (/^null$/i.test(t)) return { value: null, notes: [] };
  const quantity = readQuantity(t);
  if (quantity !== null && quantity.rest === '') return quantityFor(quantity, field, context);
  return { value: t, notes: [] };
}

/** Scalars of a list, each read like readScalar; the first bad item fails the whole list. */
export function readScalars(items: readonly string[], field: string, context: UnitContext): ValueResult<Scalar[]> {
  const values: Scalar[] = [];
  const notes: string[] = [];
  for (const item of items) {
    const read = readScalar(item, field, context);
    if ('error' in read) return read;
    values.push(read.value);
    notes.push(...read.notes);
  }
  return { value: values, notes: [...new Set(notes)] };
}
