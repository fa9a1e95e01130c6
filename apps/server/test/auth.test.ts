import { EventCode, MSG, PATHS, TIMINGS, ZCheckResponse, ZLoginResponse } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, uniqueEmail } from './factories.js';
import { Api } from './helpers/http.js';
import { manualClock, PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { hashOf, startSmtp, type TestSmtp } from './helpers/smtp.js';
import { openStream } from './helpers/sse.js';

const clock = manualClock();
let smtp: TestSmtp;
let server: TestServer;
let api: Api;

const paths = {
  createPath: `${PUBLIC_URL}/createPassword/`,
  resetPath: `${PUBLIC_URL}/resPassword`,
  loginPath: `${PUBLIC_URL}/`,
};

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ env: { SMTP_URL: smtp.url }, deps: { now: clock } });
  api = new Api(server.base);
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function register(login: string) {
  return api.post(PATHS.auth.register, { login, ...paths, offer: true, subscription: false });
}

async function login(login: string, password: string) {
  return api.post(PATHS.auth.login, { login, password });
}

describe('POST /auth/guest/auth', () => {
  it('signs in with the right password and returns the token at both levels', async () => {
    const u = await buildUser(server.app);
    const r = await login(u.email, u.password);
    expect(r.status).toBe(200);
    const body = ZLoginResponse.parse(r.body);
    expect(body.access_token).toBe(body.data.access_token);
    expect(body.data.user_id).toBe(u.id);
    expect(body.data.token_type).toBe('Bearer');
    expect((await api.as(body.access_token).get(PATHS.auth.check)).status).toBe(200);
  });

  it('accepts the e-mail in any case and with spaces', async () => {
    const u = await buildUser(server.app);
    expect((await login(`  ${u.email.toUpperCase()} `, u.password)).status).toBe(200);
  });

  it('refuses a wrong password, an unknown e-mail and an account without password alike', async () => {
    const u = await buildUser(server.app);
    const noPassword = await buildUser(server.app, { password: null });
    for (const [l, p] of [
      [u.email, 'wrong-password'],
      [uniqueEmail(), 'whatever1'],
      [noPassword.email, 'whatever1'],
    ] as const) {
      const r = await login(l, p);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ message: MSG.incorrectLogin });
    }
  });

  it('accepts form-urlencoded and multipart bodies', async () => {
    const u = await buildUser(server.app);
    expect((await api.postForm(PATHS.auth.login, { login: u.email, password: u.password })).status).toBe(200);
    expect((await api.postMultipart(PATHS.auth.login, { login: u.email, password: u.password })).status).toBe(
      200,
    );
  });
});

describe('registration', () => {
  it('register → mail over SMTP → check hash → set password → signed in → login works', async () => {
    const email = uniqueEmail('new');
    const r = await register(email);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ message: MSG.registered });

    const mail = await smtp.waitFor(email);
    expect(mail.text).toContain('help@dashboard.test');
    expect(mail.html).toContain('help@dashboard.test');
    const link = mail.links.find((l) => l.startsWith(`${PUBLIC_URL}/createPassword/`));
    expect(link).toBeDefined();
    const hash = hashOf(link ?? '');
    expect(link).toBe(`${PUBLIC_URL}/createPassword/${hash}`);

    const check = await api.get(PATHS.auth.checkHash(hash));
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ message: MSG.hashValid, data: { kind: 'register' } });

    const set = await api.post(PATHS.auth.setNewPassword, {
      hash,
      password: 'secret-1',
      confirm: 'secret-1',
    });
    expect(set.status).toBe(200);
    const session = ZLoginResponse.parse(set.body);
    const me = ZCheckResponse.parse((await api.as(session.access_token).get(PATHS.auth.check)).body);
    expect(me.data.email).toBe(email);
    expect(me.data.changePasswordAt).not.toBeNull();
    expect(me.data.TeamsRender).toEqual([]);
    expect(JSON.stringify(me)).not.toMatch(/password_hash|argon2/);

    expect((await login(email, 'secret-1')).status).toBe(200);
    // The link was single-use.
    expect(
      (await api.post(PATHS.auth.setNewPassword, { hash, password: 'other-12', confirm: 'other-12' })).status,
    ).toBe(404);
    expect((await api.get(PATHS.auth.checkHash(hash))).status).toBe(404);
  });

  it('answers the same for an existing account, but mails a sign-in and reset notice', async () => {
    const u = await buildUser(server.app);
    const r = await register(u.email);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ message: MSG.registered });
    const mail = await smtp.waitFor(u.email);
    expect(mail.subject).toMatch(/already have an account/i);
    expect(mail.links).toContain(paths.loginPath);
    const reset = mail.links.find((l) => l.startsWith(`${PUBLIC_URL}/resPassword/`));
    expect(reset).toBeDefined();
    expect((await api.get(PATHS.auth.checkHash(hashOf(reset ?? '')))).body).toEqual({
      message: MSG.hashValid,
      data: { kind: 'recovery' },
    });
  });

  it('mails a fresh sign-up link to an account that never set its password; the older link dies', async () => {
    const email = uniqueEmail('twice');
    await register(email);
    const first = hashOf((await smtp.waitFor(email)).links[0] ?? '');
    await register(email);
    const second = await smtp.waitFor(email, (m) => !m.links.some((l) => l.endsWith(first)));
    expect(second.subject).toMatch(/create a password/i);
    expect((await api.get(PATHS.auth.checkHash(first))).status).toBe(404);
    expect((await api.get(PATHS.auth.checkHash(hashOf(second.links[0] ?? '')))).status).toBe(200);
  });

  it('requires the terms (offer)', async () => {
    const r = await api.post(PATHS.auth.register, { login: uniqueEmail(), ...paths, offer: false });
    expect(r.status).toBe(400);
    expect(r.body.errors.offer).toBe(MSG.termsRequired);
  });

  it('refuses link bases on another origin', async () => {
    for (const field of ['createPath', 'resetPath', 'loginPath'] as const) {
      const r = await api.post(PATHS.auth.register, {
        login: uniqueEmail(),
        ...paths,
        [field]: 'https://evil.example/steal/',
        offer: true,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ message: MSG.foreignLinkBase, errors: { [field]: MSG.foreignLinkBase } });
    }
    const rec = await api.post(PATHS.auth.recoveryPassword, {
      login: uniqueEmail(),
      url: 'http://dashboard.test.evil.example/',
    });
    expect(rec.status).toBe(400);
    expect(rec.body.errors.url).toBe(MSG.foreignLinkBase);
  });

  it('gives a new e-mail of SUPERVISOR_EMAILS the supervisor flag when it registers', async () => {
    const email = uniqueEmail('boss');
    const s = await startServer({
      env: { SMTP_URL: smtp.url, SUPERVISOR_EMAILS: `x@y.z, ${email.toUpperCase()}` },
    });
    try {
      const a = new Api(s.base);
      await a.post(PATHS.auth.register, { login: email, ...paths, offer: true });
      const hash = hashOf((await smtp.waitFor(email)).links[0] ?? '');
      const set = await a.post(PATHS.auth.setNewPassword, {
        hash,
        password: 'secret-1',
        confirm: 'secret-1',
      });
      const me = await a.as(set.body.access_token).get(PATHS.auth.check);
      expect(me.body.data.supervisor).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe('password recovery', () => {
  it('recovery → mail → reset: old password fails, new works, old sessions are revoked and told (20)', async () => {
    const u = await buildUser(server.app);
    const oldSession = (await login(u.email, u.password)).body.access_token as string;
    const stream = await openStream(server.base, oldSession);
    await stream.waitFor((raw) => raw.includes(': connected'));

    const r = await api.post(PATHS.auth.recoveryPassword, {
      login: u.email,
      url: `${PUBLIC_URL}/resPassword/`,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: MSG.recoverySent });
    const mail = await smtp.waitFor(u.email, (m) => /reset your password/i.test(m.subject));
    const link = mail.links.find((l) => l.startsWith(`${PUBLIC_URL}/resPassword/`)) ?? '';
    const hash = hashOf(link);

    const reset = await api.post(PATHS.auth.passwordRecoveryAccept, {
      hash,
      password: 'brand-new-1',
      confirm: 'brand-new-1',
    });
    expect(reset.status).toBe(200);
    const fresh = ZLoginResponse.parse(reset.body).access_token;

    expect(await stream.waitForEvent(EventCode.ForcedLogoutPassword)).toEqual({ code: 20 });
    await stream.ended;
    expect((await api.as(oldSession).get(PATHS.auth.check)).status).toBe(401);
    expect((await api.as(u.token).get(PATHS.auth.check)).status).toBe(401);
    expect((await api.as(fresh).get(PATHS.auth.check)).status).toBe(200);
    expect((await login(u.email, u.password)).status).toBe(401);
    expect((await login(u.email, 'brand-new-1')).status).toBe(200);
    // Single use.
    const again = await api.post(PATHS.auth.passwordRecoveryAccept, {
      hash,
      password: 'brand-new-2',
      confirm: 'brand-new-2',
    });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: MSG.linkExpiredTitle });
  });

  it('answers the same for an unknown e-mail and mails nothing', async () => {
    const email = uniqueEmail('ghost');
    const r = await api.post(PATHS.auth.recoveryPassword, {
      login: email,
      url: `${PUBLIC_URL}/resPassword/`,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: MSG.recoverySent });
    await expect(smtp.waitFor(email, undefined, 500)).rejects.toThrow();
  });

  it('a register link does not work on the recovery-accept call', async () => {
    const email = uniqueEmail('kind');
    await register(email);
    const hash = hashOf((await smtp.waitFor(email)).links[0] ?? '');
    const r = await api.post(PATHS.auth.passwordRecoveryAccept, {
      hash,
      password: 'secret-1',
      confirm: 'secret-1',
    });
    expect(r.status).toBe(404);
    // ... and was not spent by the failed attempt.
    expect((await api.get(PATHS.auth.checkHash(hash))).status).toBe(200);
  });

  it('links expire after 24 hours (injected clock)', async () => {
    const u = await buildUser(server.app);
    await api.post(PATHS.auth.recoveryPassword, { login: u.email, url: `${PUBLIC_URL}/resPassword/` });
    const hash = hashOf((await smtp.waitFor(u.email)).links[0] ?? '');
    expect((await api.get(PATHS.auth.checkHash(hash))).status).toBe(200);
    clock.advance(TIMINGS.linkTtlMs + 1000);
    expect((await api.get(PATHS.auth.checkHash(hash))).body).toEqual({ message: MSG.hashInvalid });
    const r = await api.post(PATHS.auth.passwordRecoveryAccept, {
      hash,
      password: 'secret-1',
      confirm: 'secret-1',
    });
    expect(r.status).toBe(404);
  });

  it('a link can be used once even by concurrent requests', async () => {
    const u = await buildUser(server.app);
    await api.post(PATHS.auth.recoveryPassword, { login: u.email, url: `${PUBLIC_URL}/resPassword/` });
    const hash = hashOf((await smtp.waitFor(u.email)).links[0] ?? '');
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        api.post(PATHS.auth.passwordRecoveryAccept, {
          hash,
          password: `concurrent-${i}`,
          confirm: `concurrent-${i}`,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
  });
});

describe('check_hash', () => {
  it('answers "hash invalid" for unknown, malformed and overlong hashes', async () => {
    expect((await api.get(PATHS.auth.checkHash('A'.repeat(43)))).body).toEqual({ message: MSG.hashInvalid });
    expect((await api.get(PATHS.auth.checkHash('not a hash!'))).status).toBe(400);
    expect((await api.get(PATHS.auth.checkHash('x'.repeat(300)))).status).toBe(400);
  });
});

describe('sessions', () => {
  it('logout revokes the token', async () => {
    const u = await buildUser(server.app);
    const a = api.as(u.token);
    expect((await a.get(PATHS.auth.check)).status).toBe(200);
    const out = await a.get(PATHS.auth.logout);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: MSG.loggedOut });
    const after = await a.get(PATHS.auth.check);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: MSG.unauthorized });
  });

  it('refuses missing, malformed, unknown and expired tokens with 401', async () => {
    expect((await api.get(PATHS.auth.check)).status).toBe(401);
    expect((await api.get(PATHS.auth.check, { authorization: 'Basic abc' })).status).toBe(401);
    expect((await api.as('x'.repeat(43)).get(PATHS.auth.check)).status).toBe(401);
    const u = await buildUser(server.app);
    clock.advance(TIMINGS.sessionTtlMs + 1000);
    expect((await api.as(u.token).get(PATHS.auth.check)).status).toBe(401);
  });

  it('GET /auth/v1/check returns the user with TeamsRender', async () => {
    const u = await buildUser(server.app);
    const r = await api.as(u.token).get(PATHS.auth.check);
    expect(r.status).toBe(200);
    const body = ZCheckResponse.parse(r.body);
    expect(body.data).toMatchObject({
      id: u.id,
      email: u.email,
      supervisor: false,
      userStatusId: 10,
      image: 0,
    });
  });
});
