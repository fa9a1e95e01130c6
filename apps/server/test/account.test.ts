import {
  EventCode,
  linkBases,
  MSG,
  MSG_TEAMS,
  PATHS,
  Role,
  TIMINGS,
  ZDeleteInfoResponse,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BuiltUser,
  buildSession,
  buildTeam,
  buildUser,
  setTeamState,
  uniqueEmail,
} from './factories.js';
import { settle, streamsOf } from './helpers/events.js';
import { Api } from './helpers/http.js';
import { manualClock, PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';
import { openStream } from './helpers/sse.js';

const clock = manualClock();
let smtp: TestSmtp;
let server: TestServer;
let api: Api;
const links = linkBases(PUBLIC_URL);

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ env: { SMTP_URL: smtp.url }, deps: { now: clock } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function linkMail(to: string, subject: RegExp, after: number) {
  const mail = await smtp.waitFor(to, (m) => smtp.mails.indexOf(m) >= after && subject.test(m.subject));
  const link = mail.links[0] ?? '';
  return { mail, link, hash: link.split('/').pop() ?? '' };
}

describe('change password', () => {
  it('checks the current password; signs out every other session (20) but keeps this one', async () => {
    const u = await buildUser(server.app);
    const other = await buildSession(server.app, u.id);
    const wrong = await api.as(u.token).post(PATHS.account.changePassword(u.id), {
      password: 'wrong-one',
      new_password: 'brand-new',
      confirm: 'brand-new',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: 'Incorrect password', errors: { password: 'Incorrect password' } });
    const mismatch = await api.as(u.token).post(PATHS.account.changePassword(u.id), {
      password: u.password,
      new_password: 'brand-new',
      confirm: 'brand-old',
    });
    expect(mismatch.body.errors).toEqual({ confirm: MSG.passwordsDoNotMatch });

    const mine = await openStream(server.base, u.token);
    const theirs = await openStream(server.base, other);
    await Promise.all([mine, theirs].map((s) => s.waitFor((raw) => raw.includes(': connected'))));
    const ok = await api.as(u.token).post(PATHS.account.changePassword(u.id), {
      password: u.password,
      new_password: 'brand-new',
      confirm: 'brand-new',
    });
    expect(ok.status).toBe(200);
    expect(await theirs.waitForEvent(EventCode.ForcedLogoutPassword)).toEqual({ code: 20 });
    await theirs.ended;
    expect((await api.as(other).get(PATHS.auth.check)).status).toBe(401);
    expect((await api.as(u.token).get(PATHS.auth.check)).status).toBe(200);
    await settle();
    expect(mine.events()).toEqual([]);
    expect((await api.post(PATHS.auth.login, { login: u.email, password: 'brand-new' })).status).toBe(200);
    const someoneElse = await buildUser(server.app);
    expect(
      (
        await api.as(u.token).post(PATHS.account.changePassword(someoneElse.id), {
          password: 'x',
          new_password: 'yyyyyy',
          confirm: 'yyyyyy',
        })
      ).status,
    ).toBe(403);
    mine.close();
  });
});

describe('change e-mail', () => {
  const request = (u: BuiltUser, email: string, password = u.password) =>
    api.as(u.token).post(PATHS.account.changeEmail(u.id), { password, email, url: links.changeEmail });

  it('mails the new address; accept needs the owner; works once; then the e-mail is changed', async () => {
    const u = await buildUser(server.app);
    const taken = await buildUser(server.app);
    expect((await request(u, uniqueEmail(), 'wrong')).body).toEqual({
      message: 'Incorrect password',
      errors: { password: 'Incorrect password' },
    });
    const inUse = await request(u, taken.email);
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toBe(MSG_TEAMS.emailInUse);
    expect(
      (
        await api.as(u.token).post(PATHS.account.changeEmail(u.id), {
          password: u.password,
          email: uniqueEmail(),
          url: 'https://evil.test/e/',
        })
      ).status,
    ).toBe(400);

    const fresh = uniqueEmail('fresh');
    const at = smtp.mails.length;
    expect((await request(u, fresh)).status).toBe(200);
    const { link, hash, mail } = await linkMail(fresh, /new e-mail/, at);
    expect(link).toBe(`${links.changeEmail}${hash}`);
    expect(mail.text).toContain('help@dashboard.test');
    expect((await api.as(u.token).get(PATHS.auth.check)).body.data).toMatchObject({
      statusChangeEmail: 10,
      newChangeEmail: fresh,
    });

    expect((await api.as(taken.token).post(PATHS.account.changeEmailAccept, { hash })).status).toBe(403);
    const ok = await api.as(u.token).post(PATHS.account.changeEmailAccept, { hash });
    expect(ok).toMatchObject({ status: 200, body: { message: 'success' } });
    expect((await api.as(u.token).post(PATHS.account.changeEmailAccept, { hash })).status).toBe(404);
    expect((await api.as(u.token).get(PATHS.auth.check)).body.data).toMatchObject({
      email: fresh,
      statusChangeEmail: 0,
      newChangeEmail: null,
    });
    expect((await api.post(PATHS.auth.login, { login: fresh, password: u.password })).status).toBe(200);
  });

  it('resend kills the old link; revoke kills the request; links expire in 24 h', async () => {
    const u = await buildUser(server.app);
    const target = uniqueEmail('target');
    let at = smtp.mails.length;
    await request(u, target);
    const first = await linkMail(target, /new e-mail/, at);
    at = smtp.mails.length;
    expect(
      (await api.as(u.token).post(PATHS.account.changeEmailResend, { url: links.changeEmail })).status,
    ).toBe(200);
    const second = await linkMail(target, /new e-mail/, at);
    expect((await api.as(u.token).post(PATHS.account.changeEmailAccept, { hash: first.hash })).status).toBe(
      404,
    );
    expect((await api.as(u.token).post(PATHS.account.changeEmailRevoke, {})).status).toBe(200);
    expect((await api.as(u.token).post(PATHS.account.changeEmailAccept, { hash: second.hash })).status).toBe(
      404,
    );
    expect((await api.as(u.token).get(PATHS.auth.check)).body.data.statusChangeEmail).toBe(0);
    expect((await api.as(u.token).post(PATHS.account.changeEmailRevoke)).status).toBe(409);

    at = smtp.mails.length;
    await request(u, target);
    const third = await linkMail(target, /new e-mail/, at);
    clock.advance(TIMINGS.linkTtlMs + 1000);
    expect((await api.as(u.token).post(PATHS.account.changeEmailAccept, { hash: third.hash })).status).toBe(
      404,
    );
  });

  it('is refused (403) while the account deletion is in progress', async () => {
    const u = await buildUser(server.app);
    expect(
      (
        await api
          .as(u.token)
          .send('DELETE', PATHS.account.remove(u.id), { password: u.password, url: links.deleteUser })
      ).status,
    ).toBe(200);
    expect((await request(u, uniqueEmail())).status).toBe(403);
  });
});

describe('POST /api/v1/user/{id}/info_delete', () => {
  const check = async (u: BuiltUser) => {
    const r = await api.as(u.token).post(PATHS.account.deletionInfo(u.id));
    expect(r.status).toBe(200);
    return ZDeleteInfoResponse.parse(r.body).data;
  };

  it('produces each status from a real setup', async () => {
    const none = await buildUser(server.app);
    expect(await check(none)).toMatchObject({ status: 200, teams: [], arrayCannotDelete: [] });

    const solo = await buildUser(server.app);
    const soloTeam = await buildTeam(server.app, { owner: solo, name: 'Solo' });
    expect(await check(solo)).toMatchObject({
      status: 201,
      teams: [{ id: soloTeam.id, name: 'Solo', role: 10 }],
    });

    const coAdmin = await buildUser(server.app);
    await buildTeam(server.app, { roleOf: [{ user: coAdmin, role: Role.Admin }] });
    expect((await check(coAdmin)).status).toBe(202);

    const viewer = await buildUser(server.app);
    await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
    await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.KeyMaster }] });
    expect((await check(viewer)).status).toBe(203);

    const inSuspended = await buildUser(server.app);
    const susp = await buildTeam(server.app, { roleOf: [{ user: inSuspended, role: Role.Viewer }] });
    await setTeamState(server.app, susp.id, { suspended: 1 });
    expect(await check(inSuspended)).toMatchObject({ status: 400, arrayCannotDelete: [{ id: susp.id }] });

    const sole = await buildUser(server.app);
    const member = await buildUser(server.app);
    const one = await buildTeam(server.app, { owner: sole, roleOf: [{ user: member, role: Role.Viewer }] });
    const r401 = await check(sole);
    expect(r401).toMatchObject({
      status: 401,
      statusMessage: MSG_TEAMS.soleAdminText,
      arrayCannotDelete: [{ id: one.id, role: 10 }],
    });
    const two = await buildTeam(server.app, {
      owner: sole,
      roleOf: [{ user: member, role: Role.KeyMaster }],
    });
    const r402 = await check(sole);
    expect(r402.status).toBe(402);
    expect(r402.arrayCannotDelete.map((t) => t.id)).toEqual([one.id, two.id]);
    // Only 2xx may go on.
    expect(
      (
        await api
          .as(sole.token)
          .send('DELETE', PATHS.account.remove(sole.id), { password: sole.password, url: links.deleteUser })
      ).status,
    ).toBe(409);
    expect((await api.as(sole.token).post(PATHS.account.deletionInfo(member.id))).status).toBe(403);
  });
});

describe('account deletion', () => {
  it('request → mail → accept: solo team deleted, memberships end (41), status 40, every session out (100)', async () => {
    const u = await buildUser(server.app);
    const teammate = await buildUser(server.app);
    const solo = await buildTeam(server.app, { owner: u });
    const shared = await buildTeam(server.app, { owner: teammate, roleOf: [{ user: u, role: Role.Viewer }] });
    const wrong = await api
      .as(u.token)
      .send('DELETE', PATHS.account.remove(u.id), { password: 'nope', url: links.deleteUser });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Incorrect password');

    let at = smtp.mails.length;
    expect(
      (
        await api
          .as(u.token)
          .send('DELETE', PATHS.account.remove(u.id), { password: u.password, url: links.deleteUser })
      ).status,
    ).toBe(200);
    const first = await linkMail(u.email, /deletion of your account/, at);
    expect(first.link).toBe(`${links.deleteUser}${first.hash}`);
    expect((await api.as(u.token).get(PATHS.auth.check)).body.data.deleteProgress).toBe(1);
    at = smtp.mails.length;
    expect(
      (await api.as(u.token).post(PATHS.account.deleteResend(u.id), { url: links.deleteUser })).status,
    ).toBe(200);
    const second = await linkMail(u.email, /deletion of your account/, at);
    expect(
      (await api.as(u.token).send('DELETE', PATHS.account.deleteAccept, { hash: first.hash })).status,
    ).toBe(404);
    expect(
      (await api.as(teammate.token).send('DELETE', PATHS.account.deleteAccept, { hash: second.hash })).status,
    ).toBe(403);

    const device2 = await buildSession(server.app, u.id);
    const s = await streamsOf(server.base, { u, device2: { token: device2 }, teammate });
    const ok = await api.as(u.token).send('DELETE', PATHS.account.deleteAccept, { hash: second.hash });
    expect(ok).toMatchObject({ status: 200, body: { message: 'success' } });
    expect(await s.u.waitForEvent(EventCode.ForcedLogoutAccount)).toEqual({ code: 100 });
    expect(await s.device2.waitForEvent(EventCode.ForcedLogoutAccount)).toEqual({ code: 100 });
    await s.u.ended;
    expect(await s.teammate.waitForEvent(EventCode.UserLeft)).toEqual({
      code: 41,
      team_id: shared.id,
      leaved_user: u.id,
    });
    expect((await api.as(u.token).get(PATHS.auth.check)).status).toBe(401);
    expect((await api.post(PATHS.auth.login, { login: u.email, password: u.password })).status).toBe(401);
    const row = await server.app.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_status_id: 40, password_hash: null, name: '' });
    expect(row.email).not.toBe(u.email);
    expect(
      await server.app.ctx.db.selectFrom('teams').select('id').where('id', '=', solo.id).executeTakeFirst(),
    ).toBeUndefined();
    expect((await api.as(teammate.token).get(PATHS.teams.read(shared.id))).body.data.members).toBe(1);
    expect(
      (await api.as(teammate.token).send('DELETE', PATHS.account.deleteAccept, { hash: second.hash })).status,
    ).toBe(404);
    s.closeAll();
  });

  it('revoke kills the link; deletion links expire in 24 h', async () => {
    const u = await buildUser(server.app);
    let at = smtp.mails.length;
    await api
      .as(u.token)
      .send('DELETE', PATHS.account.remove(u.id), { password: u.password, url: links.deleteUser });
    const first = await linkMail(u.email, /deletion of your account/, at);
    expect((await api.as(u.token).post(PATHS.account.deleteRevoke(u.id))).status).toBe(200);
    expect((await api.as(u.token).get(PATHS.auth.check)).body.data.deleteProgress).toBe(0);
    expect(
      (await api.as(u.token).send('DELETE', PATHS.account.deleteAccept, { hash: first.hash })).status,
    ).toBe(404);
    expect(
      (await api.as(u.token).post(PATHS.account.deleteResend(u.id), { url: links.deleteUser })).status,
    ).toBe(409);

    at = smtp.mails.length;
    await api
      .as(u.token)
      .send('DELETE', PATHS.account.remove(u.id), { password: u.password, url: links.deleteUser });
    const second = await linkMail(u.email, /deletion of your account/, at);
    clock.advance(TIMINGS.linkTtlMs + 1000);
    expect(
      (await api.as(u.token).send('DELETE', PATHS.account.deleteAccept, { hash: second.hash })).status,
    ).toBe(404);
  });
});

describe('POST /api/v1/user (search)', () => {
  it('is for supervisors only', async () => {
    const u = await buildUser(server.app, { name: 'Findable' });
    const sup = await buildUser(server.app, { supervisor: true });
    expect((await api.as(u.token).post(PATHS.users.search, {})).status).toBe(403);
    const r = await api.as(sup.token).post(PATHS.users.search, { general: u.email });
    expect(r.body.pagination.total).toBe(1);
    expect(r.body.data[0]).toMatchObject({ id: u.id, email: u.email, name: 'Findable' });
    expect(JSON.stringify(r.body)).not.toMatch(/password/);
  });
});
