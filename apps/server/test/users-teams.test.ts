import { EventCode, MSG, PATHS, Role, ZTeamResponse, ZUserResponse } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, buildUser } from './factories.js';
import { Api } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';
import { openStream } from './helpers/sse.js';

let server: TestServer;
let api: Api;

beforeAll(async () => {
  server = await startServer();
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/v1/user/{id}', () => {
  it('returns oneself, without secrets', async () => {
    const u = await buildUser(server.app);
    const r = await api.as(u.token).get(PATHS.users.read(u.id));
    expect(r.status).toBe(200);
    const body = ZUserResponse.parse(r.body);
    expect(body.data).toMatchObject({ id: u.id, email: u.email, supervisor: false });
    expect(JSON.stringify(r.body)).not.toMatch(/password|token_hash/);
  });

  it('refuses another user (403) unless the caller is a supervisor', async () => {
    const u = await buildUser(server.app);
    const other = await buildUser(server.app);
    expect((await api.as(u.token).get(PATHS.users.read(other.id))).status).toBe(403);
    const sup = await buildUser(server.app, { supervisor: true });
    const r = await api.as(sup.token).get(PATHS.users.read(other.id));
    expect(r.status).toBe(200);
    expect(r.body.data.email).toBe(other.email);
    expect((await api.as(sup.token).get(PATHS.users.read(2_000_000_000))).status).toBe(404);
  });

  it('needs a session', async () => {
    expect((await api.get(PATHS.users.read(1))).status).toBe(401);
  });
});

describe('PUT /api/v1/user/{id}', () => {
  it('updates one’s own profile fields (trimmed)', async () => {
    const u = await buildUser(server.app);
    const r = await api.as(u.token).put(PATHS.users.read(u.id), {
      id: u.id,
      name: ' Ada ',
      surname: 'Lovelace',
      phone: '+44 20 1234',
      image: 3,
    });
    expect(r.status).toBe(200);
    expect(ZUserResponse.parse(r.body).data).toMatchObject({
      name: 'Ada',
      surname: 'Lovelace',
      phone: '+44 20 1234',
      image: 3,
    });
    const partial = await api.as(u.token).put(PATHS.users.read(u.id), { surname: '' });
    expect(partial.body.data).toMatchObject({ name: 'Ada', surname: '' });
  });

  it('refuses someone else’s profile, even for a supervisor, and a mismatched body id', async () => {
    const u = await buildUser(server.app);
    const sup = await buildUser(server.app, { supervisor: true });
    expect((await api.as(sup.token).put(PATHS.users.read(u.id), { name: 'X' })).status).toBe(403);
    expect((await api.as(u.token).put(PATHS.users.read(u.id), { id: u.id + 1, name: 'X' })).status).toBe(400);
  });

  it('refuses users with status 30 or 40', async () => {
    for (const userStatusId of [30, 40]) {
      const u = await buildUser(server.app, { userStatusId });
      const r = await api.as(u.token).put(PATHS.users.read(u.id), { name: 'X' });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ message: MSG.forbiddenText });
    }
  });
});

describe('POST /api/v1/teams/create', () => {
  it('creates a team with the creator as Admin, publishes code 10, and lists it in TeamsRender', async () => {
    const u = await buildUser(server.app);
    const stream = await openStream(server.base, u.token);
    await stream.waitFor((raw) => raw.includes(': connected'));
    const r = await api.as(u.token).post(PATHS.teams.create, { name: '  Acme Video ' });
    expect(r.status).toBe(201);
    const team = ZTeamResponse.parse(r.body).data;
    expect(team).toMatchObject({
      name: 'Acme Video',
      role: Role.Admin,
      timezoneId: 37,
      timeZone: 'UTC',
      utcOffset: 0,
      version: 0,
      statusId: 10,
      suspended: 0,
      favourite: false,
    });
    expect(await stream.waitForEvent(EventCode.UserAdded)).toEqual({
      code: 10,
      team_id: team.id,
      add_user: u.id,
    });
    stream.close();

    const me = await api.as(u.token).get(PATHS.auth.check);
    expect(me.body.data.TeamsRender).toEqual([team]);
  });

  it('refuses users with status 30 or 40', async () => {
    const u = await buildUser(server.app, { userStatusId: 30 });
    expect((await api.as(u.token).post(PATHS.teams.create, { name: 'Nope' })).status).toBe(403);
  });

  it('TeamsRender lists favourites first, then by id, with the member’s role', async () => {
    const u = await buildUser(server.app);
    const a = await buildTeam(server.app, { roleOf: [{ user: u, role: Role.Viewer }] });
    const b = await buildTeam(server.app, { roleOf: [{ user: u, role: Role.KeyMaster }] });
    const own = (await api.as(u.token).post(PATHS.teams.create, { name: 'Mine' })).body.data;
    // Stars live in team_favourites: set through the favourite call.
    expect((await api.as(u.token).put(PATHS.teams.toggleFavourite(b.id))).status).toBe(200);
    const list = (await api.as(u.token).get(PATHS.auth.check)).body.data.TeamsRender as Array<{
      id: number;
      role: number;
      favourite: boolean;
    }>;
    expect(list.map((t) => [t.id, t.role, t.favourite])).toEqual([
      [b.id, 30, true],
      [a.id, 40, false],
      [own.id, 10, false],
    ]);
  });
});
