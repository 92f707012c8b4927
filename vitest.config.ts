import { defineConfig } from 'vitest/config';

// Vitest runs the store-backed and unit suites only; Playwright specs live in e2e/ and run under `playwright test`.
export default defineConfig({
  test: {
    include: [
      'core/**/*.test.ts',
      'server/**/*.test.ts',
      'api-kit/**/*.test.ts',
      'merchant-api/**/*.test.ts',
      'dropin-api/**/*.test.ts',
      'dashboard-api/**/*.test.ts',
      'widget/**/*.test.ts',
      'bench/**/*.test.ts',
      'contracts/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
