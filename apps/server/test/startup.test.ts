import { PATHS, Role } from '@tlprt/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { DEMO_ACCOUNTS, seedDemo } from '../src/demo/seed.js';
import { buildUser } from './factories.js';
import { Api } from './helpers/http.js';
import { dropDatabase, freshDatabaseUrl, startServer } from './helpers/server.js';

describe('configuration', () => {
  it('has the defaults of docs/DESIGN.md §3', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      smtpUrl: undefined,
      mailFrom: 'no-reply@localhost',
      supportEmail: 'support@localhost',
      verifyHttpPort: 80,
      verifyAllowPrivate: false,
      supervisorEmails: [],
      statsIngestFlushMs: 2000,
      demoSeed: false,
      nodeEnv: 'development',
    });
    expect(c.database).toMatchObject({ kind: 'sqlite' });
    expect(c.database.kind === 'sqlite' && c.database.path.endsWith('/data/dashboard.db')).toBe(true);
    expect(c.webDist).toMatch(/apps\/web\/dist$/);
  });

  it('derives PUBLIC_URL from PORT and parses lists and flags', () => {
    const c = loadConfig({
      PORT: '9000',
      SUPERVISOR_EMAILS: ' A@x.io ,b@y.io,',
      DEMO_SEED: 'true',
      DNS_SERVERS: '127.0.0.1:5353',
    });
    expect(c.publicUrl).toBe('http://localhost:9000');
    expect(c.supervisorEmails).toEqual(['a@x.io', 'b@y.io']);
    expect(c.demoSeed).toBe(true);
    expect(c.dnsServers).toEqual(['127.0.0.1:5353']);
  });

  it('refuses bad values with a message naming the variable', () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['DATABASE_URL', 'mysql://x'],
      ['PUBLIC_URL', 'not a url'],
      ['SMTP_URL', 'http://mail'],
      ['DEMO_SEED', 'maybe'],
      ['NODE_ENV', 'staging'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
    }
  });
});

describe('TRUST_PROXY and ICE_SERVERS', () => {
  it('TRUST_PROXY takes a number of hops or proxy addresses, never "true"', () => {
    expect(loadConfig({}).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual({
      kind: 'addresses',
      list: ['10.0.0.0/8', '127.0.0.1'],
    });
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: "true" would believe the left-most/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses a static TURN secret and a turn: URL without TURN_SECRET, saying what to set instead', () => {
    expect(() => loadConfig({ ICE_SERVERS: 'turn:alice:secret@turn.example:3478' })).toThrow(
      /ICE_SERVERS: a turn: URL with a user and secret .* set TURN_SECRET/,
    );
    expect(() => loadConfig({ ICE_SERVERS: 'turn:turn.example:3478' })).toThrow(/TURN_SECRET: required/);
    expect(() => loadConfig({ ICE_SERVERS: 'turn:turn.example:3478', TURN_SECRET: 'short' })).toThrow(
      /TURN_SECRET/,
    );
    const c = loadConfig({
      ICE_SERVERS: 'stun:stun.example:3478,turns:turn.example:5349?transport=tcp',
      TURN_SECRET: 'a-long-shared-secret',
    });
    expect(c.ice).toEqual({
      stun: ['stun:stun.example:3478'],
      turn: ['turns:turn.example:5349?transport=tcp'],
      turnSecret: 'a-long-shared-secret',
      turnTtlS: 4 * 3600,
    });
  });
});

describe('start-up data', () => {
  const urls: string[] = [];
  afterAll(async () => {
    for (const u of urls) await dropDatabase(u);
  });

  it('SUPERVISOR_EMAILS flags existing accounts at start', async () => {
    const databaseUrl = await freshDatabaseUrl();
    urls.push(databaseUrl);
    const first = await startServer({ databaseUrl });
    const u = await buildUser(first.app);
    await first.close();

    const second = await startServer({ databaseUrl, env: { SUPERVISOR_EMAILS: u.email } });
    try {
      const me = await new Api(second.base).as(u.token).get(PATHS.auth.check);
      expect(me.body.data.supervisor).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('the demo seed is idempotent and gives the demo and supervisor accounts', async () => {
    const server = await startServer();
    try {
      await seedDemo(server.app.ctx);
      await seedDemo(server.app.ctx);
      const api = new Api(server.base);
      const demo = await api.post(PATHS.auth.login, {
        login: DEMO_ACCOUNTS.demo.email,
        password: DEMO_ACCOUNTS.demo.password,
      });
      expect(demo.status).toBe(200);
      const me = (await api.as(demo.body.access_token).get(PATHS.auth.check)).body.data;
      expect(me).toMatchObject({ name: 'Demo', surname: 'User', supervisor: false });
      expect(me.TeamsRender.map((t: { name: string; role: number }) => [t.name, t.role])).toEqual([
        ['Demo Video Co', Role.Admin],
        ['Partner Streams', Role.Viewer],
      ]);
      // The demo team has a Key master and a Viewer; the demo account has a pending invitation.
      const token = demo.body.access_token;
      const demoTeam = (await api.as(token).get(PATHS.teams.read(me.TeamsRender[0].id))).body.data;
      expect(demoTeam.users.map((u: { email: string; roles: number }) => [u.email, u.roles])).toEqual([
        [DEMO_ACCOUNTS.demo.email, Role.Admin],
        ['keymaster@tlprt.local', Role.KeyMaster],
        ['viewer@tlprt.local', Role.Viewer],
      ]);
      const invites = (await api.as(token).post(PATHS.invitations.mine)).body.data;
      expect(invites).toHaveLength(1);
      expect(invites[0]).toMatchObject({
        status: 10,
        role: Role.KeyMaster,
        team: { name: 'Partner Labs' },
        inviting_user: { email: 'partner@tlprt.local' },
      });
      // Issue 4: domains (2 active, 1 inactive promoted, 1 draft), named keys, a team-wide key, an origin.
      const teamId = me.TeamsRender[0].id;
      const domains = (await api.as(token).post(PATHS.domains.list(teamId))).body;
      expect(
        domains.verified.map((d: { url: string; status: { id: number } }) => [d.url, d.status.id]),
      ).toEqual([
        ['demo-video.example', 10],
        ['live.demo-video.example', 10],
        ['archive.demo-video.example', 20],
      ]);
      expect(
        domains.verified.every((d: { verificationMethod: { id: number } }) => d.verificationMethod.id === 5),
      ).toBe(true);
      expect(
        domains.drafts.map((d: { url: string; verification: { id: number } }) => [d.url, d.verification.id]),
      ).toEqual([['new.demo-video.example', 0]]);
      for (const d of domains.verified.slice(0, 2)) {
        expect(d.keys.length).toBeGreaterThanOrEqual(2);
        expect(d.keys.every((k: { name: string }) => k.name.length > 0)).toBe(true);
      }
      const keys = (await api.as(token).post(PATHS.keys.list(teamId))).body.data;
      expect(keys.filter((k: { domainId: number | null }) => k.domainId === null)).toHaveLength(1);
      expect(new Set(keys.map((k: { keyHash: string }) => k.keyHash)).size).toBe(keys.length);
      const origins = (await api.as(token).get(PATHS.origins.list(teamId))).body.data;
      expect(origins).toHaveLength(1);

      const sup = await api.post(PATHS.auth.login, {
        login: DEMO_ACCOUNTS.supervisor.email,
        password: DEMO_ACCOUNTS.supervisor.password,
      });
      expect((await api.as(sup.body.access_token).get(PATHS.auth.check)).body.data.supervisor).toBe(true);
    } finally {
      await server.close();
    }
  });
});
