import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/support/sequencer.js';

// Tests run the TypeScript sources, never dist/: every workspace export names its source under this
// condition (docs/building.md). Vite resolves the modules it transforms with it; Node resolves with
// it in the test processes, and in the worker threads and child processes they start, which inherit
// the flag.
const SOURCE = '@landscreen/source';
// Vite's own defaults (defaultClientConditions, defaultServerConditions), which a list given here replaces.
const CLIENT_CONDITIONS = ['module', 'browser', 'development|production'];
// Without 'module', as vitest's own default drops it: packages that answer it with an ESM build
// Node cannot load (OpenTelemetry's: imports without file extensions) then load as Node loads them.
const SERVER_CONDITIONS = ['node', 'development|production'];

export default defineConfig({
  resolve: { conditions: [SOURCE, ...CLIENT_CONDITIONS] },
  ssr: { resolve: { conditions: [SOURCE, ...SERVER_CONDITIONS], externalConditions: [SOURCE] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'workers/*/src/**/*.test.ts', 'gateway/src/**/*.test.ts', 'test/**/*.test.ts'],
    // Builds the migrated PostgreSQL and PGlite templates every suite starts from (packages/testing).
    globalSetup: ['test/global-setup.ts'],
    // Tests and start-up hooks wait on readiness, never on the clock; these bounds only stop a test
    // that hangs. They are the same for every test (no test sets its own): the longest one (the
    // demo market, about a minute of CPU on a quiet machine) must pass on two cores shared with
    // seven other test runs, so a hung test costs 15 minutes before it fails (docs/decisions.md,
    // "A test suite that holds on a busy machine").
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // expect.poll's own default is a one-second deadline; it gets the same bound as a test.
    expect: { poll: { timeout: 900_000 } },
    // Two cores: two workers keep the machine responsive for the servers the tests start.
    pool: 'forks',
    // The longest files first, so that both forks stay busy to the end (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    poolOptions: { forks: { maxForks: 2, minForks: 1, execArgv: [`--conditions=${SOURCE}`] } },
  },
});
