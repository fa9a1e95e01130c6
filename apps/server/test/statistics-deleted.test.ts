import { DomainStatus, KeyStatus, PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { Api, type Json } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * Issue 12: the Deleted group of the statistics list selector lists deleted keys (and deleted domains)
 * for as long as their statistics are kept, so their past traffic can be charted from the screen.
 */
let server: TestServer;
let api: Api;

beforeAll(async () => {
  server = await startServer({ env: { STATS_INGEST_FLUSH_MS: '600000' } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

const now = () => Math.floor(Date.now() / 1000);

async function traffic(keyHash: string, cdnBytes: number) {
  const r = await api.post(PATHS.statistics.ingest, {
    reports: [{ apiKey: keyHash, sessionId: `s-${keyHash}`, ts: now(), cdnBytes, p2pBytes: 0 }],
  });
  expect(r.body.accepted).toBe(1);
}

const deletedGroup = async (as: Api, teamId: number) => {
  const r = await as.post(PATHS.domains.list(teamId));
  expect(r.status).toBe(200);
  return r.body.deleted as Json[];
};

describe('deleted keys and domains in the statistics list', () => {
  it('lists deleted keys with kept statistics under their domain; the statistics still answer for them', async () => {
    const team = await buildTeam(server.app);
    const as = api.as(team.owner.token);
    const live = await buildDomain(server.app, team.id, { promoted: true });
    const gone = await buildDomain(server.app, team.id, { promoted: true });
    const kept = await buildKey(server.app, team.id, live.id, { name: 'Old player' });
    const stays = await buildKey(server.app, team.id, live.id, { name: 'Current player' });
    const quiet = await buildKey(server.app, team.id, live.id, { name: 'Never used' });
    const goneKey = await buildKey(server.app, team.id, gone.id, { name: 'Gone player' });
    await traffic(kept.keyHash, 1000);
    await traffic(stays.keyHash, 500);
    await traffic(goneKey.keyHash, 700);
    await server.app.stats.flush();
    expect(await deletedGroup(as, team.id)).toEqual([]);

    expect((await as.send('DELETE', PATHS.keys.read(team.id, kept.id))).status).toBe(200);
    expect((await as.send('DELETE', PATHS.keys.read(team.id, quiet.id))).status).toBe(200);
    expect((await as.send('DELETE', PATHS.domains.remove(team.id, gone.id))).status).toBe(200);

    const deleted = await deletedGroup(as, team.id);
    expect(deleted.map((d) => [d.id, d.status.id, d.keys.map((k: Json) => [k.name, k.status])])).toEqual([
      [live.id, DomainStatus.Active, [['Old player', KeyStatus.Deleted]]],
      [gone.id, DomainStatus.Deleted, [['Gone player', KeyStatus.Deleted]]],
    ]);
    // The live lists are unchanged: the deleted key and domain are not there.
    const list = (await as.post(PATHS.domains.list(team.id))).body;
    expect(list.data.map((d: Json) => d.id)).toEqual([live.id]);
    expect(list.data[0].keys.map((k: Json) => k.name)).toEqual(['Current player']);

    const day = await as.post(PATHS.statistics.day, {
      apiKeys: [kept.keyHash, goneKey.keyHash],
      startTimestamp: now() - 3600,
      endTimestamp: now() + 60,
      team_id: team.id,
      clientId: team.owner.id,
    });
    expect(day.status).toBe(200);
    expect(day.body.data.reduce((n: number, p: Json) => n + p.cdnDwSize, 0)).toBe(1700);
  });

  it('lists deleted keys for all domains (domainId null) with kept statistics in deletedAllDomains', async () => {
    const team = await buildTeam(server.app);
    const as = api.as(team.owner.token);
    await buildDomain(server.app, team.id, { promoted: true });
    const used = await buildKey(server.app, team.id, null, { name: 'Everywhere' });
    const unused = await buildKey(server.app, team.id, null, { name: 'Never used' });
    await traffic(used.keyHash, 900);
    await server.app.stats.flush();
    for (const k of [used, unused])
      expect((await as.send('DELETE', PATHS.keys.read(team.id, k.id))).status).toBe(200);

    const list = (await as.post(PATHS.domains.list(team.id))).body;
    expect(list.allDomains).toEqual([]);
    expect(list.deleted).toEqual([]);
    expect(list.deletedAllDomains.map((k: Json) => [k.id, k.domainId, k.status])).toEqual([
      [used.id, null, KeyStatus.Deleted],
    ]);
  });

  it("never shows another team's deleted keys", async () => {
    const mine = await buildTeam(server.app);
    const theirs = await buildTeam(server.app);
    const d = await buildDomain(server.app, theirs.id, { promoted: true });
    const k = await buildKey(server.app, theirs.id, d.id);
    await traffic(k.keyHash, 100);
    await server.app.stats.flush();
    await api.as(theirs.owner.token).send('DELETE', PATHS.keys.read(theirs.id, k.id));
    expect(await deletedGroup(api.as(mine.owner.token), mine.id)).toEqual([]);
    expect(await deletedGroup(api.as(theirs.owner.token), theirs.id)).toHaveLength(1);
  });
});
