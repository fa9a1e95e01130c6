import { expect, test } from '@playwright/test';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { measuredShare, PLYR, playWhenPeering, untilPlayed, Viewers } from './viewers';

/**
 * More players: Video.js through the Add domain snippet's hls.js source handler, Plyr on the
 * Other snippet's video element, and Clappr with the hls.js it bundles, each page made of the snippet as
 * pasted. The three viewers of one stream meet in one swarm whatever their player, share segments, and
 * report every CDN byte.
 */
test('Video.js (hls.js source handler), Plyr (Other snippet) and Clappr share segments and report every CDN byte', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const team = await teamWithKey(request, baseURL as string, uniqueEmail('players'), 'supervisor9@e2e.test');
  const origin = baseURL as string;
  const viewers = new Viewers(playwright.chromium, launchOptions);
  const videojs = await viewers.openSnippet(team.keyHash, 'Video.js', origin);
  await playWhenPeering(videojs);
  // Video.js built its player around the element the plugin plays in.
  await expect(videojs.locator('.video-js video')).toHaveCount(1);
  await untilPlayed([videojs], 2);
  const plyr = await viewers.openSnippet(team.keyHash, 'Other', origin, PLYR);
  await playWhenPeering(plyr);
  await expect(plyr.locator('.plyr video')).toHaveCount(1);
  // The Clappr snippet does not autoplay: its viewer presses play once the plugin has attached.
  const clappr = await viewers.openSnippet(team.keyHash, 'Clappr', origin);
  await playWhenPeering(clappr);
  await expect(clappr.locator('[data-player] video')).toHaveCount(1);
  const pages = [videojs, plyr, clappr];
  await untilPlayed(pages, 20, 90_000);
  const { share } = await measuredShare(pages, 'Video.js + Plyr + Clappr');
  // Three viewers of a VOD title: ceiling 66.7%; the bench's whole runs reach 65%.
  expect(share).toBeGreaterThanOrEqual(0.55);
  await viewers.expectCdnBytesCounted(pages, 'Video.js, Plyr and Clappr');
  await viewers.expectStatisticsCount(request, team, pages);
  await viewers.close();
});
