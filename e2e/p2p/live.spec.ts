import { expect, test } from '@playwright/test';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { measuredShare, untilPlayed, Viewers, watched } from './viewers';

/**
 * Live HLS: three viewers of the demo's live stream (2 s segments, six listed), joining one
 * after another, with the key's default settings. The plugin recognises the live playlist and sets the
 * engine's windows and the player's lag from it (packages/player/src/live.ts); with the VOD mapping
 * every new segment went to the CDN from every viewer (3–4% P2P).
 */
test('live HLS: three viewers with default settings share each new segment, without stalls, and report every CDN byte', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const team = await teamWithKey(request, baseURL as string, uniqueEmail('live'), 'supervisor10@e2e.test');
  const viewers = new Viewers(playwright.chromium, launchOptions);
  const first = await viewers.open(team.keyHash, 'stream=live');
  await expect(first.getByTestId('state')).toContainText('sharing segments');
  const pages = [first];
  await untilPlayed(pages, 2);
  for (let i = 1; i < 3; i++) pages.push(await viewers.open(team.keyHash, 'stream=live'));
  // Once all three play, they need the same segments, and each needs to come from the CDN once: the
  // ceiling of three. Before that, the first viewer's first segments are its own (whole runs: 61%).
  await untilPlayed(pages, 4);
  const joined = await Promise.all(pages.map(watched));
  await untilPlayed(pages, 24, 90_000);
  await measuredShare(pages, 'live HLS, whole run');
  const { share, watches } = await measuredShare(pages, 'live HLS, all three playing', joined);
  // The target: 60% (90% of the ceiling of three, 67%).
  expect(share).toBeGreaterThanOrEqual(0.6);
  // CDN-only viewers of this stream play it without a stall on an idle machine; so must these.
  expect(watches.map((w) => w.stalls)).toEqual([0, 0, 0]);
  await viewers.expectCdnBytesCounted(pages, 'live HLS');
  await viewers.expectStatisticsCount(request, team, pages);
  await viewers.close();
});
