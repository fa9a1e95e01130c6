import { MSG, MSG_DOMAINS, MSG_TEAMS, mayLeaveTeam, PATHS, Role, type RoleId } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDomain, buildTeam, buildUser, memoryMailer } from './factories.js';
import { Api } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

/** Issue 39 item 8: refusals that come before the work and say what is true. */
let server: TestServer;
let api: Api;

beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

let n = 0;
const unique = (label = 'r') => `${label}${++n}-${Date.now().toString(36)}.example.test`;

describe('leaving a team', () => {
  it('the team detail tells the screen a sole admin cannot leave; the server refuses before the password', async () => {
    const viewer = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
    const t = (await api.as(owner.token).get(PATHS.teams.read(id))).body.data;
    const me = t.users.find((u: { id: number }) => u.id === owner.id);
    // What LeaveTeamCard computes from the same answer.
    expect(mayLeaveTeam(me.roles as RoleId, t.members, t.countAdmin)).toBe(false);
    // A wrong password changes nothing: the refusal comes first.
    const r = await api.as(owner.token).post(PATHS.teams.leave(id), { password: 'not-it' });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(MSG_TEAMS.unableLeaveTitle);

    const second = await buildUser(server.app);
    const two = await buildTeam(server.app, { owner, roleOf: [{ user: second, role: Role.Admin }] });
    const t2 = (await api.as(owner.token).get(PATHS.teams.read(two.id))).body.data;
    expect(mayLeaveTeam(Role.Admin, t2.members, t2.countAdmin)).toBe(true);
    const wrong = await api.as(owner.token).post(PATHS.teams.leave(two.id), { password: 'not-it' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ password: MSG.incorrectPassword });
  });
});

describe('adding a domain the team has verified already', () => {
  it('406 says where it is in the team (My domains or the drafts), naming url', async () => {
    const viewer = await buildUser(server.app);
    const t = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
    const as = api.as(t.owner.token);
    const promoted = unique('p');
    await buildDomain(server.app, t.id, { host: promoted, promoted: true });
    const r = await as.post(PATHS.domains.create(t.id), { url: `https://www.${promoted}/` });
    expect(r.status).toBe(406);
    expect(r.body).toEqual({
      message: MSG_DOMAINS.alreadyVerifiedInTeam,
      errors: { url: MSG_DOMAINS.alreadyVerifiedInTeam },
    });
    const draft = unique('d');
    await buildDomain(server.app, t.id, { host: draft, verified: true });
    const d = await as.post(PATHS.domains.create(t.id), { url: draft });
    expect(d.status).toBe(406);
    expect(d.body.message).toBe(MSG_DOMAINS.alreadyVerifiedDraft);
  });

  it('answers the host stored: an internationalized name in its xn-- form', async () => {
    const t = await buildTeam(server.app);
    const as = api.as(t.owner.token);
    const plain = await as.post(PATHS.domains.create(t.id), { url: 'https://www.Plain-r39.example/x' });
    expect(plain.status).toBe(201);
    expect(plain.body.data).toEqual({ id: expect.any(Number), host: 'plain-r39.example' });
    const emoji = await as.post(PATHS.domains.create(t.id), { url: '🍕-r39.example' });
    expect(emoji.status).toBe(201);
    expect(emoji.body.data.host).toMatch(/^xn--.+\.example$/);
  });
});

describe("the team's Website", () => {
  it('takes a host or an http(s) address of at most 30 characters; anything else is a 400 naming website', async () => {
    const { id, owner } = await buildTeam(server.app);
    const as = api.as(owner.token);
    for (const website of ['not a url at all', 'notaurl', 'ftp://files.example.com', '1.2.3.4', 'http://x']) {
      const r = await as.put(PATHS.teams.read(id), { website });
      expect(r.status, website).toBe(400);
      expect(r.body.errors, website).toEqual({ website: MSG.invalidWebsite });
    }
    const long = await as.put(PATHS.teams.read(id), { website: `${'a'.repeat(25)}.example` });
    expect(long.body.errors).toEqual({ website: MSG.tooLong(30) });
    for (const website of ['video.example', 'https://example.com/about', '']) {
      const r = await as.put(PATHS.teams.read(id), { website });
      expect(r.status, website).toBe(200);
      expect(r.body.data.website).toBe(website);
    }
  });
});
