import {
  MSG_STATS_EXPORT,
  PATHS,
  STATS_EXPORTS_PER_MINUTE,
  ZStatsPoint,
  ZStatsResponse,
} from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Json } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { M, NOW, statsServer, statsTeam } from './helpers/stats.js';

/**
 * The export API (docs/DESIGN.md §7): a team API token of scope `statistics` reads GET /stats/v1/export, which
 * answers what the dashboard answers for the same range and keys, as JSON or CSV. Runs on SQLite and,
 * with TEST_DATABASE_URL, on PostgreSQL.
 */

const stats = statsServer();

const ZExact = ZStatsResponse.extend({ data: z.array(ZStatsPoint.strict()) }).strict();

/** A team with two keys and some traffic, and a token of `scope` made by its Admin on the API. */
async function setup(scope: 'statistics' | 'ingest' = 'statistics') {
  const { team, as, hashes } = await statsTeam(stats, 2);
  const made = await as.post(PATHS.teamTokens.list(team.id), { name: 'Exporter', scope });
  expect(made.status).toBe(201);
  expect(made.body.data.scope).toBe(scope);
  const [k1 = '', k2 = ''] = hashes;
  const res = await ingestAsBrowsers(stats.api, [
    {
      apiKey: k1,
      sessionId: 'a',
      ts: M,
      cdnBytes: 700,
      p2pBytes: 300,
      playMs: 9000,
      plays: 1,
      startupMs: [600],
    },
  ]);
  expect(res.status).toBe(202);
  await ingestAsBrowsers(stats.api, [{ apiKey: k2, sessionId: 'b', ts: M - 60, cdnBytes: 50, p2pBytes: 0 }]);
  await stats.server.app.stats.flush();
  return {
    team,
    as,
    hashes: [k1, k2],
    token: made.body.data.token as string,
    tokenId: made.body.data.id as number,
  };
}
const exportUrl = (q: Record<string, string>) => `${PATHS.statistics.export}?${new URLSearchParams(q)}`;
const exporter = (token: string) => stats.api.as(token);

describe('GET /stats/v1/export', () => {
  it('answers what the dashboard answers, as JSON and as CSV', async () => {
    const s = await setup();
    const keys = s.hashes.join(',');
    for (const range of ['day', 'week', 'month', 'live'] as const) {
      const body = { apiKeys: s.hashes, startTimestamp: 0, endTimestamp: NOW, team_id: s.team.id };
      const path = range === 'live' ? PATHS.statistics.live(s.team.id) : PATHS.statistics[range];
      const screen = await s.as.post(path, body);
      const machine = await exporter(s.token).get(exportUrl({ range, from: '0', to: String(NOW), keys }));
      expect(machine.status).toBe(200);
      expect(ZExact.parse(machine.body)).toEqual(ZExact.parse(screen.body));
      const screenCsv = await s.as.post(`${path}?format=csv`, body);
      const machineCsv = await exporter(s.token).get(
        exportUrl({ range, from: '0', to: String(NOW), keys, format: 'csv' }),
      );
      expect(machineCsv.status).toBe(200);
      expect(machineCsv.headers.get('content-type')).toContain('text/csv');
      expect(typeof machineCsv.body).toBe('string');
      expect(machineCsv.body).toBe(screenCsv.body);
    }
    // The numbers are the traffic's: both keys' bytes and the play of the first.
    const day = ZExact.parse((await exporter(s.token).get(exportUrl({ range: 'day', keys }))).body);
    expect(day.totals).toMatchObject({ cdnDwSize: 750, p2pDwSize: 300, playMs: 9000, plays: 1 });
  });

  it("answers the dashboard's breakdown with `by`, as JSON and as CSV", async () => {
    const s = await setup();
    const keys = s.hashes.join(',');
    for (const by of ['stream', 'country', 'browser'] as const) {
      const body = {
        apiKeys: s.hashes,
        startTimestamp: 0,
        endTimestamp: NOW,
        team_id: s.team.id,
        range: 'week',
        by,
      };
      const screen = await s.as.post(PATHS.statistics.breakdown, body);
      expect(screen.status).toBe(200);
      expect(screen.body.data.length).toBeGreaterThan(0);
      const machine = await exporter(s.token).get(exportUrl({ range: 'week', to: String(NOW), keys, by }));
      expect(machine.status).toBe(200);
      expect(machine.body).toEqual(screen.body);
      const screenCsv = await s.as.post(`${PATHS.statistics.breakdown}?format=csv`, body);
      const machineCsv = await exporter(s.token).get(
        exportUrl({ range: 'week', to: String(NOW), keys, by, format: 'csv' }),
      );
      expect(machineCsv.body).toBe(screenCsv.body);
    }
  });

  it('refuses no token, a malformed or revoked one, and a token of another scope (401)', async () => {
    const s = await setup();
    const q = exportUrl({ range: 'day', keys: s.hashes.join(',') });
    expect((await stats.api.get(q)).status).toBe(401);
    expect((await exporter('tlprt_api_nope').get(q)).status).toBe(401);
    const ingestOnly = await setup('ingest');
    const refused = await exporter(ingestOnly.token).get(
      exportUrl({ range: 'day', keys: ingestOnly.hashes[0] ?? '' }),
    );
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(MSG_STATS_EXPORT.badToken);
    expect((await exporter(s.token).get(q)).status).toBe(200);
    expect((await s.as.send('DELETE', PATHS.teamTokens.revoke(s.team.id, s.tokenId))).status).toBe(200);
    expect((await exporter(s.token).get(q)).status).toBe(401);
  });

  it('refuses keys of another team (400 naming keys) and a bad query (400 naming the field)', async () => {
    const s = await setup();
    const other = await setup();
    const mixed = await exporter(s.token).get(
      exportUrl({ range: 'day', keys: `${s.hashes[0]},${other.hashes[0]}` }),
    );
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors).toEqual({ keys: MSG_STATS_EXPORT.otherTeamKey });
    const bad = async (q: Record<string, string>, field: string) => {
      const r = await exporter(s.token).get(exportUrl(q));
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect(Object.keys(r.body.errors as Json).some((k) => k === field || k.startsWith(`${field}.`))).toBe(
        true,
      );
    };
    await bad({ range: 'year', keys: s.hashes[0] ?? '' }, 'range');
    await bad({ range: 'day', keys: '' }, 'keys');
    await bad({ range: 'day', keys: 'not a hash' }, 'keys');
    await bad({ range: 'day', keys: s.hashes[0] ?? '', from: 'soon' }, 'from');
  });

  it(`allows ${STATS_EXPORTS_PER_MINUTE} exports a minute per token, then 429 with Retry-After`, async () => {
    const s = await setup();
    const q = exportUrl({ range: 'live', keys: s.hashes.join(',') });
    for (let i = 0; i < STATS_EXPORTS_PER_MINUTE; i++)
      expect((await exporter(s.token).get(q)).status).toBe(200);
    const over = await exporter(s.token).get(q);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token of the same team has its own budget.
    const second = await s.as.post(PATHS.teamTokens.list(s.team.id), { name: 'Second', scope: 'statistics' });
    expect((await exporter(second.body.data.token).get(q)).status).toBe(200);
  });
});
