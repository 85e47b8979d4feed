import { scoreOf, verdictOf } from '@landscreen/buybox-spec';
import type { Column } from './columns.js';
import type { VintageIndex } from './vintage-index.js';

/** A rule as the ranking sees it: the fact it reads and the test of one value (undefined: unknown). */
export interface RankRule {
  field: string;
  test(value: unknown): boolean | undefined;
  /** The canonical op and value, when known: numeric rules on number columns take a fast path. */
  op?: string;
  value?: unknown;
}
export interface RankMustRule extends RankRule {
  policy: 'exclude' | 'review';
}
export interface RankPreferredRule extends RankRule {
  weight: number;
}

export interface RankSpec {
  must: RankMustRule[];
  preferred: RankPreferredRule[];
  preferenceWeightTotal: number;
  cutoffs: { pursue: number; monitor: number };
}

/** The whole vintage evaluated against one spec; cached per query_hash. */
export interface Ranking {
  eligible: Uint8Array;
  review: Uint8Array;
  score: Float64Array;
  eligibleTotal: number;
  byVerdict: { PURSUE: number; MONITOR: number; HOLD: number };
}

const PASS = 1;
const FAIL = 0;
const UNKNOWN = -1;

/**
 * One rule over one column: a status per row (1 pass, 0 fail, −1 unknown). Coded columns decide
 * each distinct value once; numbers are tested row by row with the same test the row-wise
 * evidence uses, so the ranking and the evidence can never disagree.
 */
export function ruleStatus(column: Column | undefined, size: number, test: RankRule['test'], rule?: Pick<RankRule, 'op' | 'value'>): Int8Array {
  const status = new Int8Array(size);
  if (column?.kind === 'number' && rule) {
    const missing = test(null);
    const ofMissing = missing === undefined ? UNKNOWN : missing ? PASS : FAIL;
    if (numericStatus(column.values, size, rule.op, rule.value, ofMissing, status)) return status;
  }
  const decide = (value: unknown) => {
    const result = test(value);
    return result === undefined ? UNKNOWN : result ? PASS : FAIL;
  };
  const ofMissing = decide(null);
  if (!column) return status.fill(ofMissing);
  if (column.kind === 'coded') {
    const table = new Int8Array(column.dictionary.length);
    column.dictionary.forEach((value, code) => (table[code] = decide(value)));
    const codes = column.codes;
    for (let row = 0; row < size; row++) {
      const code = codes[row]!;
      status[row] = code < 0 ? ofMissing : table[code]!;
    }
    return status;
  }
  if (column.kind === 'number') {
    const values = column.values;
    for (let row = 0; row < size; row++) {
      const value = values[row]!;
      status[row] = value !== value ? ofMissing : decide(value);
    }
    return status;
  }
  for (let row = 0; row < size; row++) status[row] = decide(column.values[row] ?? null);
  return status;
}

/**
 * A numeric rule on a number column, decided with the comparison written into the loop (no call
 * per parcel). Equal to the rule's own test for every number: the canonical spec compares numbers
 * numerically and `between` is inclusive. False when the rule is not purely numeric.
 */
function numericStatus(values: Float64Array, size: number, op: string | undefined, value: unknown, ofMissing: number, status: Int8Array): boolean {
  if (op === 'between') {
    if (!Array.isArray(value) || typeof value[0] !== 'number' || typeof value[1] !== 'number') return false;
    const low = value[0];
    const high = value[1];
    for (let row = 0; row < size; row++) {
      const fact = values[row]!;
      status[row] = fact !== fact ? ofMissing : fact >= low && fact <= high ? PASS : FAIL;
    }
    return true;
  }
  if (typeof value !== 'number') return false;
  switch (op) {
    case 'lt':
      for (let row = 0; row < size; row++) {
        const fact = values[row]!;
        status[row] = fact !== fact ? ofMissing : fact < value ? PASS : FAIL;
      }
      return true;
    case 'lte':
      for (let row = 0; row < size; row++) {
        const fact = values[row]!;
        status[row] = fact !== fact ? ofMissing : fact <= value ? PASS : FAIL;
      }
      return true;
    case 'gt':
      for (let row = 0; row < size; row++) {
        const fact = values[row]!;
        status[row] = fact !== fact ? ofMissing : fact > value ? PASS : FAIL;
      }
      return true;
    case 'gte':
      for (let row = 0; row < size; row++) {
        const fact = values[row]!;
        status[row] = fact !== fact ? ofMissing : fact >= value ? PASS : FAIL;
      }
      return true;
    case 'eq':
      for (let row = 0; row < size; row++) {
        const fact = values[row]!;
        status[row] = fact !== fact ? ofMissing : fact === value ? PASS : FAIL;
      }
      return true;
    case 'ne':
      for (let row = 0; row < size; row++) {
        const fact = values[row]!;
        status[row] = fact !== fact ? ofMissing : fact !== value ? PASS : FAIL;
      }
      return true;
    default:
      return false;
  }
}

export function rank(index: VintageIndex, spec: RankSpec): Ranking {
  const size = index.size;
  const eligible = new Uint8Array(size).fill(1);
  const review = new Uint8Array(size);
  for (const rule of spec.must) {
    const status = ruleStatus(index.column(rule.field), size, rule.test, rule);
    const excludeUnknown = rule.policy === 'exclude';
    for (let row = 0; row < size; row++) {
      const result = status[row]!;
      if (result === PASS) continue;
      if (result === FAIL || excludeUnknown) eligible[row] = 0;
      else review[row] = 1;
    }
  }
  const contribution = new Float64Array(size);
  for (const rule of spec.preferred) {
    const status = ruleStatus(index.column(rule.field), size, rule.test, rule);
    const weight = rule.weight;
    for (let row = 0; row < size; row++) if (status[row] === PASS) contribution[row] += weight;
  }
  const score = new Float64Array(size);
  const byVerdict = { PURSUE: 0, MONITOR: 0, HOLD: 0 };
  let eligibleTotal = 0;
  // Sums of a few weights take few distinct values: score and judge each once, not per parcel.
  const judged = new Map<number, { score: number; plain: keyof Ranking['byVerdict']; reviewed: keyof Ranking['byVerdict'] }>();
  for (let row = 0; row < size; row++) {
    if (!eligible[row]) continue;
    eligibleTotal++;
    const sum = contribution[row]!;
    let judgement = judged.get(sum);
    if (judgement === undefined) {
      const value = scoreOf(sum, spec.preferenceWeightTotal);
      judgement = { score: value, plain: verdictOf(value, spec.cutoffs, false), reviewed: verdictOf(value, spec.cutoffs, true) };
      judged.set(sum, judgement);
    }
    score[row] = judgement.score;
    byVerdict[review[row] === 1 ? judgement.reviewed : judgement.plain]++;
  }
  return { eligible, review, score, eligibleTotal, byVerdict };
}

export { scoreOf };
