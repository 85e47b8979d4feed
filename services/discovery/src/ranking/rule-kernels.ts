import type { Column, Dictionary, Slots } from './columns.js';
import { isNumericDictionary } from './numeric-codes.js';
import { numericInterval } from './numeric-interval.js';

/** A rule's test of one value: true pass, false fail, undefined unknown (D14). */
export type ValueTest = (value: unknown) => boolean | undefined;

/** What a kernel needs of a rule: its test, and the canonical op and value when known. */
export interface KernelRule {
  test: ValueTest;
  op?: string;
  value?: unknown;
}

/**
 * One rule over one column, applied to a list of rows. The loops are branch-free where the
 * column allows: outcomes over a market are unpredictable, and a mispredicted branch per row
 * cost more than the comparison itself.
 */
export interface RuleKernel {
  /**
   * A must rule: copies the rows of `input[0..count)` it keeps, in order, to `rows` (which may be
   * `input`) and returns how many. A row whose fact is unknown is dropped, or, when
   * `unknownKeeps` (the `review` policy), kept with `review[row]` set to 1.
   */
  keep(input: Uint32Array, count: number, rows: Uint32Array, review: Uint8Array, unknownKeeps: boolean): number;
  /** A preferred rule: sets `bit` in `passed[i]` for each row `rows[i]` it passes. */
  mark(rows: Uint32Array, count: number, passed: Uint32Array, bit: number): void;
  /** The kernel's pass test as data, when it is one fused-kernels.ts can inline into a loop. */
  readonly inline?: InlineTest;
}

/**
 * A test simple enough to write out: a closed interval over numbers (a missing number, NaN, is
 * unknown), or tables by slot of the outcome and of whether it passes.
 */
export type InlineTest =
  | { kind: 'interval'; values: Float64Array; low: number; high: number }
  | { kind: 'coded'; slots: Slots; outcomes: Uint8Array; passes: Uint8Array };

const FAIL = 0;
const PASS = 1;
const UNKNOWN = 2;
const outcomeOf = (result: boolean | undefined) => (result === undefined ? UNKNOWN : result ? PASS : FAIL);
/** What a must rule does by outcome: bit 0 keeps the row, bit 1 flags it for review. */
export const actionsFor = (unknownKeeps: boolean) => Uint8Array.of(0, 1, unknownKeeps ? 3 : 0);

/**
 * The kernel of a rule over a column. Numeric rules on number columns compare in the loop;
 * coded columns decide each distinct value once; anything else calls the rule's own test per
 * row, which is what the row-wise evidence calls too, so ranking and evidence cannot disagree.
 */
export function ruleKernel(column: Column | undefined, rule: KernelRule): RuleKernel {
  if (column?.kind === 'coded') {
    const interval = isNumericDictionary(column.dictionary) ? numericInterval(rule.op, rule.value) : undefined;
    // A coded number column's table by interval: a comparison per distinct value, not a call.
    if (interval && rule.test(null) === undefined) return codedKernel(column.slots, intervalOutcomes(column.dictionary, interval.low, interval.high));
    return codedKernel(column.slots, testedOutcomes(column.dictionary, rule.test));
  }
  if (column?.kind === 'number') {
    const interval = numericInterval(rule.op, rule.value);
    // Every op with an interval is unknown on a missing fact; the test says so, or it decides.
    if (interval && rule.test(null) === undefined) return intervalKernel(column.values, interval.low, interval.high);
    const values = column.values;
    return testedKernel((row) => (values[row] !== values[row] ? null : values[row]), rule.test);
  }
  if (column?.kind === 'mixed') return testedKernel((row) => column.values[row] ?? null, rule.test);
  return testedKernel(() => null, rule.test);
}

/** `low <= value <= high` as 0 or 1; 0 for NaN. */
function intervalKernel(values: Float64Array, low: number, high: number): RuleKernel {
  return {
    inline: { kind: 'interval', values, low, high },
    keep(input, count, rows, review, unknownKeeps) {
      let kept = 0;
      if (!unknownKeeps) {
        for (let index = 0; index < count; index++) {
          const row = input[index]!;
          const value = values[row]!;
          rows[kept] = row;
          kept += +(value >= low) & +(value <= high);
        }
        return kept;
      }
      for (let index = 0; index < count; index++) {
        const row = input[index]!;
        const value = values[row]!;
        const missing = +(value !== value);
        rows[kept] = row;
        review[row] |= missing;
        kept += (+(value >= low) & +(value <= high)) | missing;
      }
      return kept;
    },
    mark(rows, count, passed, bit) {
      for (let index = 0; index < count; index++) {
        const value = values[rows[index]!]!;
        passed[index] |= (+(value >= low) & +(value <= high)) << bit;
      }
    },
  };
}

/** Outcomes by slot (slot 0 is "no value") of a rule's test of each distinct value. */
function testedOutcomes(dictionary: Dictionary, test: ValueTest): Uint8Array {
  const outcomes = new Uint8Array(dictionary.length + 1);
  outcomes[0] = outcomeOf(test(null));
  dictionary.forEach((value, code) => (outcomes[code + 1] = outcomeOf(test(value))));
  return outcomes;
}

/** Outcomes by slot of `low <= value <= high` over numbers: unknown for "no value", as intervalKernel. */
function intervalOutcomes(dictionary: Dictionary, low: number, high: number): Uint8Array {
  const outcomes = new Uint8Array(dictionary.length + 1);
  outcomes[0] = UNKNOWN;
  dictionary.forEach((value, code) => (outcomes[code + 1] = (value as number) >= low && (value as number) <= high ? PASS : FAIL));
  return outcomes;
}

function codedKernel(slots: Slots, outcomes: Uint8Array): RuleKernel {
  // FAIL and UNKNOWN have a clear low bit, PASS a set one.
  const passes = outcomes.map((outcome) => outcome & PASS);
  return {
    inline: { kind: 'coded', slots, outcomes, passes },
    keep(input, count, rows, review, unknownKeeps) {
      let kept = 0;
      if (!unknownKeeps) {
        for (let index = 0; index < count; index++) {
          const row = input[index]!;
          rows[kept] = row;
          kept += passes[slots[row]!]!;
        }
        return kept;
      }
      const actionOf = actionsFor(true);
      for (let index = 0; index < count; index++) {
        const row = input[index]!;
        const action = actionOf[outcomes[slots[row]!]!]!;
        rows[kept] = row;
        review[row] |= action >> 1;
        kept += action & 1;
      }
      return kept;
    },
    mark(rows, count, passed, bit) {
      for (let index = 0; index < count; index++) passed[index] |= passes[slots[rows[index]!]!]! << bit;
    },
  };
}

function testedKernel(valueAt: (row: number) => unknown, test: ValueTest): RuleKernel {
  return {
    keep(input, count, rows, review, unknownKeeps) {
      const actionOf = actionsFor(unknownKeeps);
      let kept = 0;
      for (let index = 0; index < count; index++) {
        const row = input[index]!;
        const action = actionOf[outcomeOf(test(valueAt(row)))]!;
        rows[kept] = row;
        review[row] |= action >> 1;
        kept += action & 1;
      }
      return kept;
    },
    mark(rows, count, passed, bit) {
      for (let index = 0; index < count; index++) if (test(valueAt(rows[index]!)) === true) passed[index] |= 1 << bit;
    },
  };
}
