import { expect, test } from '@playwright/test';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { shareBetween, untilPlayed, Viewers, watched } from './viewers';

/**
 * Issue 21, live HLS: viewers of the demo's live stream (2 s segments, six listed) with the default key
 * settings. Each new segment must come from the CDN once, so the ceiling of N viewers is 1 − 1/N; the
 * target is 90% of it, without stalls. Two viewers here (ceiling 50%, target 45%), each in a browser of
 * its own: a third viewer, or a lone CDN-only viewer to compare stalls with, overloads the two cores CI
 * has (load average 8: the lone viewer itself stalled 8 times in 60 s). Measured by hand with three
 * viewers: 56% in the steady state against a ceiling of 67%.
 */
const STEADY_FROM_S = 10;
const STEADY_FOR_S = 30;

test('live HLS: two viewers with the default settings share at least 45% (ceiling 50%), play on without stalling, and report the CDN bytes the origin served them', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const team = await teamWithKey(request, baseURL as string, uniqueEmail('live'), 'supervisor6@e2e.test');

  const viewers = new Viewers(playwright.chromium, launchOptions);
  const together = [
    await viewers.open(team.keyHash, 'stream=live'),
    await viewers.open(team.keyHash, 'stream=live'),
  ];
  for (const page of together) await expect(page.getByTestId('state')).toContainText('sharing segments');

  await untilPlayed(together, STEADY_FROM_S);
  const before = await Promise.all(together.map(watched));
  await together[0]?.waitForTimeout(STEADY_FOR_S * 1000);
  const after = await Promise.all(together.map(watched));
  const { cdn, p2p, share } = shareBetween(before, after);
  console.log(
    `live HLS, 2 viewers, ${STEADY_FOR_S} s steady: P2P share ${(share * 100).toFixed(1)}% (ceiling 50%; CDN ${cdn} B, P2P ${p2p} B); stalls ${after.map((w) => w.stalls).join(', ')}; played ${after.map((w) => w.played.toFixed(0)).join(', ')} s`,
  );
  expect(share).toBeGreaterThanOrEqual(0.45);
  for (const [i, w] of after.entries()) {
    expect(w.played).toBeGreaterThanOrEqual(STEADY_FROM_S + STEADY_FOR_S - 5);
    // One stall is allowed for a hiccup of the loaded CI machine, not the stalls of a buffer too thin.
    expect(w.stalls - (before[i]?.stalls ?? 0)).toBeLessThanOrEqual(1);
  }
  await together[1]?.screenshot({ path: 'test-results/p2p-shots/live-viewer-640x480.png' });
  await viewers.expectCdnBytesCounted(together, 'live HLS');
  await viewers.close();
});
