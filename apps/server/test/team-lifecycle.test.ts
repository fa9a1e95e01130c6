import { EventCode, linkBases, MSG, PATHS, Role, TIMINGS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltUser, buildTeam, buildUser, setTeamState } from './factories.js';
import { settle, streamsOf } from './helpers/events.js';
import { Api } from './helpers/http.js';
import { manualClock, PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';

const clock = manualClock();
let smtp: TestSmtp;
let server: TestServer;
let api: Api;
const links = linkBases(PUBLIC_URL);
const deletePaths = { confirmPath: links.deleteTeamConfirm, cancelPath: links.deleteTeamCancel };
const suspendPaths = { confirmPath: links.suspendTeamConfirm, cancelPath: links.suspendTeamCancel };

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ env: { SMTP_URL: smtp.url }, deps: { now: clock } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** The confirm and cancel links of the next mail to `to` whose subject matches, with their hash. */
async function teamMail(to: string, subject: RegExp, after: number) {
  const mail = await smtp.waitFor(to, (m) => smtp.mails.indexOf(m) >= after && subject.test(m.subject));
  const [confirm = '', cancel = ''] = mail.links;
  return { mail, confirm, cancel, hash: confirm.split('/').pop() ?? '' };
}

async function lock(owner: BuiltUser, teamId: number) {
  const at = smtp.mails.length;
  const r = await api
    .as(owner.token)
    .post(PATHS.teamLifecycle.deleteLock(teamId), { ...deletePaths, password: owner.password });
  expect(r.status).toBe(200);
  return teamMail(owner.email, /deletion/, at);
}

describe('team deletion', () => {
  it('lock: password, 3032 to every member, the mail’s link shapes, and the team is locked', async () => {
    const viewer = await buildUser(server.app);
    const outsider = await buildUser(server.app);
    const name = 'Rock & Roll/Ünï=?';
    const { id, owner } = await buildTeam(server.app, {
      name,
      roleOf: [{ user: viewer, role: Role.Viewer }],
    });
    const wrong = await api
      .as(owner.token)
      .post(PATHS.teamLifecycle.deleteLock(id), { ...deletePaths, password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      message: MSG.incorrectPassword,
      errors: { password: MSG.incorrectPassword },
    });
    const foreign = await api.as(owner.token).post(PATHS.teamLifecycle.deleteLock(id), {
      ...deletePaths,
      cancelPath: 'https://evil.test/',
      password: owner.password,
    });
    expect(foreign.status).toBe(400);

    const s = await streamsOf(server.base, { owner, viewer, outsider });
    const { confirm, cancel, hash, mail } = await lock(owner, id);
    expect(confirm).toBe(`${links.deleteTeamConfirm}${hash}`);
    expect(cancel).toBe(`${links.deleteTeamCancel}${encodeURIComponent(name)}=${id}/${hash}`);
    expect(mail.text).toContain('help@dashboard.test');
    const ev = { code: 32, team_id: id, user_id: owner.id, new_status: 3032 };
    expect(await s.viewer.waitForEvent(EventCode.TeamStatus)).toEqual(ev);
    expect(await s.owner.waitForEvent(EventCode.TeamStatus)).toEqual(ev);
    await settle();
    expect(s.outsider.events()).toEqual([]);
    expect((await api.as(owner.token).get(PATHS.teams.read(id))).body.data.statusId).toBe(30);
    expect((await api.as(owner.token).put(PATHS.teams.read(id), { name: 'x' })).status).toBe(403);
    expect(
      (
        await api
          .as(owner.token)
          .post(PATHS.teamLifecycle.deleteLock(id), { ...deletePaths, password: owner.password })
      ).status,
    ).toBe(403);
    s.closeAll();
  });

  it('confirm: only the requester or another admin; works once; 31 to every member', async () => {
    const admin2 = await buildUser(server.app);
    const viewer = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, {
      roleOf: [
        { user: admin2, role: Role.Admin },
        { user: viewer, role: Role.Viewer },
      ],
    });
    const { hash } = await lock(owner, id);
    const s = await streamsOf(server.base, { owner, viewer });
    // A Viewer cannot, and the failed try does not burn the link.
    expect(
      (await api.as(viewer.token).send('DELETE', PATHS.teamLifecycle.deleteConfirm, { hash })).status,
    ).toBe(403);
    const ok = await api.as(admin2.token).send('DELETE', PATHS.teamLifecycle.deleteConfirm, { hash });
    expect(ok).toMatchObject({ status: 200, body: { message: 'The team has been successfully deleted' } });
    expect(await s.viewer.waitForEvent(EventCode.TeamDeleted)).toEqual({ code: 31, team_id: id });
    expect(await s.owner.waitForEvent(EventCode.TeamDeleted)).toEqual({ code: 31, team_id: id });
    expect(
      (await api.as(owner.token).send('DELETE', PATHS.teamLifecycle.deleteConfirm, { hash })).status,
    ).toBe(404);
    expect((await api.as(owner.token).get(PATHS.teams.read(id))).status).toBe(404);
    expect((await api.as(viewer.token).get(PATHS.auth.check)).body.data.TeamsRender).toEqual([]);
    s.closeAll();
  });

  it('resend kills the old link; cancel with the hash reactivates (1032) and kills it; links expire in 24 h', async () => {
    const viewer = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
    const first = await lock(owner, id);
    const at = smtp.mails.length;
    expect((await api.as(owner.token).post(PATHS.teamLifecycle.deleteResend(id), deletePaths)).status).toBe(
      200,
    );
    const second = await teamMail(owner.email, /deletion/, at);
    expect(second.hash).not.toBe(first.hash);
    expect(
      (await api.as(owner.token).send('DELETE', PATHS.teamLifecycle.deleteConfirm, { hash: first.hash }))
        .status,
    ).toBe(404);

    const s = await streamsOf(server.base, { viewer });
    expect(
      (await api.as(owner.token).post(PATHS.teamLifecycle.deleteCancel(id), { hash: first.hash })).status,
    ).toBe(404);
    expect(
      (await api.as(owner.token).post(PATHS.teamLifecycle.deleteCancel(id), { hash: second.hash })).status,
    ).toBe(200);
    expect(await s.viewer.waitForEvent(EventCode.TeamStatus)).toEqual({
      code: 32,
      team_id: id,
      user_id: owner.id,
      new_status: 1032,
    });
    expect(
      (await api.as(owner.token).send('DELETE', PATHS.teamLifecycle.deleteConfirm, { hash: second.hash }))
        .status,
    ).toBe(404);
    expect((await api.as(owner.token).get(PATHS.teams.read(id))).body.data.statusId).toBe(10);
    // Cancel without a hash (from the settings screen) works too, and only while deletion is requested.
    expect((await api.as(owner.token).post(PATHS.teamLifecycle.deleteCancel(id))).status).toBe(403);

    const third = await lock(owner, id);
    clock.advance(TIMINGS.linkTtlMs + 1000);
    expect(
      (await api.as(owner.token).send('DELETE', PATHS.teamLifecycle.deleteConfirm, { hash: third.hash }))
        .status,
    ).toBe(404);
    expect((await api.as(owner.token).post(PATHS.teamLifecycle.deleteCancel(id))).status).toBe(200);
    s.closeAll();
  });
});

describe('team suspension', () => {
  it('the typed name must match (400 errors.name); an unnamed team accepts any text', async () => {
    const sup = await buildUser(server.app, { supervisor: true });
    const { id } = await buildTeam(server.app, { name: 'Exact Name' });
    const r = await api
      .as(sup.token)
      .post(PATHS.teamLifecycle.suspend(id), { name: 'exact name', ...suspendPaths });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: 'incorrect team name', errors: { name: 'incorrect team name' } });
    expect((await api.as(sup.token).post(PATHS.teamLifecycle.suspend(id), { ...suspendPaths })).status).toBe(
      400,
    );
    const unnamed = await buildTeam(server.app);
    await setTeamState(server.app, unnamed.id, { name: '' });
    expect(
      (
        await api
          .as(sup.token)
          .post(PATHS.teamLifecycle.suspend(unnamed.id), { name: 'anything', ...suspendPaths })
      ).status,
    ).toBe(200);
  });

  it('request → pending blocks credential changes → revoke (1032) → request → confirm (4032) → unsuspend (1032)', async () => {
    const sup = await buildUser(server.app, { supervisor: true });
    const viewer = await buildUser(server.app);
    const outsider = await buildUser(server.app);
    const name = 'To suspend';
    const { id, owner } = await buildTeam(server.app, {
      name,
      roleOf: [{ user: viewer, role: Role.Viewer }],
    });
    const s = await streamsOf(server.base, { owner, viewer, outsider });

    let at = smtp.mails.length;
    expect(
      (await api.as(sup.token).post(PATHS.teamLifecycle.suspend(id), { name, ...suspendPaths })).status,
    ).toBe(200);
    const first = await teamMail(sup.email, /suspension/, at);
    expect(first.confirm).toBe(`${links.suspendTeamConfirm}${first.hash}`);
    expect(first.cancel).toBe(`${links.suspendTeamCancel}${encodeURIComponent(name)}=${id}/${first.hash}`);
    expect((await api.as(owner.token).get(PATHS.teams.read(id))).body.data.suspendedProcess).toBe(1);
    const pw = await api.as(owner.token).post(PATHS.account.changePassword(owner.id), {
      password: owner.password,
      new_password: 'newpass1',
      confirm: 'newpass1',
    });
    expect(pw.status).toBe(403);

    at = smtp.mails.length;
    expect((await api.as(sup.token).post(PATHS.teamLifecycle.suspendResend(id), suspendPaths)).status).toBe(
      200,
    );
    const second = await teamMail(sup.email, /suspension/, at);
    expect(
      (await api.as(sup.token).put(PATHS.teamLifecycle.suspendConfirm, { hash: first.hash })).status,
    ).toBe(404);
    expect(
      (await api.as(sup.token).post(PATHS.teamLifecycle.suspendRevoke(id), { hash: second.hash })).status,
    ).toBe(200);
    expect(await s.viewer.waitForEvent(EventCode.TeamStatus)).toMatchObject({
      team_id: id,
      new_status: 1032,
    });
    expect(
      (await api.as(sup.token).put(PATHS.teamLifecycle.suspendConfirm, { hash: second.hash })).status,
    ).toBe(404);

    at = smtp.mails.length;
    expect(
      (await api.as(sup.token).post(PATHS.teamLifecycle.suspend(id), { name, ...suspendPaths })).status,
    ).toBe(200);
    const third = await teamMail(sup.email, /suspension/, at);
    // Only a supervisor confirms.
    expect(
      (await api.as(owner.token).put(PATHS.teamLifecycle.suspendConfirm, { hash: third.hash })).status,
    ).toBe(403);
    expect(
      (await api.as(sup.token).put(PATHS.teamLifecycle.suspendConfirm, { hash: third.hash })).status,
    ).toBe(200);
    // Each member's own stream: wait for both (the events travel separately).
    for (const stream of [s.owner, s.viewer]) {
      await stream.waitFor(() => stream.events().some((e) => e.new_status === 4032));
    }
    expect(
      s.owner
        .events()
        .concat(s.viewer.events())
        .filter((e) => e.new_status === 4032),
    ).toEqual([
      expect.objectContaining({ code: 32, team_id: id, new_status: 4032 }),
      expect.objectContaining({ code: 32, team_id: id, new_status: 4032 }),
    ]);
    expect(
      (await api.as(sup.token).put(PATHS.teamLifecycle.suspendConfirm, { hash: third.hash })).status,
    ).toBe(404);
    const t = (await api.as(owner.token).get(PATHS.teams.read(id))).body.data;
    expect(t).toMatchObject({ suspended: 1, suspendedProcess: 0 });
    expect((await api.as(owner.token).put(PATHS.teams.read(id), { website: 'x.example' })).status).toBe(403);

    // The same call on a suspended team unsuspends at once (no name, no mail).
    const un = await api.as(sup.token).post(PATHS.teamLifecycle.suspend(id), {});
    expect(un.status).toBe(200);
    await s.viewer.waitFor(() => s.viewer.events().filter((e) => e.new_status === 1032).length === 2);
    expect((await api.as(owner.token).get(PATHS.teams.read(id))).body.data.suspended).toBe(0);
    await settle();
    expect(s.outsider.events()).toEqual([]);
    s.closeAll();
  });

  it('suspension links expire after 24 hours', async () => {
    const sup = await buildUser(server.app, { supervisor: true });
    const { id } = await buildTeam(server.app, { name: 'Expiring' });
    const at = smtp.mails.length;
    await api.as(sup.token).post(PATHS.teamLifecycle.suspend(id), { name: 'Expiring', ...suspendPaths });
    const { hash } = await teamMail(sup.email, /suspension/, at);
    clock.advance(TIMINGS.linkTtlMs + 1000);
    expect((await api.as(sup.token).put(PATHS.teamLifecycle.suspendConfirm, { hash })).status).toBe(404);
  });
});
