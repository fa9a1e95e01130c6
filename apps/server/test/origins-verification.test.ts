import { createHash, randomBytes } from 'node:crypto';
import { MSG_DOMAIN_RULES, MSG_INTEGRITY, PATHS, PLAYER_PATHS, Role } from '@tlprt/contract';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { insertUserIfAbsent } from '../src/directory/users.js';
import { teamHostRows } from '../src/features/integrity/queries.js';
import { insertTeamWithMember } from '../src/features/teams/queries.js';
import {
  buildDomain,
  buildKey,
  buildOrigin,
  buildTeam,
  buildUser,
  memoryMailer,
  setTeamState,
} from './factories.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { Api } from './helpers/http.js';
import { closedPort, startTestSite, type TestSite } from './helpers/http-site.js';
import {
  dropDatabase,
  freshDatabaseUrl,
  manualClock,
  PUBLIC_URL,
  startServer,
  type TestServer,
} from './helpers/server.js';

/**
 * Origin verification (issue 36) over real HTTP: the verification file and the segments are served by a
 * real local web site whose host names a real local DNS server resolves to 127.0.0.1, as in the domain
 * verification and integrity tests (VERIFY_HTTP_PORT, VERIFY_ALLOW_PRIVATE; only the https port and the
 * timeouts shortened through buildApp's deps). The clock is manual so the team hosts' 5 s cache can be
 * stepped over.
 */
let server: TestServer;
let api: Api;
let dns: TestDns;
let site: TestSite;
const clock = manualClock();
/** Longer than the team hosts' cache (integrity/team-hosts.ts). */
const PAST_HOSTS_CACHE_MS = 6000;

beforeAll(async () => {
  dns = await startTestDns();
  site = await startTestSite();
  server = await startServer({
    env: { DNS_SERVERS: dns.server, VERIFY_HTTP_PORT: String(site.port), VERIFY_ALLOW_PRIVATE: 'true' },
    deps: {
      now: clock,
      mailer: memoryMailer().mailer,
      verifier: { httpsPort: await closedPort(), timeoutMs: 1500 },
    },
  });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await dns?.close();
});
beforeEach(() => site.clear());

let n = 0;
/** A fresh host name that the test DNS server resolves to the local site. */
function freshHost(label = 'o'): string {
  const host = `${label}${++n}-${randomBytes(3).toString('hex')}.example.test`;
  dns.set(host, { A: ['127.0.0.1'] });
  return host;
}

interface OriginBody {
  id: number;
  host: string | null;
  verification: string;
  verifiedAt: string | null;
  verificationFile: { url: string; path: string; content: string } | null;
}

/** A team whose owner adds an Origin named `name` through the API. */
async function withOrigin(name: string) {
  const t = await buildTeam(server.app);
  const as = api.as(t.owner.token);
  const created = await as.post(PATHS.origins.create(t.id), { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const origin: OriginBody = created.body.data;
  return { team: t, teamId: t.id, as, origin };
}

async function listed(as: Api, teamId: number, id: number): Promise<OriginBody> {
  const list = await as.get(PATHS.origins.list(teamId));
  return list.body.data.find((o: { id: number }) => o.id === id);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const ask = (key: string, url: string) => `${PLAYER_PATHS.integrity}?${new URLSearchParams({ key, url })}`;
const urlOn = (host: string, path: string) => `http://${host}:${site.port}${path}`;

describe('an Origin on a host of its own', () => {
  it('starts unverified with its file; the right file verifies it (https, then http)', async () => {
    const host = freshHost();
    const o = await withOrigin(host.toUpperCase());
    expect(o.origin).toMatchObject({ host, verification: 'unverified', verifiedAt: null });
    const file = o.origin.verificationFile;
    if (!file) throw new Error('no verification file');
    expect(file.path).toMatch(/^\/tlprt-[0-9a-f]{32}\.html$/);
    expect(file.url).toBe(`https://${host}${file.path}`);
    expect(file.content).toMatch(/^[0-9a-f]{32}$/);
    expect(file.path).toContain(file.content);
    // Each Origin has its own file.
    const other = await withOrigin(freshHost());
    expect(other.origin.verificationFile?.content).not.toBe(file.content);

    site.route(file.path, { body: `${file.content}\n`, headers: { 'content-type': 'text/plain' } });
    const r = await o.as.post(PATHS.origins.verify(o.teamId, o.origin.id));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe(MSG_DOMAIN_RULES.originVerified);
    expect(r.body.data).toMatchObject({ id: o.origin.id, verification: 'verified', verificationFile: null });
    expect(Date.parse(r.body.data.verifiedAt)).toBe(clock());
    expect(site.requests).toEqual([
      expect.objectContaining({ path: file.path, host: `${host}:${site.port}` }),
    ]);
    expect(site.requests[0]?.userAgent).toMatch(/tlprt-domain-verifier/);
    expect(await listed(o.as, o.teamId, o.origin.id)).toMatchObject({ verification: 'verified' });

    // Verifying again fetches nothing.
    const again = await o.as.post(PATHS.origins.verify(o.teamId, o.origin.id));
    expect(again.status).toBe(200);
    expect(again.body.data.verification).toBe('verified');
    expect(site.requests).toHaveLength(1);
  });

  it('a missing file, another content or an error status fails with 400 naming the URL; it stays unverified', async () => {
    const o = await withOrigin(freshHost());
    const file = o.origin.verificationFile;
    if (!file) throw new Error('no verification file');
    const failed = MSG_DOMAIN_RULES.originVerificationFailed(file.url);
    const verify = () => o.as.post(PATHS.origins.verify(o.teamId, o.origin.id));

    const missing = await verify();
    expect(missing.status).toBe(400);
    // The reason (here a 404) goes to the log only: the answer never tells how a host answers.
    expect(missing.body).toEqual({ message: failed });

    site.route(file.path, { body: randomBytes(16).toString('hex') });
    expect((await verify()).body).toEqual({ message: failed });
    site.route(file.path, { status: 500, body: file.content });
    expect((await verify()).body).toEqual({ message: failed });
    // The file of another Origin does not verify this one.
    const other = await withOrigin(freshHost());
    site.route(file.path, { body: other.origin.verificationFile?.content ?? '' });
    expect((await verify()).status).toBe(400);

    expect(await listed(o.as, o.teamId, o.origin.id)).toMatchObject({
      verification: 'unverified',
      verifiedAt: null,
      verificationFile: file,
    });
  });

  it('an Origin whose name is not a host has nothing to verify (400); a suspended one is refused (403)', async () => {
    // Only a row from before issue 39 can be named so: the API now takes a host only.
    const t = await buildTeam(server.app);
    const named = { as: api.as(t.owner.token), teamId: t.id };
    const { id: namedId } = await buildOrigin(server.app, t.id, { name: 'Main storage' });
    expect(await listed(named.as, t.id, namedId)).toMatchObject({
      host: null,
      verification: 'notHost',
      verificationFile: null,
    });
    const r = await named.as.post(PATHS.origins.verify(named.teamId, namedId));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(MSG_DOMAIN_RULES.originNotHost);

    const o = await withOrigin(freshHost());
    await server.app.ctx.db
      .updateTable('origins')
      .set({ suspended: 1 })
      .where('id', '=', o.origin.id)
      .execute();
    const blocked = await o.as.post(PATHS.origins.verify(o.teamId, o.origin.id));
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe(MSG_DOMAIN_RULES.originSuspended);
    expect(site.requests).toHaveLength(0);
  });

  it('who may verify: the roles that manage domains, not a Viewer, not while suspended, not a stranger', async () => {
    const viewer = await buildUser(server.app);
    const keyMaster = await buildUser(server.app);
    const stranger = await buildTeam(server.app);
    const t = await buildTeam(server.app, {
      roleOf: [
        { user: viewer, role: Role.Viewer },
        { user: keyMaster, role: Role.KeyMaster },
      ],
    });
    const host = freshHost();
    const { id, verificationHash } = await buildOrigin(server.app, t.id, { name: host });
    site.route(`/tlprt-${verificationHash}.html`, { body: verificationHash });
    const path = PATHS.origins.verify(t.id, id);

    expect((await api.as(viewer.token).post(path)).status).toBe(403);
    expect((await api.as(stranger.owner.token).post(PATHS.origins.verify(stranger.id, id))).status).toBe(404);
    expect((await api.as(stranger.owner.token).post(path)).status).toBe(404);
    await setTeamState(server.app, t.id, { suspended: 1 });
    expect((await api.as(t.owner.token).post(path)).status).toBe(403);
    await setTeamState(server.app, t.id, { suspended: 0 });
    expect(site.requests).toHaveLength(0);

    const r = await api.as(keyMaster.token).post(path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.verification).toBe('verified');
  });

  it('a row inserted without a file (by a node older than 0020) gets one when listed', async () => {
    const o = await withOrigin(freshHost());
    await server.app.ctx.db
      .updateTable('origins')
      .set({ verification_hash: '' })
      .where('id', '=', o.origin.id)
      .execute();
    const first = await listed(o.as, o.teamId, o.origin.id);
    expect(first.verificationFile?.content).toMatch(/^[0-9a-f]{32}$/);
    expect(first.verificationFile?.content).not.toBe(o.origin.verificationFile?.content);
    expect((await listed(o.as, o.teamId, o.origin.id)).verificationFile).toEqual(first.verificationFile);
  });
});

describe('the integrity service and Origins', () => {
  it('refuses an unverified Origin host (403, nothing fetched) and fetches from it once verified', async () => {
    const host = freshHost();
    const o = await withOrigin(host);
    const { keyHash } = await buildKey(server.app, o.teamId, null);
    const body = randomBytes(3000);
    site.route('/live/seg-1.ts', { body, headers: { 'content-type': 'video/mp2t' } });
    for (const on of [host, `edge.${host}`]) {
      dns.set(on, { A: ['127.0.0.1'] });
      const refused = await api.get(ask(keyHash, urlOn(on, '/live/seg-1.ts')));
      expect(refused.status, on).toBe(403);
      expect(refused.body.message).toBe(MSG_INTEGRITY.hostNotOfKey);
    }
    expect(site.requests).toHaveLength(0);

    const file = o.origin.verificationFile;
    if (!file) throw new Error('no verification file');
    site.route(file.path, { body: file.content });
    expect((await o.as.post(PATHS.origins.verify(o.teamId, o.origin.id))).status).toBe(200);
    clock.advance(PAST_HOSTS_CACHE_MS);
    for (const on of [host, `edge.${host}`]) {
      const r = await api.get(ask(keyHash, urlOn(on, '/live/seg-1.ts')));
      expect(r.status, `${on}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.sha256).toBe(sha(body));
    }
  });

  it('needs no verification under a usable verified domain of the team, for as long as the domain is usable', async () => {
    const t = await buildTeam(server.app);
    const domain = freshHost('d');
    await buildDomain(server.app, t.id, { host: domain, promoted: true });
    const cdn = `cdn.${domain}`;
    dns.set(cdn, { A: ['127.0.0.1'] });
    const as = api.as(t.owner.token);
    const created = await as.post(PATHS.origins.create(t.id), { name: cdn });
    expect(created.body.data).toMatchObject({ host: cdn, verification: 'domain', verificationFile: null });
    // Only a usable domain counts: one in the drafts does not.
    const draft = freshHost('dr');
    await buildDomain(server.app, t.id, { host: draft, verified: true });
    const underDraft = await as.post(PATHS.origins.create(t.id), { name: `cdn.${draft}` });
    expect(underDraft.body.data.verification).toBe('unverified');

    expect(await teamHostRows(server.app.ctx.db, t.id)).toEqual({
      domainHosts: [domain],
      originNames: [cdn],
    });
    await server.app.ctx.db.updateTable('domains').set({ status: 20 }).where('host', '=', domain).execute();
    expect(await teamHostRows(server.app.ctx.db, t.id)).toEqual({ domainHosts: [], originNames: [] });
    expect(await listed(as, t.id, created.body.data.id)).toMatchObject({ verification: 'unverified' });
  });

  it('lists only active, unsuspended Origins that are verified or under a usable domain', async () => {
    const t = await buildTeam(server.app);
    const verified = freshHost('v');
    const inactive = freshHost('i');
    const suspended = freshHost('s');
    await buildOrigin(server.app, t.id, { name: verified, verified: true });
    await buildOrigin(server.app, t.id, { name: freshHost('u') });
    await buildOrigin(server.app, t.id, { name: inactive, verified: true, status: 20 });
    const s = await buildOrigin(server.app, t.id, { name: suspended, verified: true });
    await server.app.ctx.db.updateTable('origins').set({ suspended: 1 }).where('id', '=', s.id).execute();
    expect(await teamHostRows(server.app.ctx.db, t.id)).toEqual({ domainHosts: [], originNames: [verified] });
  });
});

describe('migration 0020_origin_verification', () => {
  const opened: Array<{ db: Db; url: string }> = [];
  afterAll(async () => {
    for (const { db, url } of opened) {
      await db.destroy();
      await dropDatabase(url);
    }
  });

  it('gives every existing Origin its own file, unverified; down removes both columns', async () => {
    const url = await freshDatabaseUrl();
    const db = openDatabase(loadConfig({ DATABASE_URL: url, PUBLIC_URL }).database);
    opened.push({ db, url });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const step = async (p: ReturnType<Migrator['migrateTo']>) => {
      const { error } = await p;
      if (error) throw error;
    };
    await step(migrator.migrateTo('0019_stats_verify_bytes'));
    const now = Date.now();
    const userId = await insertUserIfAbsent(db, {
      email: 'o@example.test',
      supervisor: false,
      subscription: false,
      createdAt: now,
    });
    if (userId === undefined) throw new Error('no user');
    const teamId = await insertTeamWithMember(db, { name: 'T', createdAt: now }, { userId, role: 10 });
    await db
      .insertInto('domains')
      .values({
        team_id: teamId,
        host: 'example.test',
        name: 'example.test',
        verification: 1,
        verification_hash: 'h'.repeat(32),
        draft: 1,
        status: 10,
        created_at: now,
      })
      .execute();
    // Inserted as the schema stood before 0020 (no verification columns).
    for (const name of ['cdn.example.test', 'elsewhere.test', 'Main storage']) {
      await sql`insert into origins (team_id, name, created_at) values (${teamId}, ${name}, ${now})`.execute(
        db,
      );
    }

    await migrateToLatest(db);
    const rows = await db
      .selectFrom('origins')
      .select(['name', 'verification_hash', 'verified_at'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.verified_at)).toEqual([null, null, null]);
    const hashes = rows.map((r) => r.verification_hash);
    for (const h of hashes) expect(h).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(hashes).size).toBe(3);
    // The Origin under the verified domain is still fetched from; the other one waits for its team.
    expect((await teamHostRows(db, teamId)).originNames).toEqual(['cdn.example.test']);

    await step(migrator.migrateTo('0019_stats_verify_bytes'));
    const columns = (await db.introspection.getTables())
      .find((t) => t.name === 'origins')
      ?.columns.map((c) => c.name);
    expect(columns).not.toContain('verification_hash');
    expect(columns).not.toContain('verified_at');
    await migrateToLatest(db);
  });
});
