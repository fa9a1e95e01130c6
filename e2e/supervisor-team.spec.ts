import { expect, test } from '@playwright/test';
import { AUDIT_ACTION_LABELS, MSG_TEAM_MANAGEMENT, MSG_TEAMS } from '@tlprt/contract';
import { linkIn, waitForMail } from './support/mail';
import { supervisorInPickedTeam } from './support/session';

/**
 * A supervisor with no team of their own picks a customer's team in Team Management and works
 * in it: its Team settings (members read-only), suspension through the e-mail link and back, Statistics.
 */
test('supervisor without teams: picked team settings, suspend by e-mail link, unsuspend, statistics', async ({
  page,
  request,
  baseURL,
}) => {
  const supervisor = 'supervisor5@e2e.test';
  const { ownerEmail, name } = await supervisorInPickedTeam(
    page,
    request,
    baseURL as string,
    supervisor,
    'Picked',
  );

  // Team settings of the picked team: members read-only, suspension offered.
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Team settings' }).first().click();
  await expect(page.getByTestId('members-read-only')).toHaveText(MSG_TEAMS.membersReadOnly);
  await expect(page.getByLabel(`Role of ${ownerEmail}`)).toBeDisabled();
  await expect(page.getByLabel('Version')).toBeEnabled();

  // Suspend: the confirmation link is mailed to the supervisor and confirmed in the browser.
  const asked = Date.now();
  await page.getByRole('button', { name: 'Suspend team' }).click();
  const modal = page.getByRole('dialog', { name: 'Suspend team' });
  await modal.getByLabel('Team name').fill(name);
  await modal.getByRole('button', { name: 'Confirm' }).click();
  const mail = await waitForMail(supervisor, /suspension/, asked);
  await page.goto(linkIn(mail, '/email_event_handler/suspended-team-accept/'));
  await expect(page.getByText(MSG_TEAMS.teamSuspendedByLink)).toBeVisible();

  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Team settings' }).first().click();
  await expect(page.getByTestId('suspended-banner')).toBeVisible();
  await page.getByRole('button', { name: 'Unsuspend team' }).click();
  const back = page.getByRole('dialog', { name: 'Unsuspend team' });
  await back.getByLabel('Team name').fill(name);
  await back.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('suspended-banner')).toBeHidden();

  // The team's history in Team Management says who suspended and unsuspended it (docs/DESIGN.md §12).
  await page.getByRole('button', { name: MSG_TEAM_MANAGEMENT.title }).click();
  const again = page.getByRole('dialog', { name: MSG_TEAM_MANAGEMENT.title });
  await again.getByPlaceholder(MSG_TEAM_MANAGEMENT.searchPlaceholder).fill(ownerEmail);
  await expect(again.getByTestId('team-total')).toHaveText('1 team');
  await again.getByRole('button', { name: `History of ${name}` }).click();
  const history = page.getByRole('dialog', { name: `${MSG_TEAM_MANAGEMENT.history}: ${name}` });
  await expect(history.getByText(AUDIT_ACTION_LABELS['team.unsuspended'], { exact: true })).toBeVisible();
  await expect(history.getByText(AUDIT_ACTION_LABELS['team.suspended'], { exact: true })).toBeVisible();
  await expect(history.getByText(supervisor).first()).toBeVisible();
  if (process.env.SHOTS) {
    for (const [w, h] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `screenshots/team-history-${w}x${h}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  // Statistics of the picked team are in the sidebar and open.
  await page.getByRole('link', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(/\/statistics(\?.*)?$/);
  await expect(page.getByRole('heading', { name: 'Statistics' })).toBeVisible();
  // The customer has no verified domain yet: the screen says so for this team (not a redirect).
  await expect(page.getByText('No verified domain yet')).toBeVisible();
});
