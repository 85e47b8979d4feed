import { actionsFor, type InlineTest, type RuleKernel } from './rule-kernels.js';

/**
 * Several rules in ONE pass over the rows, where the rule kernels pass over them once per rule:
 * each such pass re-reads the row list and rewrites every row's result, and at ~750,000 rows and
 * ten rules that traffic, not the comparisons, was most of a ranking (docs/benchmarks.md).
 *
 * The loop is written out for the rules at hand, a line each, and compiled with `new Function`.
 * Its source holds nothing from the spec but each rule's kind, bit and policy: columns, bounds
 * and tables are arguments. Loops are cached by that shape, so a shape is compiled, and
 * optimized by V8, once. Rules whose test cannot be inlined run their own kernels afterwards.
 */

type Loop = (input: Uint32Array, count: number, output: Uint32Array, review: Uint8Array, args: unknown[]) => number;

/**
 * Loops by shape, the most recently used last. Real specs repeat a few shapes; the bound keeps
 * specs crafted to differ from compiling without end.
 */
const LOOPS = new Map<string, Loop>();
const MAX_LOOPS = 256;

function loopFor(shape: string, write: () => string): Loop {
  let loop = LOOPS.get(shape);
  if (loop) LOOPS.delete(shape);
  else loop = new Function('input', 'count', 'output', 'review', 'args', write()) as Loop;
  LOOPS.set(shape, loop);
  if (LOOPS.size > MAX_LOOPS) LOOPS.delete(LOOPS.keys().next().value!);
  return loop;
}

/** A preferred rule per bit: sets in `passed[i]` the bit of every rule row `rows[i]` passes, clearing the rest. */
export function markAll(kernels: readonly RuleKernel[], rows: Uint32Array, count: number, passed: Uint32Array): void {
  const inlined = kernels.flatMap((kernel, bit) => (kernel.inline ? [{ test: kernel.inline, bit }] : []));
  if (inlined.length === 0) passed.fill(0, 0, count);
  else {
    const shape = `mark ${inlined.map(({ test, bit }) => `${test.kind[0]}${bit}`).join(' ')}`;
    const args = inlined.flatMap(({ test }): unknown[] => (test.kind === 'interval' ? [test.values, test.low, test.high] : [test.codes, test.passes]));
    loopFor(shape, () => writeMarkLoop(inlined))(rows, count, passed, new Uint8Array(0), args);
  }
  kernels.forEach((kernel, bit) => kernel.inline || kernel.mark(rows, count, passed, bit));
}

function writeMarkLoop(inlined: readonly { test: InlineTest; bit: number }[]): string {
  const take: string[] = [];
  const mark: string[] = [];
  let arg = 0;
  inlined.forEach(({ test, bit }, at) => {
    if (test.kind === 'interval') {
      take.push(`const v${at} = args[${arg++}], lo${at} = args[${arg++}], hi${at} = args[${arg++}];`);
      // Branch-free, as in the rule kernels: NaN fails both comparisons.
      mark.push(`x = v${at}[row]; set |= (+(x >= lo${at}) & +(x <= hi${at})) << ${bit};`);
    } else {
      take.push(`const c${at} = args[${arg++}], p${at} = args[${arg++}];`);
      mark.push(`set |= p${at}[c${at}[row] + 1] << ${bit};`);
    }
  });
  return `${take.join('\n')}
for (let index = 0; index < count; index++) {
  const row = input[index];
  let set = 0;
  let x = 0;
  ${mark.join('\n  ')}
  output[index] = set;
}
return count;`;
}

/**
 * Must rules: copies the rows of `input[0..count)` every rule keeps, in order, to `rows` (which
 * may be `input`) and answers how many, flagging in `review` a kept row that a `review` rule
 * found unknown — what the rules' `keep` one after another do.
 */
export function keepAll(
  kernels: readonly { kernel: RuleKernel; unknownKeeps: boolean }[],
  input: Uint32Array,
  count: number,
  rows: Uint32Array,
  review: Uint8Array,
): number {
  // Which rows are kept does not depend on the rules' order, so the loop's does not either:
  // sorted by kind and policy, specs share few shapes.
  const inlined = kernels
    .flatMap(({ kernel, unknownKeeps }) => (kernel.inline ? [{ test: kernel.inline, unknownKeeps }] : []))
    .sort((a, b) => a.test.kind.localeCompare(b.test.kind) || +a.unknownKeeps - +b.unknownKeeps);
  if (inlined.length > 0) {
    const shape = `keep ${inlined.map(({ test, unknownKeeps }) => `${test.kind[0]}${+unknownKeeps}`).join(' ')}`;
    const args = inlined.flatMap(({ test, unknownKeeps }): unknown[] => {
      if (test.kind === 'interval') return [test.values, test.low, test.high];
      const actionOf = actionsFor(unknownKeeps);
      return [test.codes, test.outcomes.map((outcome) => actionOf[outcome]!)];
    });
    count = loopFor(shape, () => writeKeepLoop(inlined))(input, count, rows, review, args);
    input = rows;
  }
  for (const { kernel, unknownKeeps } of kernels) {
    if (kernel.inline || count === 0) continue;
    count = kernel.keep(input, count, rows, review, unknownKeeps);
    input = rows;
  }
  if (input !== rows) rows.set(input.subarray(0, count)); // no rule at all: every row is kept
  return count;
}

function writeKeepLoop(inlined: readonly { test: InlineTest; unknownKeeps: boolean }[]): string {
  const take: string[] = [];
  const keep: string[] = [];
  let arg = 0;
  inlined.forEach(({ test, unknownKeeps }, at) => {
    if (test.kind === 'interval') {
      take.push(`const v${at} = args[${arg++}], lo${at} = args[${arg++}], hi${at} = args[${arg++}];`);
      keep.push(
        unknownKeeps
          ? `x = v${at}[row]; missing = +(x !== x); keep &= (+(x >= lo${at}) & +(x <= hi${at})) | missing; flag |= missing;`
          : `x = v${at}[row]; keep &= +(x >= lo${at}) & +(x <= hi${at});`,
      );
    } else {
      // By code + 1, what the rule does: bit 0 keeps the row, bit 1 flags it for review.
      take.push(`const c${at} = args[${arg++}], a${at} = args[${arg++}];`);
      keep.push(`action = a${at}[c${at}[row] + 1]; keep &= action; flag |= action >> 1;`);
    }
  });
  return `${take.join('\n')}
let kept = 0;
for (let index = 0; index < count; index++) {
  const row = input[index];
  let keep = 1;
  let flag = 0;
  let x = 0;
  let missing = 0;
  let action = 0;
  ${keep.join('\n  ')}
  output[kept] = row;
  review[row] |= flag & keep;
  kept += keep;
}
return kept;`;
}
