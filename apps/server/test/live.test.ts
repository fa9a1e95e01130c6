import { EventCode, PATHS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeUserSessions } from '../src/directory/sessions.js';
import { buildSession, buildTeam, buildUser } from './factories.js';
import { Api } from './helpers/http.js';
import {
  dropDatabase,
  freshDatabaseUrl,
  onPostgres,
  startServer,
  type TestServer,
} from './helpers/server.js';
import { openStream } from './helpers/sse.js';

describe('GET /auth/v1/sse/handle', () => {
  let server: TestServer;
  let api: Api;

  beforeAll(async () => {
    server = await startServer({ deps: { heartbeatMs: 200 } });
    api = new Api(server.base);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('needs a live token', async () => {
    const r = await fetch(server.base + PATHS.live.stream);
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ message: expect.any(String) });
  });

  it('opens with a comment, sends heartbeats and delivers published events to the user only', async () => {
    const u = await buildUser(server.app);
    const other = await buildUser(server.app);
    const s = await openStream(server.base, u.token);
    const o = await openStream(server.base, other.token);
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/event-stream/);
    await s.waitFor((raw) => raw.startsWith(': connected\n\n'));
    await s.waitFor((raw) => raw.includes(': ping\n\n'), 2000);

    await server.app.ctx.bus.publish(
      { userIds: [u.id] },
      { code: EventCode.RoleChanged, team_id: 3, changed_role_user: u.id, new_role: 30 },
    );
    expect(await s.waitForEvent(EventCode.RoleChanged)).toEqual({
      code: 70,
      team_id: 3,
      changed_role_user: u.id,
      new_role: 30,
    });
    await o.waitFor((raw) => raw.includes(': ping'), 2000);
    expect(o.events()).toEqual([]);
    s.close();
    o.close();
  });

  it('logout in one tab signs out the other tabs of that session (code 11) and ends their streams', async () => {
    const u = await buildUser(server.app);
    const tab1 = await openStream(server.base, u.token);
    const tab2 = await openStream(server.base, u.token);
    const otherDevice = await buildSession(server.app, u.id);
    const device2 = await openStream(server.base, otherDevice);
    await Promise.all([tab1, tab2, device2].map((t) => t.waitFor((raw) => raw.includes(': connected'))));

    expect((await api.as(u.token).get(PATHS.auth.logout)).status).toBe(200);
    for (const tab of [tab1, tab2]) {
      expect(await tab.waitForEvent(EventCode.ForcedLogoutSession)).toEqual({ code: 11 });
      await tab.ended;
    }
    // Another session of the same user is not affected.
    await device2.waitFor((raw) => raw.includes(': ping'), 2000);
    expect(device2.events()).toEqual([]);
    device2.close();
  });

  it('ends the stream of a session revoked behind the bus (the CLI on SQLite) at the next heartbeat', async () => {
    const u = await buildUser(server.app);
    const other = await buildUser(server.app);
    const s = await openStream(server.base, u.token);
    const o = await openStream(server.base, other.token);
    await s.waitFor((raw) => raw.includes(': connected'));
    // Straight in the database, as another process would: no event reaches this node's bus.
    await revokeUserSessions(server.app.ctx.db, u.id, Date.now());
    await s.ended;
    await server.app.ctx.bus.publish({ userIds: [u.id] }, { code: EventCode.UserAdded, team_id: 1 });
    expect(s.events()).toEqual([]);
    // Others keep their stream.
    const pings = (o.raw().match(/: ping/g) ?? []).length;
    await o.waitFor((raw) => (raw.match(/: ping/g) ?? []).length > pings + 1, 2000);
    o.close();
  });

  it('closing the client removes the stream', async () => {
    const u = await buildUser(server.app);
    const before = server.app.ctx.hub.size;
    const s = await openStream(server.base, u.token);
    await s.waitFor((raw) => raw.includes(': connected'));
    expect(server.app.ctx.hub.size).toBe(before + 1);
    s.close();
    await expect.poll(() => server.app.ctx.hub.size, { timeout: 2000 }).toBe(before);
  });

  it('closing the server ends open streams instead of hanging', async () => {
    const own = await startServer();
    const u = await buildUser(own.app);
    const s = await openStream(own.base, u.token);
    await s.waitFor((raw) => raw.includes(': connected'));
    const started = Date.now();
    await own.close();
    await s.ended;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe.runIf(onPostgres)('PgBus (LISTEN/NOTIFY) across two server nodes', () => {
  let databaseUrl: string;
  let nodeA: TestServer;
  let nodeB: TestServer;

  beforeAll(async () => {
    databaseUrl = await freshDatabaseUrl();
    nodeA = await startServer({ databaseUrl });
    nodeB = await startServer({ databaseUrl });
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await dropDatabase(databaseUrl);
  });

  it('an event caused on node A reaches a stream open on node B', async () => {
    const u = await buildUser(nodeA.app);
    const onB = await openStream(nodeB.base, u.token);
    await onB.waitFor((raw) => raw.includes(': connected'));
    const r = await new Api(nodeA.base).as(u.token).post(PATHS.teams.create, { name: 'Cluster' });
    expect(r.status).toBe(201);
    expect(await onB.waitForEvent(EventCode.UserAdded)).toEqual({
      code: 10,
      team_id: r.body.data.id,
      add_user: u.id,
    });
    onB.close();
  });

  it('a role change made on node A reaches the member’s stream on node B (70)', async () => {
    const member = await buildUser(nodeA.app);
    const { id, owner } = await buildTeam(nodeA.app, { roleOf: [{ user: member, role: Role.Viewer }] });
    const onB = await openStream(nodeB.base, member.token);
    await onB.waitFor((raw) => raw.includes(': connected'));
    const r = await new Api(nodeA.base)
      .as(owner.token)
      .post(PATHS.teams.setRole(id, member.id, Role.KeyMaster));
    expect(r.status).toBe(200);
    expect(await onB.waitForEvent(EventCode.RoleChanged)).toEqual({
      code: 70,
      team_id: id,
      changed_role_user: member.id,
      new_role: Role.KeyMaster,
    });
    onB.close();
  });

  it('a logout on node B closes the same session’s stream on node A', async () => {
    const u = await buildUser(nodeA.app);
    const onA = await openStream(nodeA.base, u.token);
    await onA.waitFor((raw) => raw.includes(': connected'));
    expect((await new Api(nodeB.base).as(u.token).get(PATHS.auth.logout)).status).toBe(200);
    expect(await onA.waitForEvent(EventCode.ForcedLogoutSession)).toEqual({ code: 11 });
    await onA.ended;
  });
});
