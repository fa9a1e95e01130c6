import { expect, type Page, test } from '@playwright/test';
import {
  MSG_DOMAINS,
  PATHS,
  STORAGE_KEYS,
  type TDomainListResponse,
  ZDomainListResponse,
} from '@tlprt/contract';
import { startTestDns, type TestDns } from '../apps/server/test/helpers/dns-server';
import { startTestSite, type TestSite } from '../apps/server/test/helpers/http-site';
import { E2E } from './playwright.config';
import { signUpByApi } from './support/accounts';
import { uniqueEmail } from './support/mail';
import { adminWithTeam, loginInBrowser } from './support/session';

// The dashboard server resolves and fetches customer sites through these (playwright.config.ts env):
// a real DNS server and a real web site on this machine.
let dns: TestDns;
let site: TestSite;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  dns = await startTestDns({}, E2E.dnsPort);
  site = await startTestSite(E2E.sitePort);
});
test.afterAll(async () => {
  await dns?.close();
  await site?.close();
});

async function domainsOf(page: Page, teamId: number): Promise<TDomainListResponse> {
  const token = await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.token);
  const res = await page.request.post(PATHS.domains.list(teamId), {
    headers: { Authorization: `Bearer ${token}` },
    data: {},
  });
  expect(res.status()).toBe(200);
  return ZDomainListResponse.parse(await res.json());
}

async function addDraft(page: Page, typed: string, host: string) {
  await page.goto('/addDomains');
  await page.getByLabel('Domain', { exact: true }).fill(typed);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByRole('textbox', { name: /Current draft/ })).toHaveValue(host);
}

test('add a domain, verify it by META against a local site, promote it, then manage a key', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('domains');
  const { teamId } = await adminWithTeam(request, baseURL as string, email, 'domain-secret', 'Site Owners');
  const host = `shop-${Date.now()}.e2e.test`;
  dns.set(host, { A: ['127.0.0.1'] });
  await loginInBrowser(page, email, 'domain-secret');

  await addDraft(page, `https://www.${host}/some/path`, host);
  // A wrong page first: the check fails with the spec's text.
  site.route('/', { body: '<html><head><title>shop</title></head><body>no tag</body></html>' });
  await page.getByRole('tab', { name: 'META' }).click();
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText(MSG_DOMAINS.verificationFailed)).toBeVisible();

  const draft = (await domainsOf(page, teamId)).drafts.find((d) => d.url === host);
  expect(draft).toBeDefined();
  site.route('/', {
    body: `<html><head><meta name="tlprt-verification" content="${draft?.verificationHash}"></head><body>shop</body></html>`,
  });
  await page.getByRole('button', { name: MSG_DOMAINS.tryAgain }).click();
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText(MSG_DOMAINS.verified)).toBeVisible();
  await expect(page.getByText(MSG_DOMAINS.draftVerified)).toBeVisible();
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect.poll(async () => (await domainsOf(page, teamId)).verified.length).toBe(1);

  await page.goto('/integration');
  await page.getByRole('button', { name: `Domain ${host}`, exact: true }).click();
  await page.getByRole('button', { name: 'Generate new token' }).first().click();
  await expect.poll(async () => (await domainsOf(page, teamId)).verified[0]?.keys.length ?? 0).toBe(1);
  const key = (await domainsOf(page, teamId)).verified[0]?.keys[0];
  const keyHash = key?.keyHash as string;

  const name = page.getByLabel(`Key name ${keyHash}`);
  await name.fill('Main player');
  await name.press('Enter');
  await expect
    .poll(async () => (await domainsOf(page, teamId)).verified[0]?.keys[0]?.name)
    .toBe('Main player');

  // The switch input is drawn over by its track; the click lands on the track, as a person's would.
  await page.getByLabel(`Active ${keyHash}`).click({ force: true });
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(async () => (await domainsOf(page, teamId)).verified[0]?.keys[0]?.status).toBe(20);

  await page.getByRole('button', { name: `Delete key ${keyHash}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeDisabled();
  await dialog.getByLabel('Key', { exact: true }).fill(keyHash.slice(0, -1));
  await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeDisabled();
  await dialog.getByLabel('Key', { exact: true }).fill(keyHash);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(async () => (await domainsOf(page, teamId)).verified[0]?.keys.length).toBe(0);
});

test('a supervisor bypasses verification, suspends a domain (keys deactivated) and unsuspends it (restored)', async ({
  page,
  request,
  baseURL,
}) => {
  const owner = await adminWithTeam(
    request,
    baseURL as string,
    uniqueEmail('owner'),
    'owner-secret',
    'Watched Team',
  );
  await signUpByApi(request, baseURL as string, 'supervisor2@e2e.test', 'super-secret');
  await loginInBrowser(page, 'supervisor2@e2e.test', 'super-secret');
  await page.evaluate(
    ([k, v]) => localStorage.setItem(k as string, v as string),
    [STORAGE_KEYS.currentTeamId, String(owner.teamId)],
  );

  const host = `bypass-${Date.now()}.e2e.test`;
  await addDraft(page, host, host);
  await page.getByRole('button', { name: 'Verify manually' }).click();
  await expect(page.getByText(MSG_DOMAINS.bypassConfirm)).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText(MSG_DOMAINS.draftVerified)).toBeVisible();
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect.poll(async () => (await domainsOf(page, owner.teamId)).verified.length).toBe(1);

  await page.goto('/integration');
  await page.getByRole('button', { name: `Domain ${host}`, exact: true }).click();
  await page.getByRole('button', { name: 'Generate new token' }).first().click();
  await expect.poll(async () => (await domainsOf(page, owner.teamId)).verified[0]?.keys[0]?.status).toBe(10);

  await page.getByRole('button', { name: `Suspend domain ${host}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(async () => (await domainsOf(page, owner.teamId)).verified[0]?.suspended).toBe(1);
  expect((await domainsOf(page, owner.teamId)).verified[0]?.keys[0]?.status).toBe(20);

  await page.getByRole('button', { name: `Unsuspend domain ${host}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(async () => (await domainsOf(page, owner.teamId)).verified[0]?.keys[0]?.status).toBe(10);
});

test('the "Plain HTTP pages" option: switched by keyboard, it opens http:// pages to the key; off asks first', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('plainhttp');
  const owner = await adminWithTeam(request, baseURL as string, email, 'plain-secret', 'Plain Pages');
  const host = `plain-${Date.now()}.e2e.test`;
  dns.set(host, { A: ['127.0.0.1'] });
  // A verified, promoted domain with a key, over the API (the META check against the local site).
  const created = await request.post(PATHS.domains.create(owner.teamId), {
    headers: owner.auth,
    data: { url: host },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { data: { id: number } }).data.id;
  const list = await request.post(PATHS.domains.list(owner.teamId), { headers: owner.auth, data: {} });
  const hash = ZDomainListResponse.parse(await list.json()).drafts.find((d) => d.id === id)?.verificationHash;
  site.route('/', { body: `<html><head><meta name="tlprt-verification" content="${hash}"></head></html>` });
  const verify = { headers: owner.auth, data: { verificationMethod: 4, inx: 0 } };
  expect((await request.put(PATHS.domains.verify(owner.teamId, id), verify)).status()).toBe(200);
  expect((await request.get(PATHS.domains.promote(owner.teamId, id), { headers: owner.auth })).status()).toBe(
    200,
  );
  const keyRes = await request.post(PATHS.keys.create(owner.teamId, id), { headers: owner.auth, data: {} });
  expect(keyRes.status()).toBe(201);
  const keyHash = ((await keyRes.json()) as { data: { keyHash: string } }).data.keyHash;
  /** What a player on `origin` gets when it reads its key's settings. */
  const settingsFrom = async (origin: string) =>
    (await request.get(PATHS.keySettings.publicRead(keyHash), { headers: { Origin: origin } })).status();

  await loginInBrowser(page, email, 'plain-secret');
  await page.goto('/integration');
  await page.getByRole('button', { name: `Domain ${host}`, exact: true }).click();
  const option = page.getByRole('switch', { name: `${MSG_DOMAINS.plainHttpLabel} of ${host}` });
  await expect(option).not.toBeChecked();
  await expect(page.getByText(MSG_DOMAINS.plainHttpHelp)).toBeVisible();
  expect(await settingsFrom(`https://${host}`)).toBe(200);
  expect(await settingsFrom(`https://${host}:8443`)).toBe(404);

  await option.focus();
  await page.keyboard.press('Space');
  await expect.poll(async () => (await domainsOf(page, owner.teamId)).verified[0]?.plainHttp).toBe(true);
  await expect(option).toBeChecked();
  // The public side sees it within the Origin rule's cache time (5 s).
  await expect.poll(() => settingsFrom(`http://${host}`), { timeout: 8000 }).toBe(200);
  expect(await settingsFrom(`http://${host}:8080`)).toBe(404);

  await option.focus();
  await page.keyboard.press('Space');
  const dialog = page.getByRole('dialog', { name: MSG_DOMAINS.plainHttpOffTitle });
  await expect(dialog).toContainText(MSG_DOMAINS.plainHttpOffConfirm(host));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(async () => (await domainsOf(page, owner.teamId)).verified[0]?.plainHttp).toBe(false);
  await expect(option).not.toBeChecked();
  await expect(option).toBeFocused();
  await expect.poll(() => settingsFrom(`http://${host}`), { timeout: 8000 }).toBe(404);
});
