/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API serves the built console same-origin; in `npm run dev` the API calls are proxied.
const api = process.env.LUDIS_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: { manifest: true },
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    proxy: {
      '/v1': api,
      '/v2': api,
      '/apps': { target: api, ws: true },
      // The log and terminal websockets (docs/contracts/projects-v2.md).
      '/containerLogs': { target: api, ws: true },
      '/terminalConnection': { target: api, ws: true },
      '/healthz': api,
      '/readyz': api,
    },
  },
  test: {
    environment: 'happy-dom',
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Two shared cores: user-event flows through Mantine need more than the default 5 s.
    testTimeout: 20_000,
    // Every test resets the session, the toast store and fetch (testing/setup-tests.ts), so files can
    // share a worker's module graph: that saves re-importing Mantine per file.
    isolate: false,
  },
});
