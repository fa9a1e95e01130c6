import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';

/** Browser tests: Debian's Chromium against the built dashboard server, mail over real SMTP. */
const port = Number(process.env.E2E_PORT ?? 8181);
/** Another E2E_PORT moves the helper servers too, so two runs can share a machine. */
const shift = (port - 8181) * 100;
process.env.E2E_DATABASE_FILE ??= join(mkdtempSync(join(tmpdir(), 'e2e-db-')), 'dashboard.db');
export const E2E = {
  port,
  smtpPort: 2626 + shift,
  mailHttpPort: 2627 + shift,
  /** The customer's site and its DNS, played by e2e/domains.spec.ts for domain verification. */
  dnsPort: 2653 + shift,
  sitePort: 2628 + shift,
  /** The server's SQLite file. Made once by the runner; its workers inherit the variable, so a test
   *  can write what no call of the spec creates (a key for all domains). */
  databaseFile: process.env.E2E_DATABASE_FILE as string,
};
/**
 * E2E_PART=waits: only the specs that mostly wait on the clock (alerts.spec.ts waits for real minutes
 * to close), which `npm test` runs beside the server suites on another E2E_PORT; E2E_PART=rest: the
 * others. Unset: all of them.
 */
const part = process.env.E2E_PART;
const WAITS = ['alerts.spec.ts'];
const root = resolve(import.meta.dirname, '..');
const baseURL = `http://127.0.0.1:${E2E.port}`;
const chromium = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));

export default defineConfig({
  testDir: '.',
  testMatch: part === 'waits' ? WAITS : '**/*.spec.ts',
  // The P2P test needs a network namespace of its own (e2e/p2p/playwright.config.ts).
  testIgnore: part === 'rest' ? ['p2p/**', ...WAITS] : 'p2p/**',
  // Bounds that allow for a busy machine (the waiting part runs beside the server suites); the same
  // checks.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // A folder per part: each run empties its folder as it starts, and the parts may run at once.
  outputDir: join(root, 'test-results', part === 'waits' ? 'e2e-waits' : 'e2e'),
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: 'node e2e/support/mail-sink.mjs',
      cwd: root,
      url: `http://127.0.0.1:${E2E.mailHttpPort}/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { MAIL_SINK_SMTP_PORT: String(E2E.smtpPort), MAIL_SINK_HTTP_PORT: String(E2E.mailHttpPort) },
    },
    {
      command: 'node apps/server/dist/main.js',
      cwd: root,
      url: `${baseURL}/auth/get_time_server`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(E2E.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseURL,
        DATABASE_URL: `sqlite:${E2E.databaseFile}`,
        SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`,
        SUPPORT_EMAIL: 'support@e2e.test',
        SUPERVISOR_EMAILS: [
          'supervisor@e2e.test',
          ...Array.from({ length: 19 }, (_, i) => `supervisor${i + 2}@e2e.test`),
        ].join(','),
        DNS_SERVERS: `127.0.0.1:${E2E.dnsPort}`,
        VERIFY_HTTP_PORT: String(E2E.sitePort),
        VERIFY_ALLOW_PRIVATE: 'true',
        // The alerts spec waits for real minutes to close: evaluated 2 s after, looked for every second.
        ALERTS_EVALUATE_AFTER_MS: '2000',
        ALERTS_EVALUATE_EVERY_MS: '1000',
        // Every browser test signs in from 127.0.0.1: keep the guest limit above what the suite uses.
        RATE_LIMIT_GUEST_PER_MINUTE: '1000',
      },
    },
  ],
});
