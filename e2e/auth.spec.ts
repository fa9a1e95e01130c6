import { expect, test } from '@playwright/test';
import { MSG } from '@tlprt/contract';
import { signUpByApi } from './support/accounts';
import { linkIn, uniqueEmail, waitForMail } from './support/mail';

test('a new user signs up, follows the mailed link, sets a password, creates the account and lands on settings', async ({
  page,
}) => {
  const email = uniqueEmail('signup');
  const started = Date.now();
  await page.goto('/register');
  await expect(page.getByText(MSG.registerTitle)).toBeVisible();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/pendingRegistration$/);

  const mail = await waitForMail(email, /.*/, started);
  expect(mail.text).toContain('support@e2e.test');
  await page.goto(linkIn(mail, '/createPassword/'));
  await page.getByLabel('New password', { exact: true }).fill('first-secret');
  await page.getByLabel('Confirm new password', { exact: true }).fill('first-secret');
  await page.getByRole('button', { name: 'Submit' }).click();

  await expect(page).toHaveURL(/\/createAccount$/);
  await page.getByLabel('Name', { exact: true }).fill('Ada');
  await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
  await page.getByLabel('Workspace name', { exact: true }).fill('Analytical Engines');
  await page.getByRole('button', { name: 'Start' }).click();

  await expect(page).toHaveURL(/\/settings\/?$/);
  await expect(page.getByText('Analytical Engines').first()).toBeVisible();

  // The link was single-use: opening it again shows the expired page.
  await page.goto(linkIn(mail, '/createPassword/'));
  await expect(page.getByText(MSG.linkExpiredTitle)).toBeVisible();
});

test('the create-account form and register form validate as the spec says', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('E-mail').fill('not-an-email');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(MSG.invalidEmailLower)).toBeVisible();
  await page.getByRole('checkbox').first().uncheck();
  await expect(page.getByRole('button', { name: 'Create account' })).toBeDisabled();
});

test('forgot password: the reset link sets a new password, the old one stops working', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('reset');
  await signUpByApi(request, baseURL as string, email, 'old-secret');

  const started = Date.now();
  await page.goto('/forgotPassword');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/passwordRecovery$/);

  const mail = await waitForMail(email, /.*/, started);
  await page.goto(linkIn(mail, '/resPassword/'));
  await expect(page.getByText(MSG.resetTitle).first()).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('new-secret');
  await page.getByLabel('Confirm new password', { exact: true }).fill('other-secret');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(MSG.passwordsDoNotMatch)).toBeVisible();
  await page.getByLabel('Confirm new password', { exact: true }).fill('new-secret');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/settings\/?$/);

  await page.getByRole('button', { name: 'Logout' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  // The URL changes before the sign-in screen's code has loaded; until then the settings page (with its
  // own E-mail fields) is still on screen.
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('old-secret');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(MSG.incorrectLogin)).toBeVisible();

  await page.getByLabel('Password', { exact: true }).fill('new-secret');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/(settings|createAccount)\/?$/);
});

test('login shows the spec texts for empty, invalid and rejected input', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(MSG.allRequired)).toBeVisible();
  await page.getByLabel('E-mail').fill('nobody');
  await page.getByLabel('Password', { exact: true }).fill('whatever');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(MSG.invalidEmail)).toBeVisible();
  await page.getByLabel('E-mail').fill(uniqueEmail('nobody'));
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(MSG.incorrectLogin)).toBeVisible();
});

test('an unknown link shows the expired page with the support contact', async ({ page }) => {
  await page.goto('/createPassword/this-hash-was-never-issued');
  await expect(page.getByText(MSG.linkExpiredTitle)).toBeVisible();
  await expect(page.getByText(MSG.linkExpiredText)).toBeVisible();
  await expect(page.getByText('support@e2e.test').first()).toBeVisible();
  await page.goto('/resPassword/this-hash-was-never-issued');
  await expect(page.getByText(MSG.linkExpiredTitle)).toBeVisible();
});

test('any other path shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText(MSG.notFoundPage)).toBeVisible();
});

test('dashboard routes redirect to the login page without a session, which keeps where to return', async ({
  page,
}) => {
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/\?next=%2Fsettings$/);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
});

test('a password reset elsewhere signs the open dashboard out through the live stream', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('forced');
  await signUpByApi(request, baseURL as string, email, 'stream-secret');
  await page.goto('/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('stream-secret');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/(settings|createAccount)\/?$/);
  // Wait until the page's stream is connected before revoking the session.
  await page.waitForTimeout(1500);

  const started = Date.now();
  const rec = await request.post('/auth/guest/recovery-password', {
    data: { login: email, url: `${baseURL}/resPassword/` },
  });
  expect(rec.status()).toBe(200);
  const mail = await waitForMail(email, /.*/, started);
  const hash = linkIn(mail, '/resPassword/').split('/resPassword/')[1] as string;
  const accept = await request.post('/auth/guest/password-recovery-accept', {
    data: { hash, password: 'stream-secret-2', confirm: 'stream-secret-2' },
  });
  expect(accept.status()).toBe(200);

  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });
  expect(await page.evaluate(() => localStorage.getItem('bearer_access_token'))).toBeNull();
});
