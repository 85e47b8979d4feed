import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'workers/*/src/**/*.test.ts', 'gateway/src/**/*.test.ts', 'test/**/*.test.ts'],
    // Builds the migrated PostgreSQL template every suite clones (packages/testing).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two workers keep the machine responsive for the servers the tests start.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
