import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import base, { E2E } from '../playwright.config';

/**
 * The two-player P2P test (DESIGN §11). `npm test` runs it inside a network namespace of its own
 * (scripts/netns.sh): Chromium gathers no WebRTC candidates on loopback alone nor without a default
 * route, and test traffic must not touch the machine's real interfaces. In that namespace nothing else
 * listens, so the ports of the main browser suite are free again.
 */
const root = resolve(import.meta.dirname, '../..');
const baseURL = `http://127.0.0.1:${E2E.port}`;
type WebServer = Extract<PlaywrightTestConfig['webServer'], { command: string }>;
const [mailSink, server] = base.webServer as [WebServer, WebServer];

export default defineConfig({
  ...base,
  testDir: '.',
  testIgnore: [],
  testMatch: '*.spec.ts',
  // Two players play a 40 s stream, then their reports reach the charts: minutes, not seconds.
  timeout: 180_000,
  workers: 1,
  outputDir: join(root, 'test-results', 'p2p'),
  use: {
    ...base.use,
    launchOptions: {
      ...base.use?.launchOptions,
      args: [
        ...(base.use?.launchOptions?.args ?? []),
        '--autoplay-policy=no-user-gesture-required',
        // Host candidates carry the namespace's address instead of an mDNS name nobody resolves here.
        '--disable-features=WebRtcHideLocalIpsWithMdns',
      ],
    },
  },
  webServer: [
    mailSink,
    {
      ...server,
      env: {
        ...server.env,
        DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'p2p-db-')), 'dashboard.db')}`,
        STATS_INGEST_FLUSH_MS: '1000',
        ICE_SERVERS: '',
        PUBLIC_URL: baseURL,
      },
    },
  ],
});
