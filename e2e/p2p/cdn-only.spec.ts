import { expect, test } from '@playwright/test';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { untilPlayed, Viewers, watched } from './viewers';

/**
 * Every byte counted whatever the player, CDN-only ones too: the Uppod snippet as pasted
 * (Uppod, Bitmovin, JW Player and Kaltura load segments themselves, out of the P2P engine's reach), on
 * a stand-in player that does the same (viewers.ts). The plugin counts what the page's resource timing
 * shows, and that is what the origin served, to the statistics API.
 */
test('a CDN-only player (the Uppod snippet as pasted) reports every CDN byte the origin served it', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const team = await teamWithKey(request, baseURL as string, uniqueEmail('cdnonly'), 'supervisor12@e2e.test');
  const viewers = new Viewers(playwright.chromium, launchOptions);
  const page = await viewers.openSnippet(team.keyHash, 'Uppod', baseURL as string);
  await untilPlayed([page], 10);
  const watch = await watched(page);
  expect(watch.cdnBytes).toBeGreaterThan(0);
  expect(watch.p2pBytes).toBe(0);
  await viewers.expectCdnBytesCounted([page], 'Uppod (CDN only)');
  await viewers.expectStatisticsCount(request, team, [page]);
  await viewers.close();
});
