import { expect, test } from '@playwright/test';
import { MSG_TEAM_MANAGEMENT, PATHS, STORAGE_KEYS } from '@tlprt/contract';
import { signUpByApi } from './support/accounts';
import { uniqueEmail } from './support/mail';
import { adminWithTeam, loginInBrowser } from './support/session';

/** A supervisor finds a customer among every team, tags and stars it, and works in it. */
test('supervisor: search by e-mail, filters, tag, star, table view, next page, make current', async ({
  page,
  request,
  baseURL,
}) => {
  // The e2e server lists supervisor@e2e.test in SUPERVISOR_EMAILS: the account is flagged at sign-up.
  await signUpByApi(request, baseURL as string, 'supervisor@e2e.test', 'supervisor-secret');
  const ownerEmail = uniqueEmail('customer');
  const stamp = Date.now().toString(36);
  const owner = await adminWithTeam(
    request,
    baseURL as string,
    ownerEmail,
    'owner-secret',
    `Cust ${stamp} 0`,
  );
  for (let i = 1; i < 12; i++) {
    const r = await request.post(PATHS.teams.create, {
      headers: owner.auth,
      data: { name: `Cust ${stamp} ${i}` },
    });
    expect(r.status()).toBe(201);
  }

  await loginInBrowser(page, 'supervisor@e2e.test', 'supervisor-secret');
  await page.getByRole('button', { name: MSG_TEAM_MANAGEMENT.title }).click();
  const panel = page.getByRole('dialog', { name: MSG_TEAM_MANAGEMENT.title });
  await expect(panel).toBeVisible();

  // Search by a member's e-mail: the owner's 12 teams, 10 cards on the first page.
  // (Waits for the debounced search itself: alone on a fresh database the unfiltered list is 12 too.)
  const searched = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/teams') && (r.request().postData() ?? '').includes(ownerEmail),
  );
  await panel.getByPlaceholder(MSG_TEAM_MANAGEMENT.searchPlaceholder).fill(ownerEmail);
  await searched;
  await expect(panel.getByTestId('team-total')).toHaveText('12 teams');
  const cards = panel.getByTestId(/^team-card-/);
  await expect(cards).toHaveCount(10);

  // Scrolling to the end loads the next page.
  await panel.getByTestId('team-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(cards).toHaveCount(12);

  // Status: none of them is suspended; all are active.
  await panel.getByRole('button', { name: /^Status filter/ }).click();
  await page.getByRole('checkbox', { name: 'Suspended' }).check();
  await expect(panel.getByText(MSG_TEAM_MANAGEMENT.noTeamsFound)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Active' }).check();
  await page.getByRole('checkbox', { name: 'Suspended' }).uncheck();
  // Escape closes the open filter pop-up, not the panel.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('checkbox', { name: 'Suspended' })).toBeHidden();
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('team-total')).toHaveText('12 teams');

  // Creation date: all were made today.
  await panel.getByRole('button', { name: /^Creation date filter/ }).click();
  await page.getByRole('button', { name: 'Today', exact: true }).click();
  await expect(panel.getByRole('button', { name: 'Creation date filter: Today' })).toBeVisible();
  await expect(panel.getByTestId('team-total')).toHaveText('12 teams');
  await panel.getByRole('button', { name: /^Creation date filter/ }).click();
  await expect(page.getByRole('group', { name: 'Creation date' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('group', { name: 'Creation date' })).toBeHidden();
  await expect(panel).toBeVisible();
  // With no pop-up open, Escape closes the panel; reopened, it keeps its search and filters.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.getByRole('button', { name: MSG_TEAM_MANAGEMENT.title }).click();
  await expect(panel.getByTestId('team-total')).toHaveText('12 teams');
  await expect(panel.getByRole('button', { name: 'Creation date filter: Today' })).toBeVisible();

  // Tag the first team, then find it by that tag.
  const first = cards.first();
  const name = (await first.getByRole('button', { name: /^Make .* the current team$/ }).innerText()).trim();
  const tag = `key-account-${stamp}`;
  await first.getByRole('textbox', { name: `Add a tag to ${name}` }).fill(tag);
  await first.getByRole('textbox', { name: `Add a tag to ${name}` }).press('Enter');
  await expect(first.getByText(tag)).toBeVisible();
  await panel.getByRole('button', { name: MSG_TEAM_MANAGEMENT.clearFilters }).click();
  await panel.getByPlaceholder(MSG_TEAM_MANAGEMENT.searchPlaceholder).fill(tag);
  await expect(panel.getByTestId('team-total')).toHaveText('1 team');

  // Star it; the favourites filter shows it.
  await panel.getByRole('button', { name: `Add ${name} to favourites` }).click();
  await expect(panel.getByRole('button', { name: `Remove ${name} from favourites` })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await panel.getByPlaceholder(MSG_TEAM_MANAGEMENT.searchPlaceholder).fill('');
  await panel.getByRole('button', { name: 'Favourites only' }).click();
  await expect(panel.getByTestId('team-total')).toHaveText('1 team');

  // The table form.
  await panel.getByText('Table', { exact: true }).click();
  const row = panel.getByRole('row').filter({ hasText: tag });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('team-name')).toHaveText(name);

  // Clicking the team makes it current and reloads.
  await row.getByRole('button', { name: `Make ${name} the current team` }).click();
  await expect(page.getByRole('button', { name: `Current team: ${name}. Switch team` })).toBeVisible();
  const stored = await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.currentTeamId);
  expect(Number(stored)).toBeGreaterThan(0);
});
