import { expect, test } from '@playwright/test';
import { PLAYER_PATHS } from '@tlprt/contract';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { measuredShare, playWhenPeering, untilPlayed, Viewers } from './viewers';

/**
 * Shaka: two viewers of the demo's DASH copy (fMP4, video and audio apart) and one of its HLS
 * stream, each on a page made of the Add domain Shaka snippet as pasted. Every DASH segment goes through
 * the P2P engine (shaka-index.ts), so the two share up to the ceiling of two viewers (50%); every byte
 * the origin served each viewer is in its reports, also those Shaka loads outside the engine
 * (shaka-outside.ts: its first HLS segment, loaded a second time).
 */
test('Shaka: two DASH viewers share segments; every viewer, DASH or HLS, reports every CDN byte the origin served it', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const team = await teamWithKey(request, baseURL as string, uniqueEmail('shaka'), 'supervisor7@e2e.test');
  const viewers = new Viewers(playwright.chromium, launchOptions);
  // The HLS viewer (a swarm of its own) starts first, so its browser's start does not slow the DASH
  // viewers'. The second DASH viewer joins a swarm that is playing, as viewers of a VOD title do: its
  // first segments come from the CDN while its WebRTC connection is made (70 kB on an idle machine,
  // 270 kB in a loaded CI run), and two players started in the same second both fetch theirs so (12
  // points of the share in one run).
  const origin = baseURL as string;
  const hls = await viewers.openSnippet(team.keyHash, 'Shaka', origin);
  await playWhenPeering(hls);
  await untilPlayed([hls], 1);
  const first = await viewers.openSnippet(
    team.keyHash,
    'Shaka',
    origin,
    undefined,
    PLAYER_PATHS.demoDashStream,
  );
  await playWhenPeering(first);
  await untilPlayed([first], 2);
  const second = await viewers.openSnippet(
    team.keyHash,
    'Shaka',
    origin,
    undefined,
    PLAYER_PATHS.demoDashStream,
  );
  await playWhenPeering(second);
  const dash = [first, second];
  await untilPlayed([...dash, hls], 20, 90_000);
  const { share } = await measuredShare(dash, 'Shaka DASH');
  // The target is 45% (90% of the ceiling): runs here gave 45.4–50.0%, the low ones when the
  // second viewer's connection came late. The assertion keeps room for that, as the hls.js test does.
  expect(share).toBeGreaterThanOrEqual(0.42);
  await viewers.expectCdnBytesCounted([...dash, hls], 'Shaka');
  await viewers.expectStatisticsCount(request, team, [...dash, hls]);
  await viewers.close();
});
