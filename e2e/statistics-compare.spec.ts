import { expect, test } from '@playwright/test';
import { MSG_STATS } from '@tlprt/contract';
import { uniqueEmail } from './support/mail';
import { loginInBrowser, teamWithKey } from './support/session';
import { ingest } from './support/traffic';

test('custom dates and the comparison with the previous period render with deltas and survive a reload', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('stats-compare');
  const { keyHash } = await teamWithKey(request, baseURL as string, email, 'supervisor16@e2e.test');
  await ingest(request, keyHash, 2, 6000, 4000);

  await loginInBrowser(page, email, 'stats-secret');
  await page.goto('/statistics?range=week&list=0');
  const share = page.getByLabel('P2P share', { exact: true });
  await expect(share).toContainText('40');

  // Today, picked on the calendar (one day: the same day twice).
  await page.getByRole('button', { name: MSG_STATS.customDates }).click();
  const today = page.locator('button[data-today]').first();
  await today.click();
  await today.click();
  await expect(page).toHaveURL(/from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d/);
  // One day is read by the minute; no range of the switch is chosen.
  await expect(page.getByText(/· 1-minute steps/)).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Week' })).not.toBeChecked();
  await expect(share).toContainText('40');

  await page.getByRole('switch', { name: MSG_STATS.compare }).click({ force: true });
  await expect(page).toHaveURL(/compare=1/);
  // Nothing was served the day before: the traffic is new, the share has nothing to compare with.
  const traffic = page.getByTestId('delta-total-traffic');
  await expect(traffic).toContainText('new vs previous');
  await expect(traffic).toContainText('Total traffic: none in the previous period');
  await expect(page.getByTestId('delta-p2p-share')).toContainText('— vs previous');

  const url = page.url();
  await page.reload();
  await expect(page).toHaveURL(url);
  await expect(share).toContainText('40');
  await expect(page.getByRole('switch', { name: MSG_STATS.compare })).toBeChecked();
  await expect(page.getByTestId('delta-total-traffic')).toContainText('new vs previous');
  await expect(page.getByText(/· 1-minute steps · dashed: previous period/)).toBeVisible();
});
