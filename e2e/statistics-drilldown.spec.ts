import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { PATHS } from '@tlprt/contract';
import { uniqueEmail } from './support/mail';
import { loginInBrowser, teamWithKey } from './support/session';

const LIVE = 'cdn.e2e.test/live/channel-one/master.m3u8';
// Long enough to be cut in its cell at 1280 px.
const VOD = 'media-archive.e2e.test/vod/2026/the-conference-keynote-of-the-second-day/index.m3u8';

/** Viewers of `stream` this minute, one session per request as browsers report. */
async function watch(
  request: APIRequestContext,
  keyHash: string,
  stream: string,
  viewers: number,
  p2p: number,
) {
  const ts = Math.floor(Date.now() / 1000);
  for (let i = 0; i < viewers; i += 1) {
    const report = {
      apiKey: keyHash,
      sessionId: `${stream.length}-${i}-${ts}`,
      ts,
      cdnBytes: 6000,
      p2pBytes: p2p,
      playMs: 9000,
      stream: `https://${stream}?token=t${i}`,
    };
    const res = await request.post(PATHS.statistics.ingest, { data: { reports: [report] } });
    expect(res.status()).toBe(202);
  }
}

test('the breakdown fits at 1280×800, explains its columns, and a clicked row filters the chart (chip, URL, reload)', async ({
  page,
  request,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = uniqueEmail('drill');
  const { keyHash, teamId, auth } = await teamWithKey(
    request,
    baseURL as string,
    email,
    'supervisor17@e2e.test',
  );
  // Live: 3 viewers of 10 kB; the VOD: 1 viewer of 6 kB. All traffic 36 kB.
  await watch(request, keyHash, LIVE, 3, 4000);
  await watch(request, keyHash, VOD, 1, 0);
  // The breakdown is written with the statistics' flush (every 2 s).
  const now = Math.floor(Date.now() / 1000);
  await expect
    .poll(async () => {
      const res = await request.post(PATHS.statistics.breakdown, {
        headers: auth,
        data: {
          apiKeys: [keyHash],
          startTimestamp: now - 86_400,
          endTimestamp: now + 60,
          team_id: teamId,
          range: 'day',
          by: 'stream',
        },
      });
      return ((await res.json()) as { data?: unknown[] }).data?.length;
    })
    .toBe(2);

  await loginInBrowser(page, email, 'stats-secret');
  await page.goto('/statistics?range=day&list=0');
  const table = page.getByRole('table', { name: 'Traffic by stream' });
  await expect(table.getByTestId('breakdown-row')).toHaveCount(2);

  // Every column in view, the last one whole inside the panel; nothing scrolls sideways.
  const panel = page.getByTestId('breakdown-panel');
  const last = table.getByRole('columnheader').last();
  await expect(last).toContainText('Rebuffering');
  // Below the chart: scrolled to (down only), then whole in the viewport.
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport({ ratio: 1 });
  const [panelBox, lastBox] = [await panel.boundingBox(), await last.boundingBox()];
  expect((lastBox?.x ?? 0) + (lastBox?.width ?? 0)).toBeLessThanOrEqual(
    (panelBox?.x ?? 0) + (panelBox?.width ?? 0),
  );
  expect(await page.getByTestId('breakdown-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(
    true,
  );
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
  ).toBe(true);
  // A long name is cut on one line, whole in its title; a header says what it counts.
  const vod = table.getByRole('button', { name: VOD });
  expect(await vod.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(30);
  await expect(vod.locator('xpath=ancestor::td')).toHaveAttribute('title', VOD);
  await expect(table.getByRole('button', { name: 'Peak viewers' })).toHaveAccessibleDescription(/peak/);

  // A row clicked: the chip, the URL, the chart's figures of that stream alone.
  const total = page.getByTestId('figure-total-traffic');
  await expect(total).toHaveText('36 kB');
  await table.getByTestId('breakdown-row').filter({ hasText: 'channel-one' }).click();
  const chip = page.getByTestId('breakdown-filter');
  await expect(chip).toContainText(`Stream: ${LIVE}`);
  await expect(page).toHaveURL(/[?&]by=stream&value=cdn\.e2e\.test/);
  await expect(total).toHaveText('30 kB');
  await expect(table.getByRole('button', { name: LIVE })).toHaveAttribute('aria-pressed', 'true');
  // The chip, the headers' explanations and the selected row pass axe's WCAG 2.1 A and AA rules.
  const { violations } = await new AxeBuilder({ page })
    .include('[data-testid="breakdown-filter"]')
    .include('[data-testid="breakdown-panel"]')
    .include('[data-testid="experience-panel"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // It survives a reload; Escape removes it.
  await page.reload();
  await expect(chip).toContainText(`Stream: ${LIVE}`);
  await expect(total).toHaveText('30 kB');
  await page.keyboard.press('Escape');
  await expect(chip).toHaveCount(0);
  await expect(total).toHaveText('36 kB');
  await expect(page).not.toHaveURL(/value=/);
});
