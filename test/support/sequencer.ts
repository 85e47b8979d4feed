import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (their durations in two suites run at once, and each
 * run alone: docs/benchmarks.md, "The test suite's CPU"). Two forks take files in the order given,
 * so these start first and the short files fill in behind them; started last, one of them alone
 * would keep a fork busy for minutes after the other had finished. A fresh checkout (CI) has no
 * durations of earlier runs, where vitest's own order is by file size, which puts the small e2e
 * files that start whole servers last.
 */
export const LONGEST_FILES = [
  'test/e2e/demo.test.ts',
  'test/e2e/layer-formats.test.ts',
  'test/e2e/import-safety.test.ts',
  'test/browser/console.test.ts',
  'test/e2e/reports.test.ts',
  'test/e2e/billing.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/import-cancel.test.ts',
  'test/e2e/rasters.test.ts',
];

/** LONGEST_FILES first, in that order; every other file after them in vitest's own order. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FILES.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return index === -1 ? LONGEST_FILES.length : index;
    };
    const rest = await super.sort(files.filter((file) => rank(file) === LONGEST_FILES.length));
    const longest = files.filter((file) => rank(file) < LONGEST_FILES.length).sort((a, b) => rank(a) - rank(b));
    return [...longest, ...rest];
  }
}
