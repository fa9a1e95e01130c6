import {
  EventCode,
  InviteStatus,
  LinkKind,
  linkBases,
  MSG_TEAMS,
  PATHS,
  Role,
  TIMINGS,
  ZInviteAcceptResponse,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltUser, buildTeam, buildUser, uniqueEmail } from './factories.js';
import { settle, streamsOf } from './helpers/events.js';
import { Api } from './helpers/http.js';
import { manualClock, PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { type CapturedMail, startSmtp, type TestSmtp } from './helpers/smtp.js';

const clock = manualClock();
let smtp: TestSmtp;
let server: TestServer;
let api: Api;
const links = linkBases(PUBLIC_URL);
const bases = {
  accept_new_user_url: links.inviteNew,
  accept_url: links.inviteOld,
  decline_url: links.inviteDecline,
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

const invite = (by: BuiltUser, teamId: number, email: string, role: number = Role.Viewer) =>
  api.as(by.token).post(PATHS.invitations.create(teamId), { invited_email: email, role, ...bases });

/** The accept and decline links of the newest invitation mail to `to`, and their hash. */
async function inviteMail(
  to: string,
  after = 0,
): Promise<{ mail: CapturedMail; accept: string; decline: string; hash: string }> {
  const mail = await smtp.waitFor(to, (m) => smtp.mails.indexOf(m) >= after && /invited/.test(m.subject));
  const decline = mail.links.find((l) => l.includes('/email_invite_handler/decline/')) ?? '';
  const accept = mail.links.find((l) => !l.includes('/decline/')) ?? '';
  const hash = new URL(decline).pathname.split('/').pop() ?? '';
  return { mail, accept, decline, hash };
}

describe('invitation create', () => {
  it('enforces the roles an inviter may offer (400 errors.role)', async () => {
    const km = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, { roleOf: [{ user: km, role: Role.KeyMaster }] });
    const kmAdmin = await invite(km, id, uniqueEmail(), Role.Admin);
    expect(kmAdmin.status).toBe(400);
    expect(kmAdmin.body.errors).toEqual({ role: MSG_TEAMS.roleNotAllowed });
    for (const role of [Role.BillingMaster, Role.Supervisor]) {
      expect((await invite(owner, id, uniqueEmail(), role)).body.errors, String(role)).toEqual({
        role: MSG_TEAMS.roleNotAllowed,
      });
      expect((await invite(km, id, uniqueEmail(), role)).status).toBe(400);
    }
    expect((await invite(km, id, uniqueEmail(), Role.KeyMaster)).status).toBe(201);
    expect((await invite(owner, id, uniqueEmail(), Role.Admin)).status).toBe(201);
  });

  it('409 for a member or a pending invitation; 400 for link bases on another origin', async () => {
    const member = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, { roleOf: [{ user: member, role: Role.Viewer }] });
    const already = await invite(owner, id, member.email);
    expect(already.status).toBe(409);
    expect(already.body.message).toBe(MSG_TEAMS.alreadyMember);
    const email = uniqueEmail();
    const first = await invite(owner, id, email);
    expect(first).toMatchObject({ status: 201, body: { message: 'Invitation sent successfully!' } });
    const dup = await invite(owner, id, ` ${email.toUpperCase()} `);
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(MSG_TEAMS.invitePending);
    const foreign = await api.as(owner.token).post(PATHS.invitations.create(id), {
      invited_email: uniqueEmail(),
      role: 40,
      ...bases,
      decline_url: 'https://evil.test/x/',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual({ decline_url: expect.any(String) });
  });
});

describe('invitation create: one at a time', () => {
  it('two invitations of one address at once: one is made and mailed, the other is 409; no stray link', async () => {
    const { id, owner } = await buildTeam(server.app);
    const email = uniqueEmail('race');
    const before = smtp.mails.length;
    const answers = await Promise.all(Array.from({ length: 6 }, () => invite(owner, id, email)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const pending = await server.app.ctx.db
      .selectFrom('invitations')
      .select('id')
      .where('team_id', '=', id)
      .where('invited_email', '=', email)
      .where('status', '=', InviteStatus.Pending)
      .execute();
    expect(pending).toHaveLength(1);
    // A refused invitation wrote no link: the link and the row are one transaction.
    const inviteLinks = await server.app.ctx.db
      .selectFrom('email_links')
      .select('id')
      .where('email', '=', email)
      .where('kind', '=', LinkKind.Invite)
      .execute();
    expect(inviteLinks).toHaveLength(1);
    await inviteMail(email, before);
    await settle();
    expect(smtp.mails.slice(before).filter((m) => m.to === email)).toHaveLength(1);
  });
});

describe('new-user flow', () => {
  it('mails new + decline links (80 to the team); accepting creates the account, signs in and joins (10 to the team)', async () => {
    const { id, owner } = await buildTeam(server.app, { name: 'Rock & Roll' });
    const s = await streamsOf(server.base, { owner });
    const email = uniqueEmail('newbie');
    expect((await invite(owner, id, email, Role.KeyMaster)).status).toBe(201);
    const { mail, accept, decline, hash } = await inviteMail(email);
    expect(accept).toBe(`${links.inviteNew}${hash}?teamIdInvite=${id}`);
    expect(decline).toBe(`${links.inviteDecline}${hash}?teamIdInvite=${id}`);
    expect(mail.text).toContain('help@dashboard.test');
    expect(mail.html).toContain('Decline invitation');
    // The team hears of the invitation (80), not of a member added: nobody joined yet.
    expect(await s.owner.waitForEvent(EventCode.Invited)).toEqual({
      code: 80,
      invited_user: null,
      team_id: id,
      invite_id: expect.any(Number),
    });

    // The invite form is validated like the contract says.
    const bad = await api.put(PATHS.invitations.acceptByLink(hash), { password: 'abc', confirm: 'abc' });
    expect(bad.status).toBe(400);
    expect((await api.put(PATHS.invitations.acceptByLink(hash))).status).toBe(400);

    const r = await api.put(PATHS.invitations.acceptByLink(hash), {
      name: 'New',
      surname: 'Comer',
      password: 'secret1',
      confirm: 'secret1',
    });
    expect(r.status).toBe(200);
    const body = ZInviteAcceptResponse.parse(r.body);
    expect(body.data.team_id).toBe(id);
    const me = (await api.as(body.access_token ?? '').get(PATHS.auth.check)).body.data;
    expect(me).toMatchObject({ email, name: 'New', surname: 'Comer' });
    expect(me.TeamsRender.map((t: { id: number; role: number }) => [t.id, t.role])).toEqual([
      [id, Role.KeyMaster],
    ]);
    expect((await api.post(PATHS.auth.login, { login: email, password: 'secret1' })).status).toBe(200);
    await s.owner.waitFor(() => s.owner.events().some((e) => e.add_user === me.id));
    expect(s.owner.events().find((e) => e.add_user === me.id)).toEqual({
      code: 10,
      team_id: id,
      add_user: me.id,
    });

    // The link worked once.
    expect(
      (await api.put(PATHS.invitations.acceptByLink(hash), { password: 'secret1', confirm: 'secret1' }))
        .status,
    ).toBe(404);
    expect((await api.send('DELETE', PATHS.invitations.acceptByLink(hash))).status).toBe(404);
    s.closeAll();
  });

  it('decline by hash works once; expired links (7 days) are 404; other teams’ invitations stay alive', async () => {
    const a = await buildTeam(server.app);
    const b = await buildTeam(server.app);
    const email = uniqueEmail('twice');
    const before = smtp.mails.length;
    await invite(a.owner, a.id, email);
    const first = await inviteMail(email, before);
    const mid = smtp.mails.length;
    await invite(b.owner, b.id, email);
    const second = await inviteMail(email, mid);
    expect(second.hash).not.toBe(first.hash);

    const d = await api.send('DELETE', PATHS.invitations.acceptByLink(first.hash));
    expect(d).toMatchObject({ status: 200, body: { message: MSG_TEAMS.inviteDeclined } });
    expect((await api.send('DELETE', PATHS.invitations.acceptByLink(first.hash))).status).toBe(404);
    expect((await api.as(a.owner.token).post(PATHS.invitations.search(a.id))).body.data).toEqual([]);

    clock.advance(TIMINGS.inviteTtlMs - 60_000);
    // Still alive just before 7 days (and the first team's decline did not touch it).
    const third = uniqueEmail('late');
    const at = smtp.mails.length;
    await invite(b.owner, b.id, third);
    const late = await inviteMail(third, at);
    clock.advance(2 * 60_000);
    expect(
      (
        await api.put(PATHS.invitations.acceptByLink(second.hash), {
          password: 'secret1',
          confirm: 'secret1',
        })
      ).status,
    ).toBe(404);
    expect(
      (await api.as(b.owner.token).post(PATHS.invitations.search(b.id))).body.data.map(
        (i: { invited_email: string }) => i.invited_email,
      ),
    ).toEqual([third]);
    // An expired invitation no longer blocks a new one.
    expect((await invite(b.owner, b.id, email)).status).toBe(201);
    expect(
      (await api.put(PATHS.invitations.acceptByLink(late.hash), { password: 'secret1', confirm: 'secret1' }))
        .status,
    ).toBe(200);
  });
});

describe('existing-user flow', () => {
  it('80 on invite; the accept link needs that user’s token (401/403); 81 and 10 on accept', async () => {
    const guest = await buildUser(server.app);
    const stranger = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app);
    const s = await streamsOf(server.base, { guest, owner, stranger });
    const at = smtp.mails.length;
    expect((await invite(owner, id, guest.email)).status).toBe(201);
    const invited = await s.guest.waitForEvent(EventCode.Invited);
    expect(invited).toEqual({ code: 80, invited_user: guest.id, team_id: id, invite_id: expect.any(Number) });
    const { accept, hash } = await inviteMail(guest.email, at);
    expect(accept).toBe(`${links.inviteOld}${hash}?teamIdInvite=${id}`);

    const mine = (await api.as(guest.token).post(PATHS.invitations.mine)).body.data;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      status: 10,
      role: Role.Viewer,
      team: { id },
      inviting_user: { id: owner.id, email: owner.email },
    });

    expect((await api.put(PATHS.invitations.acceptByLink(hash))).status).toBe(401);
    expect((await api.as(stranger.token).put(PATHS.invitations.acceptByLink(hash))).status).toBe(403);
    const ok = await api.as(guest.token).put(PATHS.invitations.acceptByLink(hash));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'success', data: { team_id: id } });
    expect(await s.guest.waitForEvent(EventCode.InviteChanged)).toEqual({
      code: 81,
      invited_user: guest.id,
      invited_info: { id: mine[0].id, team_id: id, status: InviteStatus.Accepted },
    });
    await s.owner.waitFor(() => s.owner.events().some((e) => e.add_user === guest.id));
    expect((await api.as(guest.token).get(PATHS.teams.read(id))).body.data.role).toBe(Role.Viewer);
    expect((await api.as(guest.token).put(PATHS.invitations.acceptByLink(hash))).status).toBe(404);
    await settle();
    expect(s.stranger.events()).toEqual([]);
    s.closeAll();
  });

  it('by id: the invited user accepts or declines; others get 404', async () => {
    const guest = await buildUser(server.app);
    const other = await buildUser(server.app);
    const t1 = await buildTeam(server.app);
    const t2 = await buildTeam(server.app);
    await invite(t1.owner, t1.id, guest.email);
    await invite(t2.owner, t2.id, guest.email, Role.KeyMaster);
    const [i1, i2] = (await api.as(guest.token).post(PATHS.invitations.mine)).body.data;
    expect((await api.as(other.token).put(PATHS.invitations.accept(t1.id, i1.id))).status).toBe(404);
    expect((await api.as(guest.token).put(PATHS.invitations.accept(t2.id, i1.id))).status).toBe(404);
    const s = await streamsOf(server.base, { guest });
    const acc = await api.as(guest.token).put(PATHS.invitations.accept(t1.id, i1.id));
    expect(acc.status).toBe(200);
    expect(acc.body.data.team_id).toBe(t1.id);
    const dec = await api.as(guest.token).send('DELETE', PATHS.invitations.accept(t2.id, i2.id));
    expect(dec).toMatchObject({ status: 200, body: { message: MSG_TEAMS.inviteDeclined } });
    await s.guest.waitFor(() => s.guest.events().filter((e) => e.code === 81).length === 2);
    expect(
      s.guest
        .events()
        .filter((e) => e.code === 81)
        .map((e) => (e.invited_info as { status: number }).status),
    ).toEqual([20, 30]);
    expect((await api.as(guest.token).put(PATHS.invitations.accept(t2.id, i2.id))).status).toBe(404);
    s.closeAll();
  });
});

describe('resend and revoke', () => {
  it('resend mails a fresh link and kills the old one; revoke kills it (81 to the invited user)', async () => {
    const km = await buildUser(server.app);
    const guest = await buildUser(server.app);
    const { id } = await buildTeam(server.app, { roleOf: [{ user: km, role: Role.KeyMaster }] });
    const at = smtp.mails.length;
    await invite(km, id, guest.email);
    const old = await inviteMail(guest.email, at);
    const [inv] = (await api.as(km.token).post(PATHS.invitations.search(id))).body.data;
    const at2 = smtp.mails.length;
    expect((await api.as(km.token).post(PATHS.invitations.resend(id, inv.id), bases)).status).toBe(200);
    const fresh = await inviteMail(guest.email, at2);
    expect(fresh.hash).not.toBe(old.hash);
    expect((await api.as(guest.token).put(PATHS.invitations.acceptByLink(old.hash))).status).toBe(404);

    const s = await streamsOf(server.base, { guest });
    const revoke = await api.as(km.token).send('DELETE', PATHS.invitations.accept(id, inv.id));
    expect(revoke.status).toBe(200);
    expect(await s.guest.waitForEvent(EventCode.InviteChanged)).toMatchObject({
      invited_user: guest.id,
      invited_info: { id: inv.id, team_id: id, status: InviteStatus.Revoked },
    });
    expect((await api.as(guest.token).put(PATHS.invitations.acceptByLink(fresh.hash))).status).toBe(404);
    expect((await api.as(km.token).send('DELETE', PATHS.invitations.accept(id, inv.id))).status).toBe(404);
    s.closeAll();
  });
});
