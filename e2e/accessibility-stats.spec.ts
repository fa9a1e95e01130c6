import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { uniqueEmail } from './support/mail';
import { loginInBrowser, teamWithKey } from './support/session';

/**
 * Issue 39, item 10: the statistics screen with its text alternative open passes axe's WCAG 2.1 A and
 * AA rules, and the skip link is the first tab stop and lands on the main element.
 */
test('statistics: the chart data table passes axe and the skip link reaches main', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('a11y-stats');
  await teamWithKey(request, baseURL as string, email, 'supervisor19@e2e.test');
  await loginInBrowser(page, email, 'stats-secret', '/statistics');
  await page.setViewportSize({ width: 1280, height: 800 });
  const chart = page.getByRole('img', { name: /Bandwidth and viewers chart/ });
  await expect(chart).toBeVisible();
  // The canvas is described by the summary of its visible points.
  await expect(chart).toHaveAccessibleDescription(/^From .* points? of 1 minute\./);
  await page.getByRole('button', { name: 'Show data table' }).click();
  await expect(page.getByRole('table', { name: /Chart data/ })).toBeVisible();
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    violations.map(
      (v) =>
        `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''} ${n.html.slice(0, 160)}`).join(', ')}`,
    ),
  ).toEqual([]);

  // From the top of the page, the first Tab is the skip link, shown, and Enter moves focus to main.
  await page.reload();
  await expect(chart).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await expect(page).not.toHaveURL(/#/);
});
