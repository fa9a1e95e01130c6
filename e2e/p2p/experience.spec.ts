import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { PATHS, PLAYER_PATHS, type TStatsPoint, ZBreakdownResponse, ZStatsResponse } from '@tlprt/contract';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { livePoints } from './live-points';

/**
 * Viewer experience and breakdowns (docs/DESIGN.md §7) from real players: two viewers of the demo stream play
 * it, hold it whole and play on without a byte, and the statistics API answers their plays, startup
 * time, stalls and failures, the minutes they watched without bytes as 2 viewers, and the breakdowns
 * by stream and browser. A third viewer, of a stream whose segments answer 404, adds one failure.
 */
test('two players report their experience; cached minutes still count them; a broken stream adds a failure; breakdowns by stream and browser', async ({
  browser,
  request,
  baseURL,
}) => {
  const email = uniqueEmail('qoe');
  const team = await teamWithKey(request, baseURL as string, email, 'supervisor14@e2e.test');
  const contexts: BrowserContext[] = [];
  const open = async (query: string, broken = false) => {
    const context = await browser.newContext({ viewport: { width: 640, height: 400 } });
    contexts.push(context);
    // The origin fails this viewer's segments: the player gives up (a fatal error) after its retries.
    if (broken)
      await context.route(/\/demo\/stream\/.*\.ts(\?.*)?$/, (route) => route.fulfill({ status: 404 }));
    const page = await context.newPage();
    await page.goto(`${PLAYER_PATHS.demo}?key=${team.keyHash}${query}`);
    return page;
  };
  const players = [await open(''), await open('')];
  // Another stream (another swarm): no peer holds its segments for it.
  const broken = await open('&stream=byterange', true);
  const loaded = (page: Page) =>
    page.evaluate(() => {
      const w = window as unknown as { demoP2P?: { counters(): { cdnBytes: number; p2pBytes: number } } };
      const c = w.demoP2P?.counters();
      return (c?.cdnBytes ?? 0) + (c?.p2pBytes ?? 0);
    });
  const playlist = await (await request.get(PLAYER_PATHS.demoStream)).text();
  const segments = playlist.split('\n').filter((l) => l.endsWith('.ts'));
  let streamBytes = 0;
  for (const s of segments)
    streamBytes += (await (await request.get(new URL(s, `${baseURL}${PLAYER_PATHS.demoStream}`).href)).body())
      .length;
  await expect
    .poll(async () => Math.min(...(await Promise.all(players.map(loaded)))), {
      timeout: 90_000,
      intervals: [2000],
    })
    .toBeGreaterThanOrEqual(streamBytes);

  // Both hold the whole (looping) stream: a minute later they still play, with no byte to report.
  // The Live range's open minute counts them from their play time alone.
  let cached: TStatsPoint | undefined;
  await expect
    .poll(
      async () => {
        const points = await livePoints(request, team);
        cached = points.find((p) => p.cdnDwSize === 0 && p.p2pDwSize === 0 && (p.playMs ?? 0) > 0);
        return cached?.usersCount ?? 0;
      },
      { timeout: 100_000, intervals: [3000] },
    )
    .toBe(2);
  console.log(`A minute without bytes: ${JSON.stringify(cached)}`);
  // Each viewer played most of it (reports every 10 s; the open minute may hold part of it).
  expect(cached?.playMs ?? 0).toBeGreaterThan(10_000);

  // The day's totals of the key: the three plays, their startup, no stall to speak of, one failure.
  const now = Math.floor(Date.now() / 1000);
  const range = {
    apiKeys: [team.keyHash],
    startTimestamp: now - 3600,
    endTimestamp: now,
    team_id: team.teamId,
  };
  await expect
    .poll(
      async () => {
        const day = ZStatsResponse.parse(
          await (await request.post(PATHS.statistics.day, { headers: team.auth, data: range })).json(),
        );
        return day.totals?.failures ?? 0;
      },
      { timeout: 60_000, intervals: [3000] },
    )
    .toBe(1);
  const day = ZStatsResponse.parse(
    await (await request.post(PATHS.statistics.day, { headers: team.auth, data: range })).json(),
  );
  const totals = day.totals;
  console.log(`Experience of the key: ${JSON.stringify(totals)}`);
  expect(totals?.plays).toBeGreaterThanOrEqual(3);
  expect(totals?.startupP50Ms).toBeGreaterThan(0);
  const rebuffering = (totals?.stallMs ?? 0) / ((totals?.playMs ?? 0) + (totals?.stallMs ?? 0));
  expect(rebuffering).toBeLessThan(0.05);

  const breakdown = async (by: 'stream' | 'browser') =>
    ZBreakdownResponse.parse(
      await (
        await request.post(PATHS.statistics.breakdown, {
          headers: team.auth,
          data: { ...range, range: 'day', by },
        })
      ).json(),
    ).data;
  const streams = await breakdown('stream');
  const demoStream = streams.find(
    (r) => r.name === `${new URL(baseURL as string).host}${PLAYER_PATHS.demoStream}`,
  );
  expect(demoStream?.cdnDwSize ?? 0).toBeGreaterThan(0);
  expect((demoStream?.cdnDwSize ?? 0) + (demoStream?.p2pDwSize ?? 0)).toBeGreaterThanOrEqual(2 * streamBytes);
  expect(demoStream?.usersCount).toBe(2);
  expect(streams.find((r) => r.name.endsWith('/byterange.m3u8'))?.failures).toBe(1);
  const browsers = await breakdown('browser');
  expect(browsers.map((r) => r.name)).toEqual(['Chrome']);
  // The broken stream's viewer never played nor received a byte: no viewer, only its failure.
  expect(browsers[0]?.usersCount).toBe(2);

  await broken.close();
  for (const c of contexts) await c.close();
});
