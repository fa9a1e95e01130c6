#!/usr/bin/env node
// Screenshots of screens at 1280×800 and 390×844 into ./screenshots/, for looking at what we build.
// Usage: node scripts/screenshots.mjs [baseUrl] [path ...]   (a path may be "login:/settings" to sign in
// with the demo account first, and end in "#<tab name>" to open that tab, e.g. "#Team settings").
// SHOT_SCHEME=dark (or "both") takes them in the dark colour scheme too, as "<name>-dark.png".
// Needs a running server (npm start).
import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';

const [base = 'http://127.0.0.1:8080', ...given] = process.argv.slice(2);
const paths = given.length
  ? given
  : [
      '/',
      '/register',
      '/forgotPassword',
      '/pendingRegistration',
      '/passwordRecovery',
      '/createPassword/expired',
      '/nope',
      'login:/settings',
      // Members, invitations, API tokens (admins), leave and delete.
      'login:/settings#Team settings',
    ];
const executablePath = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
const browser = await chromium.launch({
  executablePath,
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
});
mkdirSync('screenshots', { recursive: true });
const schemes = { light: ['light'], dark: ['dark'], both: ['light', 'dark'] }[
  process.env.SHOT_SCHEME ?? 'light'
];
for (const [w, h, colorScheme] of [
  [1280, 800],
  [390, 844],
].flatMap(([w, h]) => (schemes ?? ['light']).map((s) => [w, h, s]))) {
  const page = await browser.newPage({ viewport: { width: w, height: h }, colorScheme });
  for (const entry of paths) {
    const signIn = entry.startsWith('login:');
    const [path, tab] = (signIn ? entry.slice(6) : entry).split('#');
    if (signIn) {
      await page.goto(`${base}/`);
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${base}/`);
      await page.getByLabel('E-mail').fill(process.env.SHOT_LOGIN ?? 'demo@tlprt.local');
      await page.getByLabel('Password', { exact: true }).fill(process.env.SHOT_PASSWORD ?? 'demo-password');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL((u) => u.pathname !== '/');
    }
    await page.goto(`${base}${path}`);
    await page.waitForLoadState('networkidle').catch(() => {});
    if (tab) {
      await page.getByRole('tab', { name: tab }).first().click();
      await page.waitForLoadState('networkidle').catch(() => {});
    }
    await page.waitForTimeout(400);
    const name = `${path}${tab ? `_${tab}` : ''}`.replace(/[^a-z0-9]+/gi, '_');
    const file = `screenshots/${name || 'root'}-${w}x${h}${colorScheme === 'dark' ? '-dark' : ''}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await page.close();
}
await browser.close();
