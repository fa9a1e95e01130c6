import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { linkBases, MSG, MSG_TEAMS, PATHS, PLAYER_PATHS, STORAGE_KEYS, WEB_PATHS } from '@tlprt/contract';
import Database from 'better-sqlite3';
import { E2E } from './playwright.config';
import { signUpByApi } from './support/accounts';
import { linkIn, uniqueEmail, waitForMail } from './support/mail';
import { adminWithTeam, loginInBrowser, teamWithKey } from './support/session';
import { shoot } from './support/shots';
import { ingest } from './support/traffic';

/** Spec fidelity: what each screen asks the server before it shows anything. */

/** Every API call the page makes, by method and path. */
function recordCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/auth/'))
      calls.push(`${r.method()} ${url.pathname}`);
  });
  return calls;
}

test('§1/§6 a suspended team: Add domain shows the draft view-only and asks for nothing refused', async ({
  page,
  request,
  baseURL,
}) => {
  const name = `Frozen ${Date.now().toString(36)}`;
  const email = uniqueEmail('frozen');
  const owner = await adminWithTeam(request, baseURL as string, email, 'owner-secret', name);
  const host = `frozen-${Date.now()}.e2e.test`;
  const draft = await request.post(PATHS.domains.create(owner.teamId), {
    headers: owner.auth,
    data: { url: host },
  });
  expect(draft.status()).toBe(201);

  // A supervisor suspends the team and confirms by the mailed link (over the API).
  const supervisor = 'supervisor10@e2e.test';
  const superAuth = {
    Authorization: `Bearer ${await signUpByApi(request, baseURL as string, supervisor, 'super-secret')}`,
  };
  const bases = linkBases(baseURL as string);
  const asked = Date.now();
  const suspend = await request.post(PATHS.teamLifecycle.suspend(owner.teamId), {
    headers: superAuth,
    data: { name, confirmPath: bases.suspendTeamConfirm, cancelPath: bases.suspendTeamCancel },
  });
  expect(suspend.status()).toBe(200);
  const mail = await waitForMail(supervisor, /suspension/, asked);
  const hash = linkIn(mail, '/email_event_handler/suspended-team-accept/')
    .split('/email_event_handler/suspended-team-accept/')[1]
    ?.split('?')[0] as string;
  const confirm = await request.put(PATHS.teamLifecycle.suspendConfirm, {
    headers: superAuth,
    data: { hash },
  });
  expect(confirm.status()).toBe(200);

  await loginInBrowser(page, email, 'owner-secret');
  await page.evaluate(
    ([k, v]) => localStorage.setItem(k as string, v as string),
    [STORAGE_KEYS.currentTeamId, String(owner.teamId)],
  );
  const calls = recordCalls(page);
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 403) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  for (let visit = 0; visit < 2; visit += 1) {
    await page.goto('/addDomains');
    await expect(page.getByTestId('suspended-banner')).toHaveText(new RegExp(MSG_TEAMS.teamSuspendedNotice));
    await expect(page.getByRole('textbox', { name: /Current draft/ })).toHaveValue(host);
    await expect(page.getByTestId('instructions-view-only')).toBeVisible();
    await expect(page.getByText('The instructions could not be loaded.')).toHaveCount(0);
    await expect(page.getByText(MSG.forbidden)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Verify' })).toBeDisabled();
  }
  await shoot(page, 'add-domains-suspended');
  expect(calls.filter((c) => c.includes('/domains/instructions/'))).toEqual([]);
  expect(refused).toEqual([]);

  // The other screens of the team, opened the same way, make no call that is refused either.
  for (const path of ['/integration', '/origins', '/statistics', '/settings']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForTimeout(1500);
  }
  await page.getByRole('tab', { name: 'Team settings' }).first().click();
  await page.waitForTimeout(1500);
  await expect(page.getByText(MSG.forbidden)).toHaveCount(0);
  expect(refused).toEqual([]);
});

test('§2/§7 invitation links are checked first: a dead one is "This link is expired" before any form', async ({
  page,
  request,
  baseURL,
}) => {
  const admin = await adminWithTeam(
    request,
    baseURL as string,
    uniqueEmail('inviter'),
    'admin-secret',
    'Links',
  );
  const links = linkBases(baseURL as string);
  const invitee = uniqueEmail('invitee');
  const started = Date.now();
  const inv = await request.post(PATHS.invitations.create(admin.teamId), {
    headers: admin.auth,
    data: {
      invited_email: invitee,
      role: 40,
      accept_new_user_url: links.inviteNew,
      accept_url: links.inviteOld,
      decline_url: links.inviteDecline,
      teamId: admin.teamId,
    },
  });
  expect(inv.status()).toBe(201);
  const mail = await waitForMail(invitee, /.*/, started);
  const live = linkIn(mail, '/email_invite_handler/new/');
  const hash = live.split('/email_invite_handler/new/')[1]?.split('?')[0] as string;

  // A live link: check_hash first, then the Create account form.
  const calls = recordCalls(page);
  await page.goto(live);
  await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
  expect(calls[0]).toBe(`GET /auth/guest/check_hash/${hash}`);

  // The invitation is declined: its links are dead. Neither form is shown, nothing is submitted.
  expect((await request.delete(PATHS.invitations.declineByLink(hash))).status()).toBe(200);
  for (const kind of ['new', 'old'] as const) {
    calls.length = 0;
    await page.goto(`/email_invite_handler/${kind}/${hash}?teamIdInvite=${admin.teamId}`);
    await expect(page.getByText(MSG.linkExpiredTitle)).toBeVisible();
    await expect(page.getByText(MSG.linkExpiredText)).toBeVisible();
    await expect(page.getByRole('button', { name: /Create account|Login/ })).toHaveCount(0);
    expect(calls).toEqual([`GET /auth/guest/check_hash/${hash}`]);
    if (kind === 'old') await shoot(page, 'invite-link-expired');
  }

  // Signed in, the old link is checked first too: expired, no accept call.
  const email = uniqueEmail('signed');
  await signUpByApi(request, baseURL as string, email, 'signed-secret');
  await loginInBrowser(page, email, 'signed-secret');
  calls.length = 0;
  await page.goto(`/email_invite_handler/old/${hash}?teamIdInvite=${admin.teamId}`);
  await expect(page.getByText(MSG.linkExpiredTitle)).toBeVisible();
  expect(calls).toContain(`GET /auth/guest/check_hash/${hash}`);
  expect(calls.filter((c) => c.includes(`/invitation/${hash}`))).toEqual([]);
});

test("§2 Add domain step 2: the Uppod snippet loads Uppod's own uppod.js, then the plugin", async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('uppod');
  const owner = await adminWithTeam(request, baseURL as string, email, 'owner-secret', 'Uppod Team');
  const host = `uppod-${Date.now()}.e2e.test`;
  const draft = await request.post(PATHS.domains.create(owner.teamId), {
    headers: owner.auth,
    data: { url: host },
  });
  expect(draft.status()).toBe(201);
  await loginInBrowser(page, email, 'owner-secret');
  await page.goto('/addDomains');
  await page.getByRole('tab', { name: 'Uppod', exact: true }).click();
  const snippet = page.getByText(/<script src="\/uppod\.js"><\/script>/);
  await expect(snippet).toBeVisible();
  const text = (await snippet.textContent()) ?? '';
  const sources = [...text.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]);
  expect(sources).toEqual(['/uppod.js', `${new URL(baseURL as string).origin}${PLAYER_PATHS.bundle}`]);
  expect(text).toContain('Uppod has no public CDN');
  expect(text).toContain("new Uppod({ m: 'video', uid: 'player', file: SRC })");
  await shoot(page, 'add-domains-uppod');
});

/** No call of the spec creates a key for all domains (the demo's come with its data), so the test writes
 *  one into the server's database, as data migrated from elsewhere would be. */
function insertAllDomainsKey(teamId: number, name: string): string {
  const keyHash = randomBytes(20).toString('hex');
  const db = new Database(E2E.databaseFile);
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(
      'insert into keys (team_id, domain_id, key_hash, name, status, created_at) values (?, null, ?, ?, 10, ?)',
    ).run(teamId, keyHash, name, Date.now());
  } finally {
    db.close();
  }
  return keyHash;
}

test('§3 a key for all domains (domainId null) is listed in My domains and Statistics and counts in Active traffic', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('everywhere');
  const team = await teamWithKey(request, baseURL as string, email, 'supervisor13@e2e.test');
  const everywhere = insertAllDomainsKey(team.teamId, 'Everywhere');
  // 6 kB from the CDN on the domain's key, 4 kB from peers on the key for all domains: 40% P2P only
  // if both are counted.
  await ingest(request, team.keyHash, 1, 6000, 0);
  await ingest(request, everywhere, 1, 0, 4000);

  await loginInBrowser(page, email, 'stats-secret');
  await page.goto(WEB_PATHS.integration);
  const group = page.getByRole('region', { name: 'All domains' });
  const table = group.getByRole('table', { name: 'Keys of All domains' });
  await expect(table).toContainText(everywhere);
  await expect(table.getByRole('textbox')).toHaveValue('Everywhere');
  await shoot(page, 'my-domains-all-domains');

  await page.goto(WEB_PATHS.statistics);
  await expect(page.getByRole('button', { name: /All domains/ })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Everywhere' })).toBeChecked();
  await expect(page.getByLabel('P2P share', { exact: true })).toContainText('40');
  await shoot(page, 'statistics-all-domains');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'statistics-all-domains-dark');
});
