import { expect, test } from '@playwright/test';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { untilPlayed, Viewers, watched } from './viewers';

/**
 * Issue 21, Shaka: a viewer of the demo's stream as HLS and one of its DASH copy (fMP4, video and audio
 * apart). Every byte the origin served each is in its reports, also those Shaka loads outside the P2P
 * engine (shaka-outside.ts): its first HLS segment, loaded a second time, and on DASH nearly every
 * segment, as p2p-media-loader-shaka 2.2.2 learns only the first entries of Shaka 4.16's lazily built
 * DASH segment index. DASH is therefore played and counted but not shared yet (the share is printed).
 */
test('Shaka, HLS and DASH: each viewer reports every CDN byte the origin served it', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const team = await teamWithKey(request, baseURL as string, uniqueEmail('shaka'), 'supervisor7@e2e.test');
  const viewers = new Viewers(playwright.chromium, launchOptions);
  const pages = [
    await viewers.open(team.keyHash, 'player=shaka&stream=index'),
    await viewers.open(team.keyHash, 'player=shaka&stream=dash'),
  ];
  for (const page of pages) await expect(page.getByTestId('state')).toContainText('sharing segments');
  await untilPlayed(pages, 16, 90_000);
  for (const [i, w] of (await Promise.all(pages.map(watched))).entries())
    console.log(
      `Shaka ${i === 0 ? 'HLS' : 'DASH'}: CDN ${w.cdnBytes} B, P2P ${w.p2pBytes} B, stalls ${w.stalls}`,
    );
  await viewers.expectCdnBytesCounted(pages, 'Shaka');
  await viewers.close();
});
