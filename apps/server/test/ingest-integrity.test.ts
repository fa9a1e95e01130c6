import { INGEST_MAX_BYTES, PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchWriter } from '../src/features/statistics/aggregator.js';
import { MINUTE_BYTES_CAP } from '../src/features/statistics/tables.js';
import { buildDomain, buildIngestToken, buildKey, buildTeam } from './factories.js';
import { Api, type Json } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import {
  dropDatabase,
  freshDatabaseUrl,
  manualClock,
  startServer,
  type TestServer,
} from './helpers/server.js';

/**
 * Hardening issue, item 1 (docs/DESIGN.md §7 Integrity): a copied key hash must not be able to stop the
 * statistics of any team from being saved.
 */
const now = () => Math.floor(Date.now() / 1000);
const report = (apiKey: string, sessionId: string, cdnBytes: number, p2pBytes = 0) => ({
  apiKey,
  sessionId,
  ts: now(),
  cdnBytes,
  p2pBytes,
});

async function teamWithKeys(server: TestServer, n: number) {
  const team = await buildTeam(server.app);
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  const keys = [];
  for (let i = 0; i < n; i++) keys.push(await buildKey(server.app, team.id, domain.id));
  return { team, keys, as: new Api(server.base).as(team.owner.token) };
}

async function cdnBytesOf(as: Api, teamId: number, keyHashes: string[]): Promise<number> {
  const r = await as.post(PATHS.statistics.day, {
    apiKeys: keyHashes,
    startTimestamp: now() - 3600,
    endTimestamp: now() + 60,
    team_id: teamId,
    clientId: 1,
  });
  expect(r.status).toBe(200);
  return (r.body.data as Json[]).reduce((n, p) => n + p.cdnDwSize, 0);
}

describe('per-report ceiling', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`rejects a byte count above ${INGEST_MAX_BYTES} per report, naming the field; accepts the ceiling`, async () => {
    const { keys } = await teamWithKeys(server, 1);
    const k = keys[0]?.keyHash ?? '';
    const r = await new Api(server.base).post(PATHS.statistics.ingest, {
      reports: [
        report(k, 'a', INGEST_MAX_BYTES),
        report(k, 'a', INGEST_MAX_BYTES + 1),
        report(k, 'a', 0, Number.MAX_SAFE_INTEGER),
        { ...report(k, 'a', 1), nodrBytes: 2 ** 60 },
      ],
    });
    expect(r.status).toBe(202);
    expect(r.body.accepted).toBe(1);
    expect(r.body.rejected).toBe(3);
    expect(r.body.errors.map((e: Json) => [e.index, e.message.split(':')[0]])).toEqual([
      [1, 'cdnBytes'],
      [2, 'p2pBytes'],
      [3, 'nodrBytes'],
    ]);
  });
});

describe('a poisoned key cannot stop the others from being saved', () => {
  it('1,000 reports of 2^53-1 in each of two minutes on one key, a report on another, a graceful restart: the other bytes are there', async () => {
    // hh:30: both minutes below share their 20-minute and hourly rollups, whose sums overflowed.
    const clock = manualClock((Math.floor(Date.now() / 3_600_000) * 3600 + 1800) * 1000);
    const t = clock() / 1000;
    const databaseUrl = await freshDatabaseUrl();
    try {
      const first = await startServer({
        databaseUrl,
        env: { STATS_INGEST_FLUSH_MS: '600000' },
        deps: { now: clock },
      });
      const { team, keys } = await teamWithKeys(first, 2);
      const [poisoned, other] = keys.map((k) => k.keyHash) as [string, string];
      const api = new Api(first.base);
      const flood = Array.from({ length: 2000 }, (_, i) => ({
        ...report(poisoned, `p${i}`, Number.MAX_SAFE_INTEGER),
        ts: i < 1000 ? t - 30 : t - 90,
      }));
      const token = await buildIngestToken(first.app, team);
      await api.post(PATHS.statistics.ingest, { reports: flood }, { authorization: `Bearer ${token}` });
      const fine = await api.post(PATHS.statistics.ingest, {
        reports: [{ ...report(other, 'ok', 12_345, 678), ts: t - 30 }],
      });
      expect(fine.body).toMatchObject({ accepted: 1 });
      await first.close(); // graceful: the last flush runs on close

      const second = await startServer({ databaseUrl, deps: { now: clock } });
      try {
        const as = new Api(second.base).as(team.owner.token);
        const r = await as.post(PATHS.statistics.day, {
          apiKeys: [other],
          startTimestamp: t - 3600,
          endTimestamp: t,
          team_id: team.id,
          clientId: 1,
        });
        expect((r.body.data as Json[]).reduce((n, p) => n + p.cdnDwSize, 0)).toBe(12_345);
      } finally {
        await second.close();
      }
    } finally {
      await dropDatabase(databaseUrl);
    }
  });
});

describe('flush isolation', () => {
  let server: TestServer;
  let broken = new Set<number>();
  const errors: string[] = [];
  const writer: BatchWriter = (batch) =>
    batch.some((a) => broken.has(a.keyId))
      ? Promise.reject(new Error('this key-minute cannot be written'))
      : server.app.ctx.statsStore.writeBatch(batch);

  beforeAll(async () => {
    server = await startServer({
      env: { STATS_INGEST_FLUSH_MS: '600000' },
      deps: {
        statsWriter: writer,
        logger: { level: 'error', stream: { write: (line: string) => void errors.push(line) } },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes every other key-minute, retries the failing one a few times, then drops it with an error log', async () => {
    const { team, keys, as } = await teamWithKeys(server, 5);
    const hashes = keys.map((k) => k.keyHash);
    broken = new Set([keys[2]?.id ?? 0]);
    await ingestAsBrowsers(
      new Api(server.base),
      hashes.map((h, i) => report(h, `s${i}`, 1000 + i)),
    );
    await server.app.stats.flush();
    const healthy = hashes.filter((_, i) => i !== 2);
    expect(await cdnBytesOf(as, team.id, healthy)).toBe(1000 + 1001 + 1003 + 1004);
    expect(server.app.stats.aggregator.pendingCount).toBe(1);
    await server.app.stats.flush();
    await server.app.stats.flush();
    expect(server.app.stats.aggregator.pendingCount).toBe(0);
    expect(errors.some((l) => l.includes('key-minute dropped') && l.includes(`"keyId":${keys[2]?.id}`))).toBe(
      true,
    );
    // Later traffic of that key is written again once its writes work.
    broken = new Set();
    await new Api(server.base).post(PATHS.statistics.ingest, {
      reports: [report(hashes[2] ?? '', 'later', 7)],
    });
    await server.app.stats.flush();
    expect(await cdnBytesOf(as, team.id, [hashes[2] ?? ''])).toBe(7);
  });

  it('sums saturate instead of overflowing: minutes at the cap, flushed twice, and summed over keys', async () => {
    const { team, keys, as } = await teamWithKeys(server, 3);
    const minute = now() - (now() % 60);
    const agg = server.app.stats.aggregator;
    for (let round = 0; round < 2; round++) {
      for (const k of keys) {
        for (let i = 0; i < 300_000; i++)
          agg.add(k.id, minute, `s${i % 50}`, { cdnBytes: INGEST_MAX_BYTES, p2pBytes: 0 });
      }
      await server.app.stats.flush();
    }
    expect(agg.pendingCount).toBe(0);
    const one = keys[0]?.keyHash ?? '';
    expect(await cdnBytesOf(as, team.id, [one])).toBe(MINUTE_BYTES_CAP);
    expect(
      await cdnBytesOf(
        as,
        team.id,
        keys.map((k) => k.keyHash),
      ),
    ).toBe(3 * MINUTE_BYTES_CAP);
  });
});
