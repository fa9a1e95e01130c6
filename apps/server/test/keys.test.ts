import { EventCode, MSG_DOMAIN_RULES, MSG_DOMAINS, PATHS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltUser, buildDomain, buildKey, buildTeam, buildUser, memoryMailer } from './factories.js';
import { streamsOf } from './helpers/events.js';
import { Api, type Json } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let api: Api;
let supervisor: BuiltUser;

beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer } });
  api = new Api(server.base);
  supervisor = await buildUser(server.app, { supervisor: true });
});
afterAll(async () => {
  await server?.close();
});

async function teamWithDomain(opts: { status?: number } = {}) {
  const t = await buildTeam(server.app);
  const d = await buildDomain(server.app, t.id, { promoted: true, ...opts });
  return { id: t.id, owner: t.owner, as: api.as(t.owner.token), domainId: d.id };
}

const listed = async (as: Api, teamId: number) =>
  (await as.post(PATHS.keys.list(teamId))).body.data as Json[];

describe('create', () => {
  it('creates an active key for a promoted domain (201 ZKeyResponse) with a 40-character hash', async () => {
    const t = await teamWithDomain();
    const r = await t.as.post(PATHS.keys.create(t.id, t.domainId), { name: '  player one ' });
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({
      id: expect.any(Number),
      teamId: t.id,
      domainId: t.domainId,
      keyHash: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
      name: 'player one',
      createdAt: expect.any(String),
      status: 10,
      suspended: 0,
    });
    expect(new Date(r.body.data.createdAt).toISOString()).toBe(r.body.data.createdAt);
  });

  it('domainId 0 makes a key for every domain (domainId null); no body gives an empty name', async () => {
    const t = await teamWithDomain();
    const r = await t.as.post(PATHS.keys.create(t.id, 0));
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ domainId: null, name: '', status: 10 });
  });

  it('hashes are distinct across many keys', async () => {
    const t = await teamWithDomain();
    const hashes = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const r = await t.as.post(PATHS.keys.create(t.id, t.domainId), {});
      expect(r.body.data.keyHash).toMatch(/^[A-Za-z0-9]{40}$/);
      hashes.add(r.body.data.keyHash);
    }
    expect(hashes.size).toBe(30);
  });

  it('a name over 30 is 400; a draft domain is 409; a deleted or foreign domain is 404', async () => {
    const t = await teamWithDomain();
    const long = await t.as.post(PATHS.keys.create(t.id, t.domainId), { name: 'x'.repeat(31) });
    expect(long.status).toBe(400);
    expect(long.body.errors.name).toBe('Maximum 30 symbols are allowed');

    const draft = await buildDomain(server.app, t.id, { verified: true });
    const r = await t.as.post(PATHS.keys.create(t.id, draft.id), {});
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(MSG_DOMAIN_RULES.keyNeedsPromotedDomain);

    const deleted = await buildDomain(server.app, t.id, { promoted: true, status: 50 });
    expect((await t.as.post(PATHS.keys.create(t.id, deleted.id), {})).status).toBe(404);
    const other = await teamWithDomain();
    expect((await t.as.post(PATHS.keys.create(t.id, other.domainId), {})).status).toBe(404);
    expect(await listed(other.as, other.id)).toEqual([]);
  });
});

describe('list and read', () => {
  it('lists statuses 10, 20, 30, 40 (not 50); a key of an inactive domain is shown as 20', async () => {
    const t = await teamWithDomain();
    const inactiveDomain = await buildDomain(server.app, t.id, { promoted: true, status: 20 });
    const a = await buildKey(server.app, t.id, t.domainId, { name: 'a' });
    const b = await buildKey(server.app, t.id, t.domainId, { status: 20 });
    const c = await buildKey(server.app, t.id, t.domainId, { status: 30 });
    const e = await buildKey(server.app, t.id, t.domainId, { status: 40 });
    await buildKey(server.app, t.id, t.domainId, { status: 50 });
    const f = await buildKey(server.app, t.id, inactiveDomain.id);
    const all = await buildKey(server.app, t.id, null);
    const keys = await listed(t.as, t.id);
    expect(keys.map((k) => [k.id, k.status])).toEqual([
      [a.id, 10],
      [b.id, 20],
      [c.id, 30],
      [e.id, 40],
      [f.id, 20],
      [all.id, 10],
    ]);
    const one = await t.as.get(PATHS.keys.read(t.id, f.id));
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: f.id, status: 20, keyHash: f.keyHash });
  });

  it('the domain list answers the keys for all domains (domainId null) in allDomains, not under a domain', async () => {
    const t = await teamWithDomain();
    const own = await buildKey(server.app, t.id, t.domainId, { name: 'own' });
    const all = await buildKey(server.app, t.id, null, { name: 'everywhere' });
    await buildKey(server.app, t.id, null, { status: 50 });
    const other = await teamWithDomain();
    await buildKey(server.app, other.id, null);
    const r = await t.as.post(PATHS.domains.list(t.id), {});
    expect(r.status).toBe(200);
    expect(r.body.allDomains).toEqual([
      expect.objectContaining({
        id: all.id,
        domainId: null,
        name: 'everywhere',
        status: 10,
        keyHash: all.keyHash,
      }),
    ]);
    const domainKeys = r.body.verified.flatMap((d: Json) => d.keys.map((k: Json) => k.id));
    expect(domainKeys).toContain(own.id);
    expect(domainKeys).not.toContain(all.id);
  });

  it("another team's key id is 404 on every key call, and the key is unchanged", async () => {
    const mine = await teamWithDomain();
    const theirs = await teamWithDomain();
    const k = await buildKey(server.app, theirs.id, theirs.domainId, { name: 'theirs' });
    const sup = api.as(supervisor.token);
    const calls = await Promise.all([
      mine.as.get(PATHS.keys.read(mine.id, k.id)),
      mine.as.put(PATHS.keys.read(mine.id, k.id), { name: 'stolen' }),
      mine.as.get(PATHS.keys.toggleActive(mine.id, k.id)),
      mine.as.send('DELETE', PATHS.keys.read(mine.id, k.id)),
      sup.post(PATHS.keys.suspend(mine.id, k.id)),
      mine.as.get(PATHS.keySettings.read(mine.id, 0, k.id)),
      mine.as.post(PATHS.keySettings.write(mine.id, 0, k.id), { settings: [{ id: 12, value: 3 }] }),
    ]);
    expect(calls.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(await listed(theirs.as, theirs.id)).toEqual([
      expect.objectContaining({ id: k.id, name: 'theirs', status: 10 }),
    ]);
  });
});

describe('rename, toggle, delete', () => {
  it('renames (max 30) and toggles 10 ↔ 20', async () => {
    const t = await teamWithDomain();
    const k = await buildKey(server.app, t.id, t.domainId);
    const r = await t.as.put(PATHS.keys.read(t.id, k.id), { name: ' main ' });
    expect(r.status).toBe(200);
    expect(r.body.data.name).toBe('main');
    expect((await t.as.put(PATHS.keys.read(t.id, k.id), { name: 'y'.repeat(31) })).status).toBe(400);
    expect((await t.as.put(PATHS.keys.read(t.id, k.id), { name: '' })).body.data.name).toBe('');
    expect((await t.as.get(PATHS.keys.toggleActive(t.id, k.id))).body.data.status).toBe(20);
    expect((await t.as.get(PATHS.keys.toggleActive(t.id, k.id))).body.data.status).toBe(10);
  });

  it('status 40 blocks rename and toggle (403); status 30 cannot be toggled', async () => {
    const t = await teamWithDomain();
    const k = await buildKey(server.app, t.id, t.domainId, { status: 40 });
    const rename = await t.as.put(PATHS.keys.read(t.id, k.id), { name: 'x' });
    expect(rename.status).toBe(403);
    expect(rename.body.message).toBe(MSG_DOMAINS.keySuspendedWarning);
    expect((await t.as.get(PATHS.keys.toggleActive(t.id, k.id))).status).toBe(403);
    const locked = await buildKey(server.app, t.id, t.domainId, { status: 30 });
    expect((await t.as.get(PATHS.keys.toggleActive(t.id, locked.id))).status).toBe(403);
  });

  it('deletes: status 50, no longer listed or readable', async () => {
    const t = await teamWithDomain();
    const k = await buildKey(server.app, t.id, t.domainId);
    const r = await t.as.send('DELETE', PATHS.keys.read(t.id, k.id));
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(MSG_DOMAIN_RULES.keyDeleted);
    expect(await listed(t.as, t.id)).toEqual([]);
    expect((await t.as.get(PATHS.keys.read(t.id, k.id))).status).toBe(404);
    const row = await server.app.ctx.db
      .selectFrom('keys')
      .select('status')
      .where('id', '=', k.id)
      .executeTakeFirst();
    expect(row?.status).toBe(50);
  });
});

describe('key suspension (supervisor)', () => {
  it('stores the status, sets 40 with suspended 1, and restores it', async () => {
    const t = await teamWithDomain();
    const sup = api.as(supervisor.token);
    const k = await buildKey(server.app, t.id, t.domainId, { status: 20 });
    const s = await sup.post(PATHS.keys.suspend(t.id, k.id));
    expect(s.status).toBe(200);
    expect(s.body.data).toMatchObject({ status: 40, suspended: 1 });
    const back = await sup.post(PATHS.keys.suspend(t.id, k.id));
    expect(back.body.data).toMatchObject({ status: 20, suspended: 0 });
    expect((await t.as.post(PATHS.keys.suspend(t.id, k.id))).status).toBe(403);
  });
});

describe('a suspended team is view-only', () => {
  it('lists keys but refuses every change with 403', async () => {
    const t = await teamWithDomain();
    const k = await buildKey(server.app, t.id, t.domainId);
    await server.app.ctx.db.updateTable('teams').set({ suspended: 1 }).where('id', '=', t.id).execute();
    expect((await t.as.post(PATHS.keys.list(t.id))).status).toBe(200);
    expect((await t.as.post(PATHS.keys.create(t.id, t.domainId), {})).status).toBe(403);
    expect((await t.as.put(PATHS.keys.read(t.id, k.id), { name: 'x' })).status).toBe(403);
    expect((await api.as(supervisor.token).post(PATHS.keys.suspend(t.id, k.id))).status).toBe(403);
  });
});

describe('events 90, 91, 92', () => {
  it('reach a member with team_id and the key id', async () => {
    const viewer = await buildUser(server.app);
    const t = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
    const d = await buildDomain(server.app, t.id, { promoted: true });
    const as = api.as(t.owner.token);
    const streams = await streamsOf(server.base, { viewer });
    try {
      const created = await as.post(PATHS.keys.create(t.id, d.id), { name: 'k' });
      const id = created.body.data.id;
      expect(await streams.viewer.waitForEvent(EventCode.KeyCreated)).toEqual({
        code: 90,
        team_id: t.id,
        created_key: id,
      });
      await as.put(PATHS.keys.read(t.id, id), { name: 'renamed' });
      expect(await streams.viewer.waitForEvent(EventCode.KeyChanged)).toEqual({
        code: 92,
        team_id: t.id,
        created_key: id,
      });
      await as.get(PATHS.keys.toggleActive(t.id, id));
      await api.as(supervisor.token).post(PATHS.keys.suspend(t.id, id));
      await streams.viewer.waitFor(() => streams.viewer.events().filter((e) => e.code === 92).length === 3);
      await api.as(supervisor.token).post(PATHS.keys.suspend(t.id, id));
      await as.send('DELETE', PATHS.keys.read(t.id, id));
      expect(await streams.viewer.waitForEvent(EventCode.KeyDeleted)).toEqual({
        code: 91,
        team_id: t.id,
        deleted_key: id,
      });
    } finally {
      streams.closeAll();
    }
  });
});
