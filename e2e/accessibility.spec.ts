import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { MSG_TEAM_MANAGEMENT, MSG_TOKENS, PLAYER_PATHS } from '@tlprt/contract';
import { uniqueEmail } from './support/mail';
import { loginInBrowser, teamWithKey } from './support/session';

/**
 * WCAG 2.1 A and AA rules of axe-core on what the page shows, in the light and the dark colour scheme
 * (the browser's preference emulated: with no stored choice the app follows it); each violation named
 * with its nodes. The page is left in the light scheme. The scheme changes colours only, so the dark one
 * is measured with the rules about colour: the others would find the same page twice (and axe's run was
 * two fifths of the browser suite's time).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function expectAccessible(page: Page, what: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    // A modal or panel still fading in has see-through text: measure contrast once transitions end.
    // (Endless ones, like a spinner or the live dot, are not waited for.)
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every(
          (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
        ),
    );
    const axe = new AxeBuilder({ page });
    const { violations } = await (colorScheme === 'light'
      ? axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      : axe.withRules(COLOUR_RULES)
    ).analyze();
    const found = violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    expect(found, `${what} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

// One test per screen and size: on a loaded machine a walk through every screen outgrew a test's minute.
const PUBLIC_SCREENS = [
  '/',
  '/register',
  '/forgotPassword',
  '/passwordRecovery',
  '/pendingRegistration',
  '/nope',
  PLAYER_PATHS.guide,
];
for (const size of SIZES) {
  for (const path of PUBLIC_SCREENS) {
    test(`public screen ${path} meets WCAG 2.1 AA (axe) at ${size.width}×${size.height}`, async ({
      page,
    }) => {
      await page.setViewportSize(size);
      await page.goto(path);
      await expect(page.locator('main, form, h1').first()).toBeVisible();
      await expectAccessible(page, `${path} at ${size.width}px`);
    });
  }
}

for (const [i, size] of SIZES.entries()) {
  test(`dashboard screens meet WCAG 2.1 AA (axe) at ${size.width}×${size.height}`, async ({
    page,
    request,
    baseURL,
  }) => {
    // Five screens in two colour schemes, each measured once its transitions end: on a loaded machine
    // that takes longer than the default minute.
    test.setTimeout(240_000);
    const email = uniqueEmail('a11y');
    // Each test signs its own supervisor up (SUPERVISOR_EMAILS of playwright.config.ts).
    await teamWithKey(request, baseURL as string, email, `supervisor${6 + i}@e2e.test`);
    await loginInBrowser(page, email, 'stats-secret');
    await page.setViewportSize(size);
    await page.goto('/statistics');
    await expect(page.getByTestId('stats-chart')).toBeVisible();
    await expectAccessible(page, `statistics at ${size.width}px`);
    for (const path of ['/integration', '/addDomains', '/origins', '/settings']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
      await expectAccessible(page, `${path} at ${size.width}px`);
    }
  });
}

test('a modal and the Team Management panel meet WCAG 2.1 AA (axe)', async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('a11y');
  await teamWithKey(request, baseURL as string, email, 'supervisor4@e2e.test');
  await loginInBrowser(page, email, 'stats-secret');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Team settings' }).first().click();
  // The API token shown once, then the tab with it listed.
  const tokens = page.getByRole('region', { name: MSG_TOKENS.title });
  await tokens.getByLabel(MSG_TOKENS.nameLabel).fill('Encoder');
  await tokens.getByLabel(MSG_TOKENS.nameLabel).press('Enter');
  await expect(page.getByRole('dialog', { name: MSG_TOKENS.createdTitle })).toBeVisible();
  await expectAccessible(page, 'new API token modal');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(tokens.getByText('Encoder')).toBeVisible();
  await expectAccessible(page, 'Team settings tab');
  await page.getByRole('button', { name: 'Delete team' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'delete team modal');

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await loginInBrowser(page, 'supervisor4@e2e.test', 'super-secret');
  await page.getByRole('button', { name: MSG_TEAM_MANAGEMENT.title }).click();
  await expect(page.getByTestId('team-total')).toBeVisible();
  await expectAccessible(page, 'Team Management panel');
});
