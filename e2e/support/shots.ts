import type { Page } from '@playwright/test';

/** Where the screenshots of changed screens go (looked at by hand, not compared); unset: none taken. */
const SHOTS = process.env.SPEC_FIDELITY_SHOTS;

/** Full-page screenshots at the two sizes every screen is checked at, then back to the desktop size. */
export async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [w, h] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/${name}-${w}x${h}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
