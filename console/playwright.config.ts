import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests against a running Ludis API that serves this console (build it first).
 * LUDIS_E2E_URL: where it listens (default http://127.0.0.1:8080).
 * LUDIS_E2E_ADMIN_EMAIL / LUDIS_E2E_ADMIN_PASSWORD: the seeded superadmin.
 * Uses Debian's Chromium; Playwright's own browsers are never downloaded.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.LUDIS_E2E_URL ?? 'http://127.0.0.1:8080',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.LUDIS_E2E_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // WebGL in software (no GPU here), for the 3D scatter of the cluster template.
        '--enable-unsafe-swiftshader',
        // Storage of a framed app on its own site is partitioned, as in the browsers users have:
        // Playwright switches the partitioning off, which leaves a framed app no localStorage at
        // all (JupyterLab in its frame needs it). The last of a switch wins, so these replace
        // Playwright's own lists, without ThirdPartyStoragePartitioning in the disabled ones.
        '--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,AvoidCorsURLLoaderRestartOnRedirect,OptimizationHints,NetworkTimeServiceQuerying',
        '--enable-features=CDPScreenshotNewSurface,ThirdPartyStoragePartitioning',
      ],
    },
  },
});
