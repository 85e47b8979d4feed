// The comparison primitives rule predicates are built from. They decide what "equal" and
// "less than" mean across the loosely typed facts of a parcel (typed columns, free facts from
// CSV imports, derived values), so they live apart from the op table that uses them.

// A plain decimal literal, as a CSV cell or a form field carries a number. Number() alone is too
// lenient: it reads "" and " " as 0 and "0x10" as 16, none of which is a measured value.
const DECIMAL = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** The number a numeric string spells, or NaN when it is not a plain decimal literal. */
export function numericValue(text: string): number {
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}

/**
 * A fact is unknown when it is null or missing. NaN counts too: a columnar engine stores a
 * missing number as NaN in a Float64Array, and no measurement is ever NaN.
 */
export function isMissing(fact: unknown): boolean {
  return fact === null || fact === undefined || (typeof fact === 'number' && Number.isNaN(fact));
}

/**
 * Orders two case-folded strings by UTF-16 code unit: deterministic on every machine, unlike
 * localeCompare, and right for the codes and ISO dates string comparisons are used for.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Builds "how does a fact compare with this rule value": negative, zero, positive, or NaN when
 * they cannot be compared (NaN makes every ordering test false, which is a FAIL, not unknown).
 * A number on either side compares numerically with a number or a numeric string on the other;
 * two strings compare case-insensitively.
 */
export function compileCompare(value: number | string): (fact: unknown) => number {
  if (typeof value === 'number') {
    return (fact) =>
      typeof fact === 'number' ? fact - value : typeof fact === 'string' ? numericValue(fact) - value : Number.NaN;
  }
  const folded = value.toLowerCase();
  const asNumber = numericValue(value);
  return (fact) =>
    typeof fact === 'string'
      ? compareText(fact.toLowerCase(), folded)
      : typeof fact === 'number'
        ? fact - asNumber
        : Number.NaN;
}

/**
 * Builds equality with a scalar rule value, for a fact that is known (not null/missing).
 * Strings are equal case-insensitively; a number equals a number or a numeric string of the
 * same value; booleans are equal only to the same boolean (`within_floodplain_polygon eq false`
 * must not match the string "false" or 0); null equals no known fact.
 */
export function compileEquals(value: string | number | boolean | null): (fact: unknown) => boolean {
  if (value === null) return () => false;
  if (typeof value === 'boolean') return (fact) => fact === value;
  if (typeof value === 'number') {
    return (fact) =>
      typeof fact === 'number' ? fact === value : typeof fact === 'string' ? numericValue(fact) === value : false;
  }
  const folded = value.toLowerCase();
  const asNumber = numericValue(value);
  return (fact) =>
    typeof fact === 'string'
      ? fact === value || fact.toLowerCase() === folded
      : typeof fact === 'number'
        ? fact === asNumber
        : false;
}

/**
 * Builds membership in a list of scalars with the same equality as compileEquals, in constant
 * time per fact: `in` lists of zoning codes or counties can be long and run over every parcel.
 */
export function compileMembership(values: readonly (string | number | boolean | null)[]): (fact: unknown) => boolean {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const numericStrings = new Set<number>();
  let hasTrue = false;
  let hasFalse = false;
  for (const value of values) {
    if (typeof value === 'string') {
      strings.add(value.toLowerCase());
      const asNumber = numericValue(value);
      if (!Number.isNaN(asNumber)) numericStrings.add(asNumber);
    } else if (typeof value === 'number') numbers.add(value);
    else if (value === true) hasTrue = true;
    else if (value === false) hasFalse = true;
  }
  return (fact) => {
    if (typeof fact === 'string') {
      return strings.has(fact.toLowerCase()) || (numbers.size > 0 && numbers.has(numericValue(fact)));
    }
    if (typeof fact === 'number') return numbers.has(fact) || numericStrings.has(fact);
    if (typeof fact === 'boolean') return fact ? hasTrue : hasFalse;
    return false;
  };
}
