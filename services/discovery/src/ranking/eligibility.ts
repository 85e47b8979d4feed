import type { Column } from './columns.js';
import { keepAll } from './fused-kernels.js';
import { ruleKernel, type KernelRule, type RuleKernel } from './rule-kernels.js';
import type { Scratch } from './scratch.js';

export interface MustRule extends KernelRule {
  field: string;
  policy: 'exclude' | 'review';
}

/** The rows that pass every must rule, in ascending order, and which of them need review. */
export interface Eligible {
  /** Eligible rows in `rows[0..count)`, ascending. */
  rows: Uint32Array;
  /** By row: 1 when the row passed only because an unknown fact is on `review` (D14). */
  review: Uint8Array;
  count: number;
}

interface MustKernel {
  kernel: RuleKernel;
  unknownKeeps: boolean;
}

/** Rows read to guess how many rows a rule keeps. */
const SAMPLE_SIZE = 1024;

/**
 * D14's must rules: the rule that keeps the fewest rows (judged on a sample) reads the whole
 * vintage, and the others read only the rows it kept, in one fused pass (fused-kernels.ts).
 * Which rows end eligible, and which need review, does not depend on the order: a row is
 * eligible when every rule keeps it, and needs review when any `review` rule was unknown for it.
 */
export function eligibleRows(size: number, columnOf: (field: string) => Column | undefined, must: readonly MustRule[], work: Scratch): Eligible {
  const kernels = must.map(
    (rule): MustKernel => ({ kernel: ruleKernel(columnOf(rule.field), rule), unknownKeeps: rule.policy === 'review' }),
  );
  work.reserve(size);
  const { rows, review } = work;
  let input = work.allRows(size);
  let count = size;
  const [first, ...rest] = mostSelectiveFirst(kernels, input, review);
  review.fill(0, 0, size);
  if (first) {
    // The most selective rule narrows the whole vintage; the others read what it kept, together.
    count = first.kernel.keep(input, count, rows, review, first.unknownKeeps);
    input = rows;
    if (count > 0 && rest.length > 0) count = keepAll(rest, input, count, rows, review);
  }
  return { rows: input, review, count };
}

/**
 * The kernels ordered by how many rows of an evenly spread sample each keeps, fewest first
 * (`review` is scribbled on).
 */
function mostSelectiveFirst(kernels: MustKernel[], all: Uint32Array, review: Uint8Array): MustKernel[] {
  if (kernels.length < 2) return kernels;
  const stride = Math.max(1, Math.floor(all.length / SAMPLE_SIZE));
  const sample = new Uint32Array(Math.ceil(all.length / stride));
  for (let index = 0; index < sample.length; index++) sample[index] = all[index * stride]!;
  const kept = new Uint32Array(sample.length);
  const keeps = kernels.map(({ kernel, unknownKeeps }) => kernel.keep(sample, sample.length, kept, review, unknownKeeps));
  // Array.prototype.sort is stable: equally selective rules keep the spec's order.
  return kernels.map((kernel, at) => ({ kernel, keeps: keeps[at]! })).sort((a, b) => a.keeps - b.keeps).map(({ kernel }) => kernel);
}
