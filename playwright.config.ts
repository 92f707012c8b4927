import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium.js';

/**
 * Browser runs of the drop-in in Debian's Chromium (docs/architecture.md). Each worker starts the real service on a fresh
 * SQLite file and a merchant page on another origin (e2e/fixtures.ts); globalSetup builds the drop-in first.
 */
const chromium = chromiumLaunchOptions;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: { launchOptions: chromium, trace: 'retain-on-failure', screenshot: 'only-on-failure', actionTimeout: 15_000 },
  projects: [
    {
      name: 'desktop',
      testIgnore: /mobile\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], channel: undefined, launchOptions: chromium },
    },
    {
      name: 'mobile',
      testMatch: /mobile\.spec\.ts/,
      use: { ...devices['Pixel 7'], browserName: 'chromium', channel: undefined, launchOptions: chromium },
    },
  ],
});
