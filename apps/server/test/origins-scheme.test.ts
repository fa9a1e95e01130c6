import { randomBytes } from 'node:crypto';
import {
  AUDIT_ACTIONS,
  ENDPOINTS,
  EventCode,
  endpointPath,
  INGEST_ERRORS,
  MSG_DOMAIN_RULES,
  PATHS,
  PLAYER_PATHS,
} from '@tlprt/contract';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type Db, openDatabase } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { insertUserIfAbsent } from '../src/directory/users.js';
import { insertDomain } from '../src/features/domains/queries.js';
import { insertTeamWithMember } from '../src/features/teams/queries.js';
import {
  type BuiltUser,
  buildDomain,
  buildKey,
  buildTeam,
  buildTeamWithEveryRole,
  buildUser,
  setTeamState,
} from './factories.js';
import { streamsOf } from './helpers/events.js';
import { Api, type Json } from './helpers/http.js';
import {
  dropDatabase,
  freshDatabaseUrl,
  manualClock,
  PUBLIC_URL,
  startServer,
  type TestServer,
} from './helpers/server.js';
import { connectWs } from './helpers/ws.js';

/**
 * Issue 25: the Origin rule counts the scheme and the port. A verified domain's pages are https:// on
 * the default port; its http:// pages (port 80) only with the domain's "Plain HTTP pages" option; any
 * other port never; the dashboard's own origin exactly. The option's call, who may make it, and the
 * migration that keeps existing domains' http:// pages working.
 */

// Hosts are unique per run so the same names never meet an earlier run's rows on a shared PostgreSQL.
const R = randomBytes(3).toString('hex');
const SITE = `scheme${R}.com`;
const OTHER = `other${R}.com`;

const clock = manualClock();
let server: TestServer;
let api: Api;
let owner: BuiltUser;
let teamId: number;
let siteId: number;
/** An active key on SITE, and one of every domain of the team. */
let key: string;
let teamKey: string;

beforeAll(async () => {
  server = await startServer({ deps: { now: clock } });
  api = new Api(server.base);
  const team = await buildTeam(server.app);
  teamId = team.id;
  owner = team.owner;
  siteId = (await buildDomain(server.app, teamId, { host: SITE, promoted: true })).id;
  key = (await buildKey(server.app, teamId, siteId)).keyHash;
  teamKey = (await buildKey(server.app, teamId, null)).keyHash;
  const rival = await buildTeam(server.app);
  const rivalSite = await buildDomain(server.app, rival.id, { host: OTHER, promoted: true });
  await buildKey(server.app, rival.id, rivalSite.id);
});
afterAll(async () => {
  await server?.close();
});

/** Past the Origin rule's cache (5 s): the next answer is read afresh. */
const pastCache = () => clock.advance(5001);

const setPlainHttp = (as: Api, team: number, id: number, plainHttp: unknown) =>
  as.put(PATHS.domains.setPlainHttp(team, id), { plainHttp });

async function judged(origins: string[]): Promise<Record<string, [boolean, boolean, boolean]>> {
  const gate = server.app.ctx.origins;
  const out: Record<string, [boolean, boolean, boolean]> = {};
  for (const o of origins)
    out[o] = [await gate.forKey(key, o), await gate.forKey(teamKey, o), await gate.forAnyKey(o)];
  return out;
}
const all = (ok: boolean): [boolean, boolean, boolean] => [ok, ok, ok];

const HTTPS_PAGES = [
  `https://${SITE}`,
  `https://${SITE}:443`,
  `https://www.${SITE}`,
  `https://live.eu.${SITE}:443`,
];
const OTHER_PORTS = [
  `https://${SITE}:8443`,
  `https://${SITE}:80`,
  `https://www.${SITE}:4443`,
  `http://${SITE}:8080`,
  `http://${SITE}:443`,
  `http://live.${SITE}:8081`,
];
const HTTP_PAGES = [`http://${SITE}`, `http://${SITE}:80`, `http://www.${SITE}`, `http://live.eu.${SITE}:80`];

describe('the Origin rule: scheme and port', () => {
  it('accepts https:// pages on the default port (:443 is the same) and their subdomains; refuses any other port', async () => {
    expect(await judged([...HTTPS_PAGES, ...OTHER_PORTS])).toEqual({
      ...Object.fromEntries(HTTPS_PAGES.map((o) => [o, all(true)])),
      ...Object.fromEntries(OTHER_PORTS.map((o) => [o, all(false)])),
    });
  });

  it('refuses http:// pages while the option is off; accepts them on port 80 only once it is on; off again refuses them', async () => {
    expect(await judged(HTTP_PAGES)).toEqual(Object.fromEntries(HTTP_PAGES.map((o) => [o, all(false)])));

    const as = api.as(owner.token);
    const on = await setPlainHttp(as, teamId, siteId, true);
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ id: siteId, url: SITE, plainHttp: true });
    pastCache();
    expect(await judged([...HTTP_PAGES, ...OTHER_PORTS, ...HTTPS_PAGES])).toEqual({
      ...Object.fromEntries(HTTP_PAGES.map((o) => [o, all(true)])),
      ...Object.fromEntries(OTHER_PORTS.map((o) => [o, all(false)])),
      ...Object.fromEntries(HTTPS_PAGES.map((o) => [o, all(true)])),
    });

    expect((await setPlainHttp(as, teamId, siteId, false)).body.data.plainHttp).toBe(false);
    // The cache may keep the old answer for at most its 5 s, not longer.
    expect(await server.app.ctx.origins.forKey(key, `http://${SITE}`)).toBe(true);
    clock.advance(4000);
    expect(await server.app.ctx.origins.forKey(key, `http://${SITE}`)).toBe(true);
    clock.advance(1001);
    expect(await judged(HTTP_PAGES)).toEqual(Object.fromEntries(HTTP_PAGES.map((o) => [o, all(false)])));
    expect(await judged(HTTPS_PAGES)).toEqual(Object.fromEntries(HTTPS_PAGES.map((o) => [o, all(true)])));
  });

  it("one domain's option is its own: another team's domain, or a sibling domain, does not open http:// pages", async () => {
    const second = await buildDomain(server.app, teamId, { promoted: true });
    const as = api.as(owner.token);
    expect((await setPlainHttp(as, teamId, second.id, true)).status).toBe(200);
    pastCache();
    const gate = server.app.ctx.origins;
    // The team-wide key works on the second domain's http:// pages, the first domain's key does not.
    expect(await gate.forKey(teamKey, `http://${second.host}`)).toBe(true);
    expect(await gate.forKey(key, `http://${second.host}`)).toBe(false);
    expect(await gate.forKey(teamKey, `http://${SITE}`)).toBe(false);
    expect(await gate.forKey(teamKey, `http://${OTHER}`)).toBe(false);
    expect(await gate.forAnyKey(`http://${OTHER}`)).toBe(false);
    expect(await gate.forAnyKey(`https://${OTHER}`)).toBe(true);
  });

  it("matches the dashboard's own origin exactly", async () => {
    const gate = server.app.ctx.origins;
    const dashboard = new URL(PUBLIC_URL);
    expect(await gate.forKey(key, dashboard.origin)).toBe(true);
    for (const o of [
      `${dashboard.origin}:8080`,
      `https://${dashboard.host}`,
      `http://www.${dashboard.host}`,
    ]) {
      expect(await gate.forKey(key, o), o).toBe(false);
      expect(await gate.forAnyKey(o), o).toBe(false);
    }
  });

  it('every public door follows it: the settings read, the ingest (and its CORS), the tracker', async () => {
    const d = await buildDomain(server.app, teamId, { promoted: true });
    const k = (await buildKey(server.app, teamId, d.id)).keyHash;
    const ingest = (origin: string, sessionId: string) =>
      api.post(
        PATHS.statistics.ingest,
        {
          reports: [{ apiKey: k, sessionId, ts: Math.floor(clock() / 1000), cdnBytes: 1, p2pBytes: 0 }],
        },
        { origin },
      );
    const tracker = (origin: string) =>
      connectWs(`${server.base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${k}`, origin);
    const doors = async (origin: string) => {
      const settings = await api.get(PATHS.keySettings.publicRead(k), { origin });
      const report = await ingest(origin, `s-${randomBytes(4).toString('hex')}`);
      const ws = await tracker(origin);
      if ('ws' in ws) ws.ws.close();
      return {
        settings: settings.status,
        ingest: report.body.accepted,
        cors: report.headers.get('access-control-allow-origin'),
        tracker: ws.status,
      };
    };
    const accepted = (origin: string) => ({ settings: 200, ingest: 1, cors: origin, tracker: 101 });
    const refused = { settings: 404, ingest: 0, cors: null, tracker: 403 };

    expect(await doors(`https://${d.host}`)).toEqual(accepted(`https://${d.host}`));
    expect(await doors(`https://${d.host}:8443`)).toEqual(refused);
    expect(await doors(`http://${d.host}`)).toEqual(refused);
    const r = await ingest(`http://${d.host}`, 'refused');
    expect(r.body.errors).toEqual([{ index: 0, message: INGEST_ERRORS.origin }]);

    expect((await setPlainHttp(api.as(owner.token), teamId, d.id, true)).status).toBe(200);
    pastCache();
    expect(await doors(`http://${d.host}`)).toEqual(accepted(`http://${d.host}`));
    expect(await doors(`http://${d.host}:8080`)).toEqual(refused);
  });
});

describe('PUT /v1/domains/plain_http/{teamId}/{id}', () => {
  /** A team whose owner is Admin, with a member in each other role, and one promoted domain. */
  async function teamWithRoles() {
    const t = await buildTeamWithEveryRole(server.app);
    return { ...t, domain: await buildDomain(server.app, t.id, { promoted: true }) };
  }

  it('a new domain starts with it off; the list carries the flag', async () => {
    const t = await teamWithRoles();
    const as = api.as(t.owner.token);
    const created = await as.post(PATHS.domains.create(t.id), { url: `https://www.fresh${R}.example.com/` });
    expect(created.status).toBe(201);
    const list = await as.post(PATHS.domains.list(t.id));
    expect(list.body.data.map((d: Json) => d.plainHttp)).toEqual([false, false]);
  });

  it('Admin, Billing master, Key master and a supervisor may set it; a Viewer may not (403)', async () => {
    const t = await teamWithRoles();
    const supervisor = await buildUser(server.app, { supervisor: true });
    const cases: Array<[string, BuiltUser, number]> = [
      ['admin', t.owner, 200],
      ['billing master', t.billing, 200],
      ['key master', t.keyMaster, 200],
      ['viewer', t.viewer, 403],
      ['supervisor', supervisor, 200],
    ];
    let value = false;
    for (const [who, user, status] of cases) {
      const asked: boolean = status === 200 ? !value : value;
      const r = await setPlainHttp(api.as(user.token), t.id, t.domain.id, asked);
      expect(r.status, who).toBe(status);
      if (status === 200) {
        expect(r.body.data.plainHttp, who).toBe(asked);
        value = asked;
      }
    }
    const list = await api.as(t.owner.token).post(PATHS.domains.list(t.id));
    expect(list.body.verified[0].plainHttp).toBe(value);
  });

  it('404 for a stranger, an unknown domain and another team’s domain; 409 for a draft', async () => {
    const t = await teamWithRoles();
    const stranger = await buildUser(server.app);
    expect((await setPlainHttp(api.as(stranger.token), t.id, t.domain.id, true)).status).toBe(404);
    const as = api.as(t.owner.token);
    expect((await setPlainHttp(as, t.id, 99_999_999, true)).status).toBe(404);
    const other = await buildTeam(server.app);
    const foreign = await buildDomain(server.app, other.id, { promoted: true });
    expect((await setPlainHttp(as, t.id, foreign.id, true)).status).toBe(404);
    expect((await setPlainHttp(as, other.id, foreign.id, true)).status).toBe(404);
    const draft = await buildDomain(server.app, t.id, { verified: true });
    const r = await setPlainHttp(as, t.id, draft.id, true);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(MSG_DOMAIN_RULES.plainHttpNotPromoted);
    // Nothing changed on the foreign domain.
    const theirs = await api.as(other.owner.token).post(PATHS.domains.list(other.id));
    expect(theirs.body.verified[0].plainHttp).toBe(false);
    expect((await api.put(PATHS.domains.setPlainHttp(t.id, t.domain.id), { plainHttp: true })).status).toBe(
      401,
    );
  });

  it('400 for a body that is not {plainHttp: boolean}', async () => {
    const t = await teamWithRoles();
    const as = api.as(t.owner.token);
    for (const body of [{}, { plainHttp: 'yes' }, { plainHttp: 1 }, { plainHttp: null }]) {
      const r = await as.put(PATHS.domains.setPlainHttp(t.id, t.domain.id), body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    const list = await as.post(PATHS.domains.list(t.id));
    expect(list.body.verified[0].plainHttp).toBe(false);
  });

  it('a suspended team is view-only: 403 for its Admin and for a supervisor', async () => {
    const t = await teamWithRoles();
    await setTeamState(server.app, t.id, { suspended: 1 });
    const supervisor = await buildUser(server.app, { supervisor: true });
    for (const user of [t.owner, supervisor]) {
      expect((await setPlainHttp(api.as(user.token), t.id, t.domain.id, true)).status).toBe(403);
    }
  });

  it("records a supervisor's change in the audit log (not a member's, not a change to the same value)", async () => {
    const t = await teamWithRoles();
    const supervisor = await buildUser(server.app, { supervisor: true });
    const sup = api.as(supervisor.token);
    expect((await setPlainHttp(api.as(t.owner.token), t.id, t.domain.id, true)).status).toBe(200);
    expect((await setPlainHttp(sup, t.id, t.domain.id, true)).status).toBe(200);
    expect((await setPlainHttp(sup, t.id, t.domain.id, false)).status).toBe(200);
    const history = await sup.get(endpointPath(ENDPOINTS.audit.read, {}, { team_id: t.id, page: 1 }));
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual([
      expect.objectContaining({
        action: AUDIT_ACTIONS.domainPlainHttp,
        actorId: supervisor.id,
        targetType: 'domain',
        targetId: t.domain.id,
        target: t.domain.host,
        oldValue: 'on',
        newValue: 'off',
      }),
    ]);
  });

  it("tells the team's members live (event 62 with the option)", async () => {
    const t = await teamWithRoles();
    const streams = await streamsOf(server.base, { viewer: t.viewer });
    try {
      expect((await setPlainHttp(api.as(t.keyMaster.token), t.id, t.domain.id, true)).status).toBe(200);
      expect(await streams.viewer.waitForEvent(EventCode.DomainStatus)).toMatchObject({
        code: EventCode.DomainStatus,
        team_id: t.id,
        domain_id: t.domain.id,
        plain_http: 1,
      });
    } finally {
      streams.closeAll();
    }
  });
});

describe('migration 0013_domain_plain_http', () => {
  let db: Db | undefined;
  let url = '';
  afterAll(async () => {
    await db?.destroy();
    if (url) await dropDatabase(url);
  });

  it('turns the option on for every domain that existed (their http:// pages were accepted); new ones start off', async () => {
    url = await freshDatabaseUrl();
    db = openDatabase(loadConfig({ DATABASE_URL: url, PUBLIC_URL }).database);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const before = await migrator.migrateTo('0012_stats_rejected');
    if (before.error) throw before.error;
    const now = Date.now();
    const userId = await insertUserIfAbsent(db, {
      email: 'm@example.test',
      supervisor: false,
      subscription: false,
      createdAt: now,
    });
    const team = await insertTeamWithMember(
      db,
      { name: 'T', createdAt: now },
      { userId: userId ?? 0, role: 10 },
    );
    const domain = (host: string) =>
      insertDomain(db as Db, { teamId: team, host, name: host, hash: 'h', createdAt: now });
    const old = [await domain('old.example.com'), await domain('older.example.com')];
    const after = await migrator.migrateTo('0013_domain_plain_http');
    if (after.error) throw after.error;
    const fresh = await domain('new.example.com');
    const rows = await db.selectFrom('domains').select(['id', 'plain_http']).orderBy('id').execute();
    expect(rows.map((r) => [r.id, Number(r.plain_http)])).toEqual([
      [old[0], 1],
      [old[1], 1],
      [fresh, 0],
    ]);
    // And back down: the column goes.
    const down = await migrator.migrateTo('0012_stats_rejected');
    if (down.error) throw down.error;
    const columns = (await sql<{ id: number }>`select * from domains`.execute(db)).rows[0] ?? {};
    expect(Object.keys(columns)).not.toContain('plain_http');
  });
});
