import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    // A screen test walks many user steps in jsdom; 5 s is not enough on a loaded two-core machine.
    testTimeout: 20_000,
    // Files share their workers' loaded modules: loading the app and Mantine again for each file cost
    // about a fifth of the run. Shared state is reset per test (test/setup.ts, renderScreen). A module a
    // file replaces with vi.mock must not be loaded by other files' imports (only the statistics
    // screen's test loads ./echarts); hand a test seam instead, as platform/api/navigation's pageReload does.
    isolate: false,
  },
});
