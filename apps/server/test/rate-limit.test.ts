import { MSG, PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKey, buildTeam, buildUser, uniqueEmail } from './factories.js';
import { Api, postFrom } from './helpers/http.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';

/** POST /auth/guest/auth from a chosen loopback address (127.0.0.2, 127.0.0.3, ...): the server sees it. */
const loginFrom = (base: string, address: string, login: string, password: string) =>
  postFrom(base, address, PATHS.auth.login, { login, password });

describe('failed sign-ins (lowered limits)', () => {
  const clock = manualClock();
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({
      deps: {
        now: clock,
        rateLimits: {
          loginFailuresPerLoginAndAddress: 3,
          loginFailuresPerAddress: 6,
          loginSlowdownAfter: 3,
          loginMaxDelayMs: 300,
          failureWindowMs: 60_000,
          guestPerMinute: 10_000,
        },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  const login = (address: string, email: string, password: string) =>
    loginFrom(server.base, address, email, password);

  it('locks a login for the guessing address only: the owner signs in from another address', async () => {
    const u = await buildUser(server.app);
    for (let i = 0; i < 3; i++) expect((await login('127.0.0.2', u.email, 'wrong-one')).status).toBe(401);
    const blocked = await login('127.0.0.2', u.email, u.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ message: MSG.tooManyRequests });
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    // The real owner, elsewhere: slowed down (past loginSlowdownAfter), not refused.
    expect((await login('127.0.0.3', u.email, u.password)).status).toBe(200);
    clock.advance(61_000);
    expect((await login('127.0.0.2', u.email, u.password)).status).toBe(200);
  });

  it('failures spread over many addresses never lock the login; each address is locked on its own', async () => {
    const u = await buildUser(server.app);
    for (const last of [4, 5, 6, 7]) {
      for (let i = 0; i < 3; i++) await login(`127.0.0.${last}`, u.email, 'wrong-one');
      expect((await login(`127.0.0.${last}`, u.email, u.password)).status).toBe(429);
    }
    expect((await login('127.0.0.8', u.email, u.password)).status).toBe(200);
    clock.advance(61_000);
  });

  it('a success clears the count for that login and address', async () => {
    const u = await buildUser(server.app);
    // 2 + 2 failures would pass the limit of 3 if the success in between did not reset it.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) await login('127.0.0.9', u.email, 'wrong-one');
      expect((await login('127.0.0.9', u.email, u.password)).status).toBe(200);
    }
    clock.advance(61_000);
  });

  it('locks one address after failures across many logins', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await login('127.0.0.10', uniqueEmail(), 'nope-nope')).status).toBe(401);
    }
    const u = await buildUser(server.app);
    const r = await login('127.0.0.10', u.email, u.password);
    expect(r.status).toBe(429);
    expect(r.retryAfter).toBeTruthy();
    expect((await login('127.0.0.11', u.email, u.password)).status).toBe(200);
    clock.advance(61_000);
    expect((await login('127.0.0.10', u.email, u.password)).status).toBe(200);
  });
});

describe('failed sign-ins are counted in the database', () => {
  const clock = manualClock();
  const limits = {
    loginFailuresPerLoginAndAddress: 3,
    confirmFailuresPerUser: 3,
    loginFailuresPerAddress: 1000,
    failureWindowMs: 60_000,
    guestPerMinute: 10_000,
  };
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    one = await startServer({ deps: { now: clock, rateLimits: limits } });
    two = await startServer({ databaseUrl: one.databaseUrl, deps: { now: clock, rateLimits: limits } });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('two server nodes on one database share the count; logins are stored hashed', async () => {
    const u = await buildUser(one.app);
    const [a, b] = [new Api(one.base), new Api(two.base)];
    // 2 failures on one node and 1 on the other: past the limit of 3 on both.
    for (const node of [a, b, a]) {
      expect((await node.post(PATHS.auth.login, { login: u.email, password: 'wrong-one' })).status).toBe(401);
    }
    for (const node of [a, b]) {
      expect((await node.post(PATHS.auth.login, { login: u.email, password: u.password })).status).toBe(429);
    }
    const rows = await one.app.ctx.db.selectFrom('login_failures').selectAll().execute();
    expect(rows.some((r) => r.key_hash.includes(u.email) || r.key_hash.includes('@'))).toBe(false);
    expect(rows.find((r) => r.scope === 'login')?.count).toBe(3);
    clock.advance(61_000);
    expect((await b.post(PATHS.auth.login, { login: u.email, password: u.password })).status).toBe(200);
  });

  it('a wrong password confirming a change counts too: a stolen session cannot guess without limit', async () => {
    const u = await buildUser(one.app);
    const api = new Api(one.base).as(u.token);
    const change = (password: string) =>
      api.post(PATHS.account.changePassword(u.id), {
        password,
        new_password: 'brand-new',
        confirm: 'brand-new',
      });
    // Outsiders failing to sign in as this account do not count against its confirmations.
    for (let i = 0; i < 3; i++) {
      await loginFrom(two.base, '127.0.0.20', u.email, 'outsider-guess');
    }
    expect((await change('guess-guess')).status).toBe(400);
    for (let i = 0; i < 2; i++) expect((await change('guess-guess')).status).toBe(400);
    // Locked now on every node, the right password included.
    const locked = await change(u.password);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ message: MSG.tooManyRequests });
    const other = new Api(two.base).as(u.token);
    expect(
      (
        await other.post(PATHS.account.changePassword(u.id), {
          password: u.password,
          new_password: 'x-new-1',
          confirm: 'x-new-1',
        })
      ).status,
    ).toBe(429);
    clock.advance(61_000);
    expect((await change(u.password)).status).toBe(200);
  });
});

describe('guest calls per address per minute', () => {
  let server: TestServer;
  let api: Api;

  beforeAll(async () => {
    server = await startServer({ deps: { rateLimits: { guestPerMinute: 5 } } });
    api = new Api(server.base);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 429 with Retry-After past the limit, on every guest route together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await api.get(PATHS.auth.checkHash('A'.repeat(43)))).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
    const r = await api.post(PATHS.auth.login, { login: 'a@b.co', password: 'x' });
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ message: MSG.tooManyRequests });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // Non-guest calls are not limited by it.
    expect((await api.get(PATHS.dictionaries.serverTime)).status).toBe(200);
  });

  it("does not count the player plugin's settings reads: every viewer behind one address reads them", async () => {
    const key = (await buildKey(server.app, (await buildTeam(server.app)).id, null)).keyHash;
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) statuses.add((await api.get(PATHS.keySettings.publicRead(key))).status);
    expect([...statuses]).toEqual([200]);
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  // The test client connects from loopback: that hop is the proxy; X-Forwarded-For carries the rest.
  for (const trust of ['1', '127.0.0.1/8']) {
    it(`TRUST_PROXY=${trust}: the client is the first untrusted hop from the right, whatever it wrote on the left`, async () => {
      const server = await startServer({
        env: { TRUST_PROXY: trust },
        deps: { rateLimits: { guestPerMinute: 3 } },
      });
      try {
        const api = new Api(server.base);
        const check = (forwardedFor: string) =>
          api.get(PATHS.auth.checkHash('A'.repeat(43)), { 'x-forwarded-for': forwardedFor });
        const statuses: number[] = [];
        // An attacker rotating the left-most entry stays one client (203.0.113.7, appended by the proxy).
        for (let i = 0; i < 5; i++) statuses.push((await check(`10.9.${i}.1, 203.0.113.7`)).status);
        expect(statuses).toEqual([404, 404, 404, 429, 429]);
        // Another client behind the same proxy has its own budget.
        expect((await check('203.0.113.8')).status).toBe(404);
      } finally {
        await server.close();
      }
    });
  }
});
