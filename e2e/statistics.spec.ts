import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { MSG_STATS } from '@tlprt/contract';
import { uniqueEmail } from './support/mail';
import { loginInBrowser, teamWithKey } from './support/session';
import { ingest } from './support/traffic';

/**
 * Moves the mouse over the chart from its right end leftwards until `shown` appears (the point with the
 * reports: a minute may have begun since they were sent, leaving the last point empty).
 */
async function hoverUntil(page: Page, chart: Locator, shown: Locator) {
  // A range just chosen shows its skeleton until its data is in.
  await expect(chart).toBeVisible();
  // A live update may swap the chart for its next render between the check and the measure (CI saw a
  // null box once): measured again until it stands.
  let box = await chart.boundingBox();
  for (let tries = 0; !box && tries < 20; tries++) {
    await expect(chart).toBeVisible();
    box = await chart.boundingBox();
  }
  if (!box) throw new Error('no chart');
  for (let x = box.width - 30; x > box.width / 2; x -= 20) {
    await page.mouse.move(box.x + x, box.y + box.height * 0.3);
    const visible = await shown.waitFor({ state: 'visible', timeout: 300 }).then(
      () => true,
      () => false,
    );
    if (visible) return;
  }
  await expect(shown).toBeVisible();
}

/** The range switch is a segmented control: its radio inputs are hidden behind their labels. */
async function range(page: Page, name: 'Live' | 'Day' | 'Week' | 'Month') {
  await page
    .locator('label')
    .filter({ hasText: new RegExp(`^${name}$`) })
    .click();
}

test('reports sent for a key appear on the chart; ranges, lists and key selection reload it; live updates by itself', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('stats');
  const { keyHash } = await teamWithKey(request, baseURL as string, email, 'supervisor3@e2e.test');
  await ingest(request, keyHash, 2, 6000, 4000);

  await loginInBrowser(page, email, 'stats-secret');
  await page.goto('/statistics');
  await range(page, 'Live');
  const share = page.getByLabel('P2P share', { exact: true });
  await expect(share).toContainText('40');

  // The tooltip shows each series' value and its share.
  const chart = page.getByTestId('stats-chart');
  await hoverUntil(page, chart, page.getByText('(40.0%)').first());
  await expect(page.getByText('(60.0%)').first()).toBeVisible();

  await range(page, 'Day');
  await expect(share).toContainText('40');

  // A new list starts with no key: the chart asks for one; ticking the key loads it.
  await page.getByRole('button', { name: 'Add list' }).click();
  await expect(page.getByText(MSG_STATS.noKey)).toBeVisible();
  // The list's selection is saved and comes back through its query, so the tick shows a moment later.
  await page.getByLabel('Player', { exact: true }).click();
  await expect(page.getByLabel('Player', { exact: true })).toBeChecked();
  await expect(share).toContainText('40');

  const listTabs = page.getByRole('tablist', { name: 'Statistics lists' });
  await page.getByRole('button', { name: `Rename ${MSG_STATS.newList}` }).click();
  const nameField = page.getByLabel('List name');
  await nameField.fill('Main site');
  await nameField.press('Tab');
  await expect(listTabs.getByRole('tab', { name: 'Main site' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete Main site' }).click();
  await expect(page.getByText(MSG_STATS.deleteSheet)).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(listTabs.getByRole('tab', { name: 'Main site' })).toHaveCount(0);

  // Live: new reports show up without a reload (the screen polls every 3 s), and a tooltip open on the
  // chart stays open through the update, showing the new shares.
  await range(page, 'Live');
  await expect(share).toContainText('40');
  await hoverUntil(page, chart, page.getByText('(40.0%)').first());
  await ingest(request, keyHash, 2, 0, 20_000);
  await expect(share).not.toContainText('40', { timeout: 15_000 });
  await expect(page.getByText(/\(\d+(\.\d)?%\)/).first()).toBeVisible();
});

/** The statistics views (range, keys, shareable link): one team for them all, its supervisor signed up once per run. */
test.describe('statistics views', () => {
  test.describe.configure({ mode: 'serial' });
  let team: Promise<{ email: string; keyHash: string }> | null = null;
  const sharedTeam = (request: APIRequestContext, baseURL: string) => {
    team ??= (async () => {
      const email = uniqueEmail('stats-views');
      const { keyHash } = await teamWithKey(request, baseURL, email, 'supervisor11@e2e.test');
      return { email, keyHash };
    })();
    return team;
  };

  test('the URL carries the range and the list: a link opens that view, back walks the views', async ({
    page,
    request,
    baseURL,
  }) => {
    const { email } = await sharedTeam(request, baseURL as string);
    await loginInBrowser(page, email, 'stats-secret');
    const listTabs = page.getByRole('tablist', { name: 'Statistics lists' });
    const radio = (name: string) => page.getByRole('radio', { name });

    await page.goto('/statistics?range=week&list=0');
    await expect(radio('Week')).toBeChecked();
    // Every range says when it was read.
    for (const r of ['Live', 'Day', 'Month', 'Week'] as const) {
      await range(page, r);
      await expect(page.getByTestId('stats-updated')).toContainText(/Last updated \d\d:\d\d:\d\d/);
    }
    await expect(listTabs.getByRole('tab', { name: 'Active traffic' })).toHaveAttribute(
      'aria-selected',
      'true',
    );

    await page.getByRole('button', { name: 'Add list' }).click();
    await expect(page).toHaveURL(/[?&]list=1(&|$)/);
    await range(page, 'Month');
    await expect(page).toHaveURL(/range=month/);
    await expect(page).toHaveURL(/list=1/);

    await page.goBack();
    await expect(page).toHaveURL(/range=week/);
    await expect(radio('Week')).toBeChecked();
    await expect(page.getByText(MSG_STATS.noKey)).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/list=0/);
    await expect(listTabs.getByRole('tab', { name: 'Active traffic' })).toHaveAttribute(
      'aria-selected',
      'true',
    );

    // Opened afresh (as a shared link), the URL's view is shown, not the one stored.
    await page.goto('/statistics?range=live&list=1');
    await expect(radio('Live')).toBeChecked();
    await expect(listTabs.getByRole('tab', { name: /^New list/ }).first()).toHaveAttribute(
      'aria-selected',
      'true',
    );
    // Without them, the stored choices (Month, the list last chosen) are shown and written into the URL.
    await page.goto('/statistics');
    await expect(page).toHaveURL(/range=month&list=1/);
  });

  test('a signed-out person opening a statistics link lands on that view after sign-in', async ({
    page,
    request,
    baseURL,
  }) => {
    const { email } = await sharedTeam(request, baseURL as string);
    await page.goto('/statistics?range=month&list=0');
    await expect(page).toHaveURL(/\/\?next=/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('stats-secret');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/statistics\?range=month&list=0$/);
    await expect(page.getByRole('radio', { name: 'Month' })).toBeChecked();
  });

  test('Statistics is home: a sign-in with no screen to return to lands there, and so does the logo', async ({
    page,
    request,
    baseURL,
  }) => {
    const { email } = await sharedTeam(request, baseURL as string);
    await loginInBrowser(page, email, 'stats-secret', null);
    await expect(page).toHaveURL(/\/statistics(\?|$)/);
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/statistics(\?|$)/);
  });
});
