import { expect, test } from '@playwright/test';
import { MSG_TEAMS, MSG_TOKENS, PATHS, TEAM_TOKEN_PATTERN } from '@tlprt/contract';
import { linkIn, uniqueEmail, waitForMail } from './support/mail';
import { addMemberByApi, adminWithTeam, chooseOption, loginInBrowser } from './support/session';

test('invite → new-user link → account; the role change and the removal reach the other browser live', async ({
  browser,
  request,
  baseURL,
}) => {
  const adminEmail = uniqueEmail('admin');
  const memberEmail = uniqueEmail('member');
  await adminWithTeam(request, baseURL as string, adminEmail, 'admin-secret', 'Live Team');

  const adminCtx = await browser.newContext();
  const memberCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  const member = await memberCtx.newPage();

  await loginInBrowser(admin, adminEmail, 'admin-secret');
  await admin.goto('/settings');
  await admin.getByRole('tab', { name: 'Team settings' }).first().click();
  const started = Date.now();
  await admin.getByLabel('E-mail', { exact: true }).fill(memberEmail);
  await admin.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(admin.getByText(MSG_TEAMS.inviteSent)).toBeVisible();
  await expect(admin.getByText(MSG_TEAMS.invited).first()).toBeVisible();

  const mail = await waitForMail(memberEmail, /.*/, started);
  await member.goto(linkIn(mail, '/email_invite_handler/new/'));
  await member.getByLabel('Name', { exact: true }).fill('Grace');
  await member.getByLabel('Last name', { exact: true }).fill('Hopper');
  await member.getByLabel('New password', { exact: true }).fill('member-secret');
  await member.getByLabel('Confirm new password', { exact: true }).fill('member-secret');
  await member.getByRole('button', { name: 'Create account' }).click();
  await expect(member).toHaveURL(/\/settings\/?$/);
  await expect(member.getByText('Live Team').first()).toBeVisible();
  await member.waitForTimeout(1000); // the member's live stream connects

  await admin.reload();
  await admin.getByRole('tab', { name: 'Team settings' }).first().click();
  await chooseOption(admin, admin.getByLabel(`Role of ${memberEmail}`), 'Key master');
  await expect(member.getByText(MSG_TEAMS.evRoleChangedTitle)).toBeVisible();
  await member.getByRole('button', { name: /^(OK|Ok)$/ }).click();

  await admin.getByRole('button', { name: `Remove ${memberEmail}` }).click();
  await admin.getByRole('button', { name: 'Confirm' }).click();
  await expect(member.getByText(MSG_TEAMS.evRemovedTitle)).toBeVisible();

  await adminCtx.close();
  await memberCtx.close();
});

test('team deletion is confirmed from the e-mail link', async ({ page, request, baseURL }) => {
  const email = uniqueEmail('deleter');
  await adminWithTeam(request, baseURL as string, email, 'delete-secret', 'Doomed Team');
  await loginInBrowser(page, email, 'delete-secret');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Team settings' }).first().click();
  const started = Date.now();
  await page.getByRole('button', { name: 'Delete team' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('Required field')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill('wrong-password');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('Incorrect password')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill('delete-secret');
  await dialog.getByRole('button', { name: 'Confirm' }).click();

  const mail = await waitForMail(email, /.*/, started);
  await page.goto(linkIn(mail, '/email_event_handler/delete-team-accept/'));
  await expect(page.getByText(MSG_TEAMS.teamDeletedByLink)).toBeVisible();
  await page.goto('/settings');
  await expect(page.getByText('Doomed Team')).toHaveCount(0);
});

test('a sole admin of a team with members cannot delete the account', async ({ page, request, baseURL }) => {
  const email = uniqueEmail('sole');
  const admin = await adminWithTeam(request, baseURL as string, email, 'sole-secret', 'Busy Team');
  await addMemberByApi(request, baseURL as string, admin, uniqueEmail('colleague'), 'colleague-secret');
  await loginInBrowser(page, email, 'sole-secret');
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByText(MSG_TEAMS.soleAdminText)).toBeVisible();
  await expect(page.getByRole('dialog').getByText('Busy Team')).toBeVisible();
});

test('an admin creates an API token, sees it once, then revokes it', async ({
  page,
  request,
  baseURL,
  context,
}) => {
  const email = uniqueEmail('tokens');
  const admin = await adminWithTeam(request, baseURL as string, email, 'tokens-secret', 'Reporting Team');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await loginInBrowser(page, email, 'tokens-secret');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Team settings' }).first().click();
  const card = page.getByRole('region', { name: MSG_TOKENS.title });
  await expect(card.getByText(MSG_TOKENS.empty)).toBeVisible();

  // Keyboard only: the name field, then Enter submits.
  await card.getByLabel(MSG_TOKENS.nameLabel).fill('Encoder EU');
  await card.getByLabel(MSG_TOKENS.nameLabel).press('Enter');
  const dialog = page.getByRole('dialog', { name: MSG_TOKENS.createdTitle });
  await expect(dialog.getByText(MSG_TOKENS.shownOnce)).toBeVisible();
  const token = (await dialog.locator('code').innerText()).trim();
  expect(token).toMatch(TEAM_TOKEN_PATTERN);
  await dialog.getByRole('button', { name: /^Copy/ }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // Shown once: the list (and a reload) hold the name, never the secret.
  await expect(card.getByText('Encoder EU')).toBeVisible();
  await expect(card.getByText(MSG_TOKENS.neverUsed, { exact: false })).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: 'Team settings' }).first().click();
  await expect(card.getByText('Encoder EU')).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);
  const listed = await request.get(PATHS.teamTokens.list(admin.teamId), { headers: admin.auth });
  expect(await listed.text()).not.toContain(token.slice(10));

  await card.getByRole('button', { name: 'Revoke Encoder EU' }).click();
  const confirm = page.getByRole('dialog', { name: MSG_TOKENS.revokeTitle });
  await confirm.getByRole('button', { name: MSG_TOKENS.revoke }).click();
  await expect(card.getByText(MSG_TOKENS.empty)).toBeVisible();
  await expect(card.getByText('Encoder EU')).toHaveCount(0);
});
