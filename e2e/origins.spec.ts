import { expect, test } from '@playwright/test';
import { MSG_DOMAINS } from '@tlprt/contract';
import { uniqueEmail } from './support/mail';
import { adminWithTeam, loginInBrowser } from './support/session';

/** Issue 39 item 5: Origins keep the host the customer typed and refuse a duplicate in words. */
test('Origins keep the typed host; a non-host and a duplicate are refused under the field', async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('origins');
  await adminWithTeam(request, baseURL as string, email, 'origin-secret', 'Origins Team');
  await loginInBrowser(page, email, 'origin-secret', '/origins');
  await expect(page.getByRole('heading', { level: 1, name: 'Origins' })).toBeVisible();

  const add = async (host: string) => {
    await page.getByRole('button', { name: MSG_DOMAINS.addOrigin }).click();
    await page.getByLabel('Origin host').fill(host);
    await page.getByRole('button', { name: MSG_DOMAINS.addOriginButton, exact: true }).click();
  };
  await add('http://x');
  await expect(page.getByText(MSG_DOMAINS.originNotAHost)).toBeVisible();
  await page.getByLabel('Origin host').fill('CDN.Example.com');
  await page.getByRole('button', { name: MSG_DOMAINS.addOriginButton, exact: true }).click();
  // The row is the host as typed (in its stored lower-case form), not the generated reference.
  const row = page.getByRole('button', { name: 'Origin cdn.example.com', exact: true });
  await expect(row).toBeVisible();
  await expect(row).toContainText('cdn.example.com');
  await expect(row).not.toContainText('.cdn.');

  await add('cdn.example.com');
  await expect(page.getByText(MSG_DOMAINS.originDuplicate)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Origin / })).toHaveCount(1);
});
