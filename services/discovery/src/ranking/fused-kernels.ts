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
    const shape = `mark ${inlined.map(({ test, bit }) => `${kindOf(test)}${bit}`).join(' ')}`;
    const args = inlined.map(({ test }) => argumentsOf(test, test.kind === 'coded' ? test.passes : undefined));
    loopFor(shape, () => writeMarkLoop(inlined))(rows, count, passed, new Uint8Array(0), args);
  }
  kernels.forEach((kernel, bit) => kernel.inline || kernel.mark(rows, count, passed, bit));
}

/**
 * A test's kind in a loop's shape: a coded one by the width of its slots, so that each compiled
 * loop reads one array type and V8 keeps its element loads monomorphic.
 */
const kindOf = (test: InlineTest) => (test.kind === 'interval' ? 'i' : `c${test.slots.BYTES_PER_ELEMENT}`);

/**
 * A rule's arguments to a loop: an interval's column and bounds, or a coded column's slots and the table
 * by slot the loop reads (whether it passes, or what a must rule does).
 */
function argumentsOf(test: InlineTest, table: Uint8Array | undefined): unknown[] {
  return test.kind === 'interval' ? [test.values, test.low, test.high] : [test.slots, table];
}

/** The loop's first lines: rule `at`'s arguments as locals `v`, `lo`, `hi` or `c`, `t` + `at`. */
function unpack(inlined: readonly { test: InlineTest }[]): string {
  return inlined
    .map(({ test }, at) => (test.kind === 'interval' ? `const [v${at}, lo${at}, hi${at}] = args[${at}];` : `const [c${at}, t${at}] = args[${at}];`))
    .join('\n');
}

function writeMarkLoop(inlined: readonly { test: InlineTest; bit: number }[]): string {
  const mark = inlined.map(({ test, bit }, at) =>
    test.kind === 'interval'
      ? // Branch-free, as in the rule kernels: NaN fails both comparisons.
        `x = v${at}[row]; set |= (+(x >= lo${at}) & +(x <= hi${at})) << ${bit};`
      : `set |= t${at}[c${at}[row]] << ${bit};`,
  );
  return `${unpack(inlined)}
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
    .sort((a, b) => kindOf(a.test).localeCompare(kindOf(b.test)) || +a.unknownKeeps - +b.unknownKeeps);
  if (inlined.length > 0) {
    const shape = `keep ${inlined.map(({ test, unknownKeeps }) => `${kindOf(test)}${+unknownKeeps}`).join(' ')}`;
    const args = inlined.map(({ test, unknownKeeps }) => {
      const actionOf = actionsFor(unknownKeeps);
      return argumentsOf(test, test.kind === 'coded' ? test.outcomes.map((outcome) => actionOf[outcome]!) : undefined);
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
  const keep = inlined.map(({ test, unknownKeeps }, at) => {
    if (test.kind === 'coded') return `action = t${at}[c${at}[row]]; keep &= action; flag |= action >> 1;`; // bit 0 keeps, bit 1 flags
    return unknownKeeps
      ? `x = v${at}[row]; missing = +(x !== x); keep &= (+(x >= lo${at}) & +(x <= hi${at})) | missing; flag |= missing;`
      : `x = v${at}[row]; keep &= +(x >= lo${at}) & +(x <= hi${at});`;
  });
  return `${unpack(inlined)}
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
