import { MSG, MSG_DOMAIN_RULES, PATHS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, buildUser, memoryMailer } from './factories.js';
import { Api } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let api: Api;

beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

async function team() {
  const viewer = await buildUser(server.app);
  const t = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
  return { id: t.id, as: api.as(t.owner.token), viewer: api.as(viewer.token) };
}

describe('origins', () => {
  it('creates (201, trimmed host, CDN url from id and team), lists oldest first for every member', async () => {
    const t = await team();
    const a = await t.as.post(PATHS.origins.list(t.id), { name: '  main.example.test ' });
    expect(a.status).toBe(201);
    const id = a.body.data.id;
    expect(a.body.data).toEqual({
      id,
      url: `o${id}-t${t.id}.cdn.dashboard.test`,
      name: 'main.example.test',
      status: { id: 10, name: 'Active' },
      suspended: 0,
      createdAt: expect.any(String),
      host: 'main.example.test',
      verification: 'unverified',
      verifiedAt: null,
      verificationFile: expect.objectContaining({ url: expect.stringContaining('main.example.test') }),
    });
    const b = await t.as.post(PATHS.origins.list(t.id), { name: 'backup.example.test' });
    const list = await t.viewer.get(PATHS.origins.list(t.id));
    expect(list.status).toBe(200);
    expect(list.body.data.map((o: { id: number }) => o.id)).toEqual([id, b.body.data.id]);
  });

  it('requires a name of 1–30 characters (400 naming name)', async () => {
    const t = await team();
    for (const [name, text] of [
      ['', MSG.required],
      ['   ', MSG.required],
      ['x'.repeat(31), MSG.tooLong(30)],
    ] as const) {
      const r = await t.as.post(PATHS.origins.list(t.id), { name });
      expect(r.status).toBe(400);
      expect(r.body.errors.name).toBe(text);
    }
    expect((await t.as.post(PATHS.origins.list(t.id), {})).status).toBe(400);
    expect((await t.as.post(PATHS.origins.list(t.id), { name: `${'y'.repeat(25)}.test` })).status).toBe(201);
  });

  it('toggles 10 ↔ 20; a suspended origin cannot be toggled (403)', async () => {
    const t = await team();
    const id = (await t.as.post(PATHS.origins.list(t.id), { name: 'edge.example.test' })).body.data.id;
    const off = await t.as.get(PATHS.origins.toggle(t.id, id));
    expect(off.body.data.status).toEqual({ id: 20, name: 'Inactive' });
    expect((await t.as.get(PATHS.origins.toggle(t.id, id))).body.data.status.id).toBe(10);
    await server.app.ctx.db.updateTable('origins').set({ suspended: 1 }).where('id', '=', id).execute();
    const blocked = await t.as.get(PATHS.origins.toggle(t.id, id));
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe(MSG_DOMAIN_RULES.originSuspended);
  });

  it('deletes; a Viewer may not manage; a foreign id is 404', async () => {
    const t = await team();
    const other = await team();
    const id = (await t.as.post(PATHS.origins.list(t.id), { name: 'edge.example.test' })).body.data.id;
    expect((await t.viewer.post(PATHS.origins.list(t.id), { name: 'nope.example.test' })).status).toBe(403);
    expect((await other.as.get(PATHS.origins.toggle(other.id, id))).status).toBe(404);
    expect((await other.as.send('DELETE', PATHS.origins.remove(other.id, id))).status).toBe(404);
    const r = await t.as.send('DELETE', PATHS.origins.remove(t.id, id));
    expect(r.status).toBe(200);
    expect((await t.as.get(PATHS.origins.list(t.id))).body.data).toEqual([]);
    expect((await t.as.send('DELETE', PATHS.origins.remove(t.id, id))).status).toBe(404);
  });
});
