// The rule operators of D10: their spellings, the value shape each one takes, and the predicate
// each one compiles to. A predicate answers true (pass), false (fail) or undefined (unknown:
// the fact is null or missing); `exists` is the one op that is never unknown.

import { compareText, compileCompare, compileEquals, compileMembership, isMissing } from './compare.js';
import { OPS, type Op, type Scalar } from './types.js';

/** The symbolic spellings D10 accepts, mapped to the canonical op. */
export const OP_ALIASES: Readonly<Record<string, Op>> = Object.freeze({
  '=': 'eq',
  '==': 'eq',
  '!=': 'ne',
  '<': 'lt',
  '<=': 'lte',
  '>': 'gt',
  '>=': 'gte',
});

/** Every spelling of an op that `normaliseOp` accepts: the canonical names, then the aliases. */
export const ACCEPTED_OPS: readonly string[] = Object.freeze([...OPS, ...Object.keys(OP_ALIASES)]);

/** Upper bound on an `in`/`not_in` list. D10 gives none; a bound keeps a spec hashable and cheap. */
export const MAX_LIST_VALUES = 1000;

const CANONICAL = new Set<string>(OPS);

/** The canonical op for a spelling (trimmed, case-insensitive), or null when it is not an op. */
export function normaliseOp(op: string): Op | null {
  const key = op.trim().toLowerCase();
  if (CANONICAL.has(key)) return key as Op;
  return Object.hasOwn(OP_ALIASES, key) ? OP_ALIASES[key] : null;
}

export type Predicate = (fact: unknown) => boolean | undefined;

export function isScalar(value: unknown): value is Scalar {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function isOrderable(value: unknown): value is number | string {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

const SCALAR = 'a scalar (a string, a number, a boolean or null)';

/**
 * What is wrong with `value` as the value of `op`, in words a user can act on, or null when the
 * shape is right. The sentence names what the op expects, because that is what the user needs.
 */
export function valueShapeError(op: Op, value: unknown): string | null {
  switch (op) {
    case 'eq':
    case 'ne':
    case 'contains':
      return isScalar(value) ? null : `${op} expects ${SCALAR}`;
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return isOrderable(value) ? null : `${op} expects a number or a string`;
    case 'exists':
      return typeof value === 'boolean' ? null : 'exists expects a boolean (true or false)';
    case 'in':
    case 'not_in': {
      const expects = `${op} expects a non-empty list of scalars (strings, numbers, booleans or null)`;
      if (!Array.isArray(value) || value.length === 0 || !value.every(isScalar)) return expects;
      if (value.length > MAX_LIST_VALUES) return `${op} expects at most ${MAX_LIST_VALUES} values`;
      return null;
    }
    case 'between': {
      const expects = 'between expects a list [lo, hi] of two numbers or two strings with lo <= hi';
      if (!Array.isArray(value) || value.length !== 2) return expects;
      const [lo, hi] = value as unknown[];
      if (!isOrderable(lo) || !isOrderable(hi) || typeof lo !== typeof hi) return expects;
      // Strings are ordered the way the predicate orders them: case-insensitively.
      const inOrder =
        typeof lo === 'number' ? lo <= (hi as number) : compareText(lo.toLowerCase(), (hi as string).toLowerCase()) <= 0;
      return inOrder ? null : `${expects}; got lo > hi`;
    }
  }
}

/** Wraps a test of a known fact so that a null/missing fact answers unknown. */
function knownOnly(test: (fact: unknown) => boolean): Predicate {
  return (fact) => (isMissing(fact) ? undefined : test(fact));
}

/**
 * Compiles one rule into a predicate, once per spec, so that evaluating a million parcels does
 * no parsing, no case-folding of the rule value and no shape checks. Throws a TypeError on an
 * unknown op or a value of the wrong shape: callers hand it validated (canonical) rules.
 */
export function compilePredicate(op: string, value: unknown): Predicate {
  const canonical = normaliseOp(op);
  if (canonical === null) throw new TypeError(`unknown rule op ${JSON.stringify(op)}`);
  const problem = valueShapeError(canonical, value);
  if (problem !== null) throw new TypeError(problem);

  switch (canonical) {
    case 'exists': {
      const wanted = value as boolean;
      return (fact) => isMissing(fact) !== wanted;
    }
    case 'eq':
      return knownOnly(compileEquals(value as Scalar));
    case 'ne': {
      // On a known fact `ne` is exactly "not eq": a zoning of "Industrial" is not "commercial",
      // and a fact of another type is not equal either.
      const equals = compileEquals(value as Scalar);
      return knownOnly((fact) => !equals(fact));
    }
    case 'in':
      return knownOnly(compileMembership(value as Scalar[]));
    case 'not_in': {
      const member = compileMembership(value as Scalar[]);
      return knownOnly((fact) => !member(fact));
    }
    case 'lt': {
      const compare = compileCompare(value as number | string);
      return knownOnly((fact) => compare(fact) < 0);
    }
    case 'lte': {
      const compare = compileCompare(value as number | string);
      return knownOnly((fact) => compare(fact) <= 0);
    }
    case 'gt': {
      const compare = compileCompare(value as number | string);
      return knownOnly((fact) => compare(fact) > 0);
    }
    case 'gte': {
      const compare = compileCompare(value as number | string);
      return knownOnly((fact) => compare(fact) >= 0);
    }
    case 'between': {
      const [lo, hi] = value as [number, number] | [string, string];
      const fromLo = compileCompare(lo);
      const fromHi = compileCompare(hi);
      // Inclusive at both ends (D10).
      return knownOnly((fact) => fromLo(fact) >= 0 && fromHi(fact) <= 0);
    }
    case 'contains':
      return knownOnly(compileContains(value as Scalar));
  }
}

/**
 * `contains` on a string fact is a case-insensitive substring test; on an array fact (a list of
 * species, pollutants, owners) it is membership with the equality of `eq`. Any other fact fails.
 */
function compileContains(value: Scalar): (fact: unknown) => boolean {
  const needle = typeof value === 'string' || typeof value === 'number' ? String(value).toLowerCase() : null;
  const member = value === null ? (item: unknown) => isMissing(item) : compileEquals(value);
  return (fact) => {
    if (typeof fact === 'string') return needle !== null && fact.toLowerCase().includes(needle);
    if (Array.isArray(fact)) return fact.some(member);
    return false;
  };
}
