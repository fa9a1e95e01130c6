import { expect, type Page, test } from '@playwright/test';
import { MSG_TEAM_MANAGEMENT, STORAGE_KEYS } from '@tlprt/contract';
import { uniqueEmail } from './support/mail';
import { adminWithTeam, loginInBrowser, teamWithKey } from './support/session';

const schemeOf = (page: Page) => page.locator('html');

/** Dark mode follows the browser until the header's switch picks one, which is remembered. */
test('color scheme: follows prefers-color-scheme, the header switch overrides it and is remembered', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('scheme');
  await adminWithTeam(request, baseURL as string, email, 'scheme-secret', 'Scheme Team');
  await page.emulateMedia({ colorScheme: 'light' });
  await loginInBrowser(page, email, 'scheme-secret');
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // No stored choice: the page follows the browser, also when the preference changes.
  expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.colorScheme)).toBeNull();
  await expect(schemeOf(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(schemeOf(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(schemeOf(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  const bodyBg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const darkBg = await bodyBg();

  // The switch: Light wins over the browser's dark preference, and survives a reload.
  await page.getByRole('button', { name: /^Color scheme/ }).click();
  await page.getByRole('menuitem', { name: 'Light' }).click();
  await expect(schemeOf(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
  expect(await bodyBg()).not.toBe(darkBg);
  await page.reload();
  await expect(schemeOf(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
  await expect(page.getByRole('button', { name: 'Color scheme: Light' })).toBeVisible();

  // Dark while the browser prefers light.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: /^Color scheme/ }).click();
  await page.getByRole('menuitem', { name: 'Dark' }).click();
  await expect(schemeOf(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(schemeOf(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');

  // System: back to following the browser.
  await page.getByRole('button', { name: /^Color scheme/ }).click();
  await page.getByRole('menuitem', { name: 'System' }).click();
  await expect(schemeOf(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(schemeOf(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
});

/** Nothing wider than the phone: the page itself never scrolls sideways. */
async function expectNoHorizontalOverflow(page: Page, what: string) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
    // Every card-like box (domain cards, team cards, the panel) fits its own width too.
    overflowing: [
      ...document.querySelectorAll<HTMLElement>('[data-testid], .mantine-Card-root, .mantine-Paper-root'),
    ]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'auto')
      .filter((el) => getComputedStyle(el).overflowX !== 'scroll')
      .map((el) => el.getAttribute('data-testid') ?? el.className.split(' ')[0]),
  }));
  expect(widths.page, `${what}: page width`).toBeLessThanOrEqual(390);
  expect(widths.overflowing, `${what}: boxes wider than themselves`).toEqual([]);
}

test('phone (390×844): My domains and Team Management fit the width', async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  const email = uniqueEmail('phone');
  const supervisor = 'supervisor12@e2e.test';
  await teamWithKey(request, baseURL as string, email, supervisor);
  await page.setViewportSize({ width: 390, height: 844 });
  await loginInBrowser(page, email, 'stats-secret');
  await page.goto('/integration');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
  await expectNoHorizontalOverflow(page, 'My domains');

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await loginInBrowser(page, supervisor, 'super-secret');
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await page.getByRole('button', { name: MSG_TEAM_MANAGEMENT.title }).click();
  const panel = page.getByRole('dialog', { name: MSG_TEAM_MANAGEMENT.title });
  await expect(panel.getByTestId('team-total')).toBeVisible();
  await expectNoHorizontalOverflow(page, 'Team Management cards');
  await panel.getByText('Table', { exact: true }).click();
  await expect(panel.locator('table')).toBeVisible();
  await expectNoHorizontalOverflow(page, 'Team Management table');
});
