import { expect, type Page, test } from '@playwright/test';
import { MSG_TEAMS, PATHS } from '@tlprt/contract';
import { signUpByApi } from './support/accounts';
import { uniqueEmail } from './support/mail';
import {
  addMemberByApi,
  adminWithTeam,
  inviteByApi,
  loginInBrowser,
  supervisorInPickedTeam,
} from './support/session';
import { shoot } from './support/shots';

/** Spec fidelity: Settings' invitations block and Team settings' members and deletion. */

async function openTeamSettings(page: Page) {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Team settings' }).first().click();
  await expect(page.getByText('Team info')).toBeVisible();
}

test('§2 Accept leads to "Congratulations! ... Do you want to see this team?" with Later and "Get me there!"', async ({
  page,
  request,
  baseURL,
}) => {
  const name = `Joined ${Date.now().toString(36)}`;
  const owner = await adminWithTeam(request, baseURL as string, uniqueEmail('inviter'), 'owner-secret', name);
  const email = uniqueEmail('invitee');
  await signUpByApi(request, baseURL as string, email, 'invitee-secret');
  await inviteByApi(page.request, baseURL as string, owner, email);

  await loginInBrowser(page, email, 'invitee-secret');
  await page.goto('/settings');
  const card = page.locator(`[aria-label="Invitation to ${name}"]`);
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(card.getByText(MSG_TEAMS.inviteCongratsTitle)).toBeVisible();
  await expect(card.getByText(MSG_TEAMS.inviteCongratsText, { exact: false })).toBeVisible();
  await expect(card.getByRole('button', { name: MSG_TEAMS.inviteLater })).toBeVisible();
  // The card stays while the joined team arrives (session and live events refresh the page around it).
  await page.waitForTimeout(1500);
  await expect(card.getByText(MSG_TEAMS.inviteCongratsTitle)).toBeVisible();
  await shoot(page, 'invitation-accepted');

  await card.getByRole('button', { name: MSG_TEAMS.inviteGo }).click();
  await expect(page.getByRole('tab', { name: 'Team settings', selected: true }).first()).toBeVisible();
  await expect(page.getByLabel('Team name')).toHaveValue(name);
});

test('§2 manage members: a pending invitee is listed once, as invited', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('members-admin');
  const owner = await adminWithTeam(request, baseURL as string, email, 'owner-secret', 'Once Team');
  const invitee = uniqueEmail('pending');
  await inviteByApi(page.request, baseURL as string, owner, invitee, 30);

  await loginInBrowser(page, email, 'owner-secret');
  await openTeamSettings(page);
  const list = page.getByRole('list', { name: 'Team members' });
  await expect(list.getByText(invitee)).toHaveCount(1);
  await expect(list.getByRole('listitem').filter({ hasText: invitee })).toContainText(MSG_TEAMS.invited);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByLabel(`Role of ${invitee}`)).toHaveCount(0);
  await shoot(page, 'members-invited-once');
});

test('§6 role dropdown: a Billing master member is offered only Admin, Key master, Viewer', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('billing-admin');
  const owner = await adminWithTeam(request, baseURL as string, email, 'owner-secret', 'Billing Team');
  const billing = uniqueEmail('billing');
  // No call makes a Billing master (invitations and set_role never offer 20): the member joins as a
  // Viewer and the team's answer is changed on its way to the browser so that member is a Billing
  // master, as the spec's roles allow.
  await addMemberByApi(request, baseURL as string, owner, billing, 'billing-secret');
  await page.route(`**${PATHS.teams.read(owner.teamId)}`, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: { users: { email: string; roles: number }[] } };
    for (const u of body.data.users) if (u.email === billing) u.roles = 20;
    await route.fulfill({ response: res, json: body });
  });

  await loginInBrowser(page, email, 'owner-secret');
  await openTeamSettings(page);
  const select = page.getByLabel(`Role of ${billing}`);
  await expect(select).toBeEnabled();
  // The current value stays Billing master (nothing changes until a role is picked) ...
  await expect(select.locator('option:checked')).toHaveText('Billing master');
  // ... and the list offers only the three roles of the spec.
  const offered = await select
    .locator('option')
    .evaluateAll((os) => os.filter((o) => !(o as HTMLOptionElement).hidden).map((o) => o.textContent));
  expect(offered).toEqual(['Admin', 'Key master', 'Viewer']);
  await shoot(page, 'members-billing-master');
});

test('§6 a supervisor working in a picked team (acting as 50, not a member) has no Delete team', async ({
  page,
  request,
  baseURL,
}) => {
  await supervisorInPickedTeam(page, request, baseURL as string, 'supervisor8@e2e.test', 'NoDelete');

  await openTeamSettings(page);
  await expect(page.getByRole('button', { name: 'Suspend team' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete team' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Delete team' })).toHaveCount(0);
  await shoot(page, 'supervisor-picked-team');
});
