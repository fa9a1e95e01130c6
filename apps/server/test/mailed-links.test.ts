import { LinkKind, linkBases, MSG, PATHS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, buildUser, uniqueEmail } from './factories.js';
import { Api } from './helpers/http.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { type CapturedMail, startSmtp, type TestSmtp } from './helpers/smtp.js';

/**
 * docs/DESIGN.md §4: every mailed link is built from the parsed, normalized base with exactly one `/` before the
 * hash, whether or not the base the browser sent ends with one, and never from the raw string.
 */
let smtp: TestSmtp;
let server: TestServer;
let api: Api;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ env: { SMTP_URL: smtp.url } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const withSlash = linkBases(PUBLIC_URL);
/** The same bases without their trailing slash. */
const bare = Object.fromEntries(
  Object.entries(withSlash).map(([k, v]) => [k, v.replace(/\/$/, '')]),
) as typeof withSlash;
/** A base whose raw text a mail client may read as a link to another host; its parsed origin is ours. */
const tricky = (path: string) => `${PUBLIC_URL}\\@evil.example${new URL(path).pathname}`;

async function nextMail(to: string, after: number): Promise<CapturedMail> {
  return smtp.waitFor(to, (m) => smtp.mails.indexOf(m) >= after);
}

/** Every link of the mail is on our host and none carries the raw backslash trick. */
function expectOwnLinks(mail: CapturedMail) {
  expect(mail.text).not.toContain('\\@');
  for (const link of mail.links) expect(new URL(link).origin, link).toBe(PUBLIC_URL);
}

describe('mailed links', () => {
  it('invitation: a base without a trailing slash still gives <base>/<hash>?teamIdInvite=', async () => {
    const { id, owner } = await buildTeam(server.app);
    const email = uniqueEmail();
    const at = smtp.mails.length;
    const r = await api.as(owner.token).post(PATHS.invitations.create(id), {
      invited_email: email,
      role: Role.Viewer,
      accept_new_user_url: bare.inviteNew,
      accept_url: bare.inviteOld,
      decline_url: bare.inviteDecline,
    });
    expect(r.status).toBe(201);
    const mail = await nextMail(email, at);
    const decline = mail.links.find((l) => l.includes('/decline')) ?? '';
    const hash = new URL(decline).pathname.split('/').pop() ?? '';
    expect(hash).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(decline).toBe(`${withSlash.inviteDecline}${hash}?teamIdInvite=${id}`);
    expect(mail.links).toContain(`${withSlash.inviteNew}${hash}?teamIdInvite=${id}`);
  });

  it('team deletion: confirm and cancel links without trailing slashes, and from a tricky base', async () => {
    const name = 'Slash / Team';
    const { id, owner } = await buildTeam(server.app, { name });
    let at = smtp.mails.length;
    const lock = await api.as(owner.token).post(PATHS.teamLifecycle.deleteLock(id), {
      confirmPath: bare.deleteTeamConfirm,
      cancelPath: bare.deleteTeamCancel,
      password: owner.password,
    });
    expect(lock.status).toBe(200);
    const mail = await nextMail(owner.email, at);
    const [confirm = '', cancel = ''] = mail.links;
    const hash = confirm.split('/').pop() ?? '';
    expect(confirm).toBe(`${withSlash.deleteTeamConfirm}${hash}`);
    expect(cancel).toBe(`${withSlash.deleteTeamCancel}${encodeURIComponent(name)}=${id}/${hash}`);

    at = smtp.mails.length;
    const resend = await api.as(owner.token).post(PATHS.teamLifecycle.deleteResend(id), {
      confirmPath: tricky(withSlash.deleteTeamConfirm),
      cancelPath: tricky(withSlash.deleteTeamCancel),
    });
    expect(resend.status).toBe(200);
    expectOwnLinks(await nextMail(owner.email, at));
  });

  it('change of e-mail and account deletion: one slash, normalized base', async () => {
    const u = await buildUser(server.app);
    const fresh = uniqueEmail('fresh');
    let at = smtp.mails.length;
    const change = await api
      .as(u.token)
      .post(PATHS.account.changeEmail(u.id), { password: u.password, email: fresh, url: bare.changeEmail });
    expect(change.status).toBe(200);
    const changeMail = await nextMail(fresh, at);
    const link = changeMail.links.find((l) => l.includes('/email_event_handler/')) ?? '';
    expect(link).toMatch(new RegExp(`^${withSlash.changeEmail}[A-Za-z0-9_-]{20,}$`));

    const v = await buildUser(server.app);
    at = smtp.mails.length;
    const del = await api.as(v.token).send('DELETE', PATHS.account.remove(v.id), {
      password: v.password,
      url: tricky(withSlash.deleteUser),
    });
    expect(del.status).toBe(200);
    expectOwnLinks(await nextMail(v.email, at));
  });
});

describe('check_hash knows every link kind (the link screens check first)', () => {
  const kindOf = async (hash: string) => (await api.get(PATHS.auth.checkHash(hash))).body;
  const hashIn = (link: string, after: string) => (link.split(after)[1] ?? '').split(/[/?]/).pop() ?? '';

  it('team deletion and suspension (confirm and cancel share the hash), e-mail change, account deletion', async () => {
    const { id, owner } = await buildTeam(server.app);
    let at = smtp.mails.length;
    await api.as(owner.token).post(PATHS.teamLifecycle.deleteLock(id), {
      confirmPath: withSlash.deleteTeamConfirm,
      cancelPath: withSlash.deleteTeamCancel,
      password: owner.password,
    });
    const deletion = await nextMail(owner.email, at);
    const [confirm = ''] = deletion.links;
    const teamHash = hashIn(confirm, '/delete-team-accept/');
    expect(await kindOf(teamHash)).toEqual({ message: MSG.hashValid, data: { kind: LinkKind.DeleteTeam } });
    expect(
      (await api.as(owner.token).post(PATHS.teamLifecycle.deleteCancel(id), { hash: teamHash })).status,
    ).toBe(200);
    expect(await kindOf(teamHash)).toEqual({ message: MSG.hashInvalid });

    const sup = await buildUser(server.app, { supervisor: true });
    const other = await buildTeam(server.app, { name: 'Suspend me' });
    at = smtp.mails.length;
    await api.as(sup.token).post(PATHS.teamLifecycle.suspend(other.id), {
      name: 'Suspend me',
      confirmPath: withSlash.suspendTeamConfirm,
      cancelPath: withSlash.suspendTeamCancel,
    });
    const suspension = await nextMail(sup.email, at);
    const suspendHash = hashIn(suspension.links[0] ?? '', '/suspended-team-accept/');
    expect((await kindOf(suspendHash)).data).toEqual({ kind: LinkKind.SuspendTeam });

    const u = await buildUser(server.app);
    const fresh = uniqueEmail('kind');
    at = smtp.mails.length;
    await api.as(u.token).post(PATHS.account.changeEmail(u.id), {
      password: u.password,
      email: fresh,
      url: withSlash.changeEmail,
    });
    const change = await nextMail(fresh, at);
    const changeHash = hashIn(change.links.find((l) => l.includes('/email/')) ?? '', '/email/');
    expect((await kindOf(changeHash)).data).toEqual({ kind: LinkKind.ChangeEmail });

    const v = await buildUser(server.app);
    at = smtp.mails.length;
    await api
      .as(v.token)
      .send('DELETE', PATHS.account.remove(v.id), { password: v.password, url: withSlash.deleteUser });
    const del = await nextMail(v.email, at);
    const delHash = hashIn(del.links.find((l) => l.includes('/delete-user/')) ?? '', '/delete-user/');
    expect((await kindOf(delHash)).data).toEqual({ kind: LinkKind.DeleteUser });
  });
});
