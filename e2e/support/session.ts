import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { linkBases, MSG_TEAM_MANAGEMENT, PATHS, ZDomainListResponse } from '@tlprt/contract';
import { signInOrUpByApi, signUpByApi } from './accounts';
import { linkIn, uniqueEmail, waitForMail } from './mail';

/** Signs in through the login screen and waits for the dashboard at `next` (Settings unless told; null:
 *  where login leads by itself, the last screen or Statistics). */
export async function loginInBrowser(
  page: Page,
  email: string,
  password: string,
  next: string | null = '/settings',
) {
  await page.goto(next === null ? '/' : `/?${new URLSearchParams({ next })}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  // Until sign-in ends the page is the login screen, its `next` included.
  await expect(page).not.toHaveURL(/\/(\?.*)?$/);
}

/** A signed-up user with a team of their own (Admin), made through the real API. */
export async function adminWithTeam(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  password: string,
  teamName: string,
) {
  const token = await signUpByApi(request, baseURL, email, password);
  const auth = { Authorization: `Bearer ${token}` };
  const res = await request.post(PATHS.teams.create, { headers: auth, data: { name: teamName } });
  expect(res.status()).toBe(201);
  const team = ((await res.json()) as { data: { id: number } }).data;
  return { token, auth, teamId: team.id };
}

/** Invites `email` to a team over the API; returns the invitation mail once it has arrived. */
export async function inviteByApi(
  request: APIRequestContext,
  baseURL: string,
  admin: { auth: Record<string, string>; teamId: number },
  email: string,
  role = 40,
) {
  const links = linkBases(baseURL);
  const started = Date.now();
  const inv = await request.post(PATHS.invitations.create(admin.teamId), {
    headers: admin.auth,
    data: {
      invited_email: email,
      role,
      accept_new_user_url: links.inviteNew,
      accept_url: links.inviteOld,
      decline_url: links.inviteDecline,
      teamId: admin.teamId,
    },
  });
  expect(inv.status()).toBe(201);
  return waitForMail(email, /.*/, started);
}

/** Invites `email` to a team and accepts through the mailed new-user link, all over the API. */
export async function addMemberByApi(
  request: APIRequestContext,
  baseURL: string,
  admin: { auth: Record<string, string>; teamId: number },
  email: string,
  password: string,
  role = 40,
) {
  const mail = await inviteByApi(request, baseURL, admin, email, role);
  const hash = (
    linkIn(mail, '/email_invite_handler/new/').split('/email_invite_handler/new/')[1] as string
  ).split('?')[0] as string;
  const accept = await request.put(PATHS.invitations.acceptByLink(hash), {
    data: { name: 'Member', surname: 'Person', password, confirm: password },
  });
  expect(accept.status()).toBe(200);
}

/** A supervisor (signed up here) picks a new customer's team in Team Management and makes it current. */
export async function supervisorInPickedTeam(
  page: Page,
  request: APIRequestContext,
  baseURL: string,
  supervisor: string,
  teamPrefix: string,
) {
  await signUpByApi(request, baseURL, supervisor, 'supervisor-secret');
  const ownerEmail = uniqueEmail(teamPrefix.toLowerCase());
  const name = `${teamPrefix} ${Date.now().toString(36)}`;
  await adminWithTeam(request, baseURL, ownerEmail, 'owner-secret', name);

  await loginInBrowser(page, supervisor, 'supervisor-secret');
  await page.getByRole('button', { name: MSG_TEAM_MANAGEMENT.title }).click();
  const panel = page.getByRole('dialog', { name: MSG_TEAM_MANAGEMENT.title });
  await panel.getByPlaceholder(MSG_TEAM_MANAGEMENT.searchPlaceholder).fill(ownerEmail);
  await expect(panel.getByTestId('team-total')).toHaveText('1 team');
  await panel.getByRole('button', { name: `Make ${name} the current team` }).click();
  await expect(page.getByRole('button', { name: `Current team: ${name}. Switch team` })).toBeVisible();
  return { ownerEmail, name };
}

/** Picks an option of a labelled select, whether native or a Mantine combobox. */
export async function chooseOption(page: Page, field: Locator, option: string) {
  const tag = await field.evaluate((el) => el.tagName.toLowerCase());
  if (tag === 'select') {
    await field.selectOption({ label: option });
    return;
  }
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A team with one verified (by a supervisor's bypass), promoted domain and one key, made through the
 *  real API. Each spec has a supervisor e-mail of its own; a retried spec signs it in again. */
export async function teamWithKey(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  supervisorEmail: string,
) {
  const admin = await adminWithTeam(request, baseURL, email, 'stats-secret', 'Stats Team');
  const superToken = await signInOrUpByApi(request, baseURL, supervisorEmail, 'super-secret');
  const host = `stats-${Date.now()}.e2e.test`;
  const created = await request.post(PATHS.domains.create(admin.teamId), {
    headers: admin.auth,
    data: { url: host },
  });
  expect(created.status()).toBe(201);
  const domainId = ((await created.json()) as { data: { id: number } }).data.id;
  const bypass = await request.put(PATHS.domains.verify(admin.teamId, domainId), {
    headers: { Authorization: `Bearer ${superToken}` },
    data: { verificationMethod: 5 },
  });
  expect(bypass.status()).toBe(200);
  expect(
    (await request.get(PATHS.domains.promote(admin.teamId, domainId), { headers: admin.auth })).status(),
  ).toBe(200);
  const key = await request.post(PATHS.keys.create(admin.teamId, domainId), {
    headers: admin.auth,
    data: { name: 'Player' },
  });
  expect(key.status()).toBe(201);
  const list = ZDomainListResponse.parse(
    await (await request.post(PATHS.domains.list(admin.teamId), { headers: admin.auth, data: {} })).json(),
  );
  return { ...admin, keyHash: list.verified[0]?.keys[0]?.keyHash as string };
}
