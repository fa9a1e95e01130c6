import { defineConfig } from '@playwright/test';
import p2p from './playwright.config';

/**
 * `npm run bench:p2p` (not in CI): the P2P share of N viewers against the ceiling 1 − 1/N,
 * in the P2P suite's private network namespace and server. BENCH_P2P_VIEWERS picks the sizes
 * (default 2,3,4,6).
 */
export default defineConfig({
  ...p2p,
  testMatch: '*.bench.ts',
  timeout: 60 * 60_000,
});
