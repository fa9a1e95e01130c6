import { loadavg } from 'node:os';
import { expect, test } from '@playwright/test';
import { PATHS, ZDomainListResponse } from '@tlprt/contract';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { measuredShare, untilPlayed, Viewers, watched } from './viewers';

const KINDS = [
  { name: 'VOD HLS (hls.js)', query: 'stream=index' },
  { name: 'live HLS (hls.js)', query: 'stream=live' },
  // The same players on a key the server does not know: CDN only, hls.js's own settings (their stalls
  // are what the P2P viewers' are measured against).
  { name: 'live HLS, CDN only', query: 'stream=live', cdnOnly: true },
  { name: 'VOD DASH (Shaka)', query: 'player=shaka&stream=dash' },
] as const;
/** BENCH_P2P_STREAMS=live,dash: only the kinds whose name contains one of these words. */
const STREAMS = process.env.BENCH_P2P_STREAMS?.split(',');
const KINDS_RUN = KINDS.filter((k) => !STREAMS || STREAMS.some((w) => k.name.includes(w)));
const SIZES = (process.env.BENCH_P2P_VIEWERS ?? '2,3,4,6').split(',').map(Number);
/** Seconds every viewer plays before the share is read (BENCH_P2P_SECONDS). */
const PLAYED = Number(process.env.BENCH_P2P_SECONDS ?? 20);

test('P2P share of N viewers against the ceiling 1 − 1/N', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  const team = await teamWithKey(request, baseURL as string, uniqueEmail('bench'), 'supervisor13@e2e.test');
  const domainId = ZDomainListResponse.parse(
    await (await request.post(PATHS.domains.list(team.teamId), { headers: team.auth, data: {} })).json(),
  ).verified[0]?.id as number;
  /** A key of its own for each run: its swarms start empty. */
  const freshKey = async (name: string) => {
    const made = await request.post(PATHS.keys.create(team.teamId, domainId), {
      headers: team.auth,
      data: { name },
    });
    expect(made.status()).toBe(201);
    const list = ZDomainListResponse.parse(
      await (await request.post(PATHS.domains.list(team.teamId), { headers: team.auth, data: {} })).json(),
    );
    return list.verified[0]?.keys.find((k) => k.name === name)?.keyHash as string;
  };

  const rows: string[] = [];
  for (const kind of KINDS_RUN)
    for (const n of SIZES) {
      const key = 'cdnOnly' in kind ? 'not-a-key' : await freshKey(`bench ${rows.length + 1}`);
      const viewers = new Viewers(playwright.chromium, launchOptions);
      // The first viewer plays alone for 2 s; the others join one after another, as an audience does.
      const pages = [await viewers.open(key, kind.query)];
      await untilPlayed(pages, 2);
      for (let i = 1; i < n; i++) pages.push(await viewers.open(key, kind.query));
      // Once every viewer plays, they all need the same segments: the share from then on is the one
      // the ceiling speaks of (before, the first viewer's first segments are its own).
      await untilPlayed(pages, 4, 120_000);
      const joined = await Promise.all(pages.map(watched));
      await untilPlayed(pages, PLAYED, 180_000);
      const whole = await measuredShare(pages, `${kind.name}, whole run`);
      const { share, ceiling, watches } = await measuredShare(pages, `${kind.name}, all playing`, joined);
      const stalls = watches.reduce((s, w) => s + w.stalls, 0);
      const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(6);
      rows.push(
        `${kind.name.padEnd(20)} ${String(n).padStart(2)}  ${pct(whole.share)}  ${pct(share)}  ${pct(ceiling)}  ${((share / ceiling) * 100).toFixed(0).padStart(5)}%  ${String(stalls).padStart(6)}  ${loadavg()[0]?.toFixed(2)}`,
      );
      console.log(rows.at(-1));
      await viewers.close();
    }
  console.log(
    `\nP2P share after ${PLAYED} s of play (whole run; from when all play, against the ceiling)\nstream kind           N   whole  all playing  ceiling  of ceiling  stalls  load (1 min)\n${rows.join('\n')}`,
  );
});
