import { EventCode, MSG_DOMAIN_RULES, MSG_DOMAINS, PATHS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteTeam } from '../src/directory/teams.js';
import { type BuiltUser, buildDomain, buildKey, buildTeam, buildUser, memoryMailer } from './factories.js';
import { streamsOf } from './helpers/events.js';
import { Api, type Json } from './helpers/http.js';
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

async function team(): Promise<{ id: number; owner: BuiltUser; as: Api }> {
  const t = await buildTeam(server.app);
  return { ...t, as: api.as(t.owner.token) };
}

const unique = (prefix = 'site') => `${prefix}-${Math.random().toString(36).slice(2, 10)}.example.com`;

async function listOf(as: Api, teamId: number) {
  const r = await as.post(PATHS.domains.list(teamId));
  expect(r.status).toBe(200);
  return r.body;
}

describe('create a domain', () => {
  it('reduces the input to the bare host and creates a draft (201 {data: {id}})', async () => {
    const t = await team();
    const host = unique();
    const r = await t.as.post(PATHS.domains.create(t.id), {
      url: `https://www.${host.toUpperCase()}/path?q=1`,
    });
    expect(r.status).toBe(201);
    expect(r.body.data.id).toEqual(expect.any(Number));
    const list = await listOf(t.as, t.id);
    expect(list.data).toHaveLength(1);
    const d = list.data[0];
    expect(d).toMatchObject({
      id: r.body.data.id,
      teamId: t.id,
      url: host,
      status: { id: 20, name: 'Inactive' },
      verification: { id: 0 },
      verificationMethod: null,
      draft: { id: 0 },
      suspended: 0,
      keys: [],
    });
    expect(d.verificationHash).toMatch(/^[0-9a-f]{32}$/);
    expect(list.drafts.map((x: { id: number }) => x.id)).toEqual([d.id]);
    expect(list.verified).toEqual([]);
  });

  it('accepts "https://www.Example.com/path" as example.com and IDN as punycode', async () => {
    const t = await team();
    const r = await t.as.post(PATHS.domains.create(t.id), { url: 'https://www.Example.com/path' });
    expect(r.status).toBe(201);
    const r2 = await t.as.post(PATHS.domains.create(t.id), { url: 'bücher.example' });
    expect(r2.status).toBe(201);
    const urls = (await listOf(t.as, t.id)).data.map((d: { url: string }) => d.url);
    expect(urls).toEqual(['example.com', 'xn--bcher-kva.example']);
  });

  it.each(['not a host', 'localhost', '127.0.0.1', 'http://', 'exa_mple.com', '-bad.example.com'])(
    'refuses %j with 400 incorrectFormat naming url',
    async (url) => {
      const t = await team();
      const r = await t.as.post(PATHS.domains.create(t.id), { url });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        message: MSG_DOMAINS.incorrectFormat,
        errors: { url: MSG_DOMAINS.incorrectFormat },
      });
    },
  );

  it('requires url (400)', async () => {
    const t = await team();
    const r = await t.as.post(PATHS.domains.create(t.id), {});
    expect(r.status).toBe(400);
    expect(r.body.errors.url).toBeTruthy();
  });

  it('404 assignedToAnother when another team verified the host', async () => {
    const other = await team();
    const host = unique();
    await buildDomain(server.app, other.id, { host, verified: true });
    const t = await team();
    const r = await t.as.post(PATHS.domains.create(t.id), { url: host });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe(MSG_DOMAINS.assignedToAnother);
  });

  it('another team holding the host only as an unverified draft does not block', async () => {
    const other = await team();
    const host = unique();
    await buildDomain(server.app, other.id, { host });
    const t = await team();
    expect((await t.as.post(PATHS.domains.create(t.id), { url: host })).status).toBe(201);
  });

  it('406 alreadyVerifiedInTeam when this team has it verified; 409 alreadyDraft for a draft', async () => {
    const t = await team();
    const verified = unique();
    await buildDomain(server.app, t.id, { host: verified, verified: true, promoted: true });
    const r = await t.as.post(PATHS.domains.create(t.id), { url: verified });
    expect(r.status).toBe(406);
    expect(r.body.message).toBe(MSG_DOMAINS.alreadyVerifiedInTeam);

    const draft = unique();
    expect((await t.as.post(PATHS.domains.create(t.id), { url: draft })).status).toBe(201);
    const again = await t.as.post(PATHS.domains.create(t.id), { url: `http://${draft}/` });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MSG_DOMAINS.alreadyDraft);
  });

  it('409 maxDomains for the sixth live domain; a deleted one frees a place', async () => {
    const t = await team();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await t.as.post(PATHS.domains.create(t.id), { url: unique(`n${i}`) });
      expect(r.status).toBe(201);
      ids.push(r.body.data.id);
    }
    const sixth = await t.as.post(PATHS.domains.create(t.id), { url: unique('six') });
    expect(sixth.status).toBe(409);
    expect(sixth.body.message).toBe(MSG_DOMAINS.maxDomains);
    expect((await t.as.send('DELETE', PATHS.domains.remove(t.id, ids[0] ?? 0))).status).toBe(200);
    expect((await t.as.post(PATHS.domains.create(t.id), { url: unique('six') })).status).toBe(201);
  });

  it('five concurrent creations past the limit still leave five domains', async () => {
    const t = await team();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.as.post(PATHS.domains.create(t.id), { url: unique(`c${i}`) })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    expect((await listOf(t.as, t.id)).data).toHaveLength(5);
  });

  it('re-creating a deleted verified host is a fresh draft with a new hash', async () => {
    const t = await team();
    const host = unique();
    const d = await buildDomain(server.app, t.id, { host, verified: true, promoted: true });
    await t.as.send('DELETE', PATHS.domains.remove(t.id, d.id));
    const r = await t.as.post(PATHS.domains.create(t.id), { url: host });
    expect(r.status).toBe(201);
    const [fresh] = (await listOf(t.as, t.id)).data;
    expect(fresh.verification.id).toBe(0);
    expect(fresh.verificationHash).not.toBe(d.hash);
  });
});

describe('list', () => {
  it('splits drafts and promoted domains, oldest first, each with its listed keys', async () => {
    const t = await team();
    const draft = await buildDomain(server.app, t.id);
    const verifiedDraft = await buildDomain(server.app, t.id, { verified: true });
    const active = await buildDomain(server.app, t.id, { promoted: true });
    const inactive = await buildDomain(server.app, t.id, { promoted: true, status: 20 });
    const deleted = await buildDomain(server.app, t.id, { promoted: true, status: 50 });
    const k1 = await buildKey(server.app, t.id, active.id, { name: 'one' });
    await buildKey(server.app, t.id, active.id, { status: 50 });
    const k3 = await buildKey(server.app, t.id, inactive.id);
    await buildKey(server.app, t.id, null);

    const list = await listOf(t.as, t.id);
    const ids = (xs: Array<{ id: number }>) => xs.map((x) => x.id);
    expect(ids(list.data)).toEqual([draft.id, verifiedDraft.id, active.id, inactive.id]);
    expect(ids(list.drafts)).toEqual([draft.id, verifiedDraft.id]);
    expect(ids(list.verified)).toEqual([active.id, inactive.id]);
    expect(ids(list.data)).not.toContain(deleted.id);
    expect(list.drafts[1]).toMatchObject({ status: { id: 10 }, verification: { id: 1 }, draft: { id: 0 } });
    const byId = new Map<number, Json>(list.data.map((d: Json) => [d.id, d]));
    expect(byId.get(active.id).keys).toEqual([
      expect.objectContaining({
        id: k1.id,
        name: 'one',
        status: 10,
        domainId: active.id,
        keyHash: k1.keyHash,
      }),
    ]);
    // A key of an inactive domain is shown as 20.
    expect(byId.get(inactive.id).keys).toEqual([expect.objectContaining({ id: k3.id, status: 20 })]);
  });

  it('is readable by every member, 404 for a non-member', async () => {
    const viewer = await buildUser(server.app);
    const t = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
    expect((await api.as(viewer.token).post(PATHS.domains.list(t.id))).status).toBe(200);
    const stranger = await buildUser(server.app);
    expect((await api.as(stranger.token).post(PATHS.domains.list(t.id))).status).toBe(404);
  });
});

describe('the older form of spec §7 (POST /v1/cdn/ and /v1/cdn/{teamId}/create)', () => {
  it('creates and lists as the current calls do, with the same rules', async () => {
    const t = await team();
    const host = unique('legacy');
    const created = await t.as.post(PATHS.domains.legacyCreate(t.id), {
      url: `https://www.${host}/x`,
      teamId: t.id,
    });
    expect(created.status).toBe(201);
    expect(created.body.data.id).toEqual(expect.any(Number));
    const again = await t.as.post(PATHS.domains.legacyCreate(t.id), { url: host });
    expect(again.status).toBe(409);
    expect((await t.as.post(PATHS.domains.legacyCreate(t.id), {})).body.errors).toEqual({
      url: expect.any(String),
    });

    const legacy = await t.as.post(PATHS.domains.legacyList, { teamId: t.id });
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual(await listOf(t.as, t.id));
    expect(legacy.body.drafts.map((d: Json) => d.url)).toEqual([host]);
    expect((await t.as.post(PATHS.domains.legacyList.replace(/\/$/, ''), { teamId: t.id })).body).toEqual(
      legacy.body,
    );
  });

  it('keeps the team rules: 400 without teamId, 404 for a stranger, 401 without a token', async () => {
    const t = await team();
    const missing = await t.as.post(PATHS.domains.legacyList, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ teamId: expect.any(String) });
    const stranger = await buildUser(server.app);
    expect((await api.as(stranger.token).post(PATHS.domains.legacyList, { teamId: t.id })).status).toBe(404);
    expect(
      (await api.as(stranger.token).post(PATHS.domains.legacyCreate(t.id), { url: unique() })).status,
    ).toBe(404);
    expect((await api.post(PATHS.domains.legacyList, { teamId: t.id })).status).toBe(401);
  });
});

describe('promote, toggle, delete', () => {
  it('promotes only a verified draft (409 otherwise)', async () => {
    const t = await team();
    const unverified = await buildDomain(server.app, t.id);
    const r = await t.as.get(PATHS.domains.promote(t.id, unverified.id));
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(MSG_DOMAIN_RULES.notVerified);

    const verified = await buildDomain(server.app, t.id, { verified: true });
    const ok = await t.as.get(PATHS.domains.promote(t.id, verified.id));
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ id: verified.id, draft: { id: 1 }, status: { id: 10 } });
    const again = await t.as.get(PATHS.domains.promote(t.id, verified.id));
    expect(again.status).toBe(409);
    const list = await listOf(t.as, t.id);
    expect(list.verified.map((d: { id: number }) => d.id)).toEqual([verified.id]);
  });

  it('toggles a promoted domain 10 ↔ 20; a draft is 409', async () => {
    const t = await team();
    const d = await buildDomain(server.app, t.id, { promoted: true });
    const off = await t.as.get(PATHS.domains.toggleActive(t.id, d.id));
    expect(off.status).toBe(200);
    expect(off.body.data.status).toEqual({ id: 20, name: 'Inactive' });
    const on = await t.as.get(PATHS.domains.toggleActive(t.id, d.id));
    expect(on.body.data.status).toEqual({ id: 10, name: 'Active' });
    const draft = await buildDomain(server.app, t.id, { verified: true });
    expect((await t.as.get(PATHS.domains.toggleActive(t.id, draft.id))).status).toBe(409);
  });

  it('deletes drafts and promoted domains: status 50, keys 50, neither listed any more', async () => {
    const t = await team();
    const draft = await buildDomain(server.app, t.id);
    const d = await buildDomain(server.app, t.id, { promoted: true });
    const k = await buildKey(server.app, t.id, d.id);
    const teamKey = await buildKey(server.app, t.id, null);
    expect((await t.as.send('DELETE', PATHS.domains.remove(t.id, draft.id))).status).toBe(200);
    const r = await t.as.send('DELETE', PATHS.domains.remove(t.id, d.id));
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(MSG_DOMAIN_RULES.domainDeleted);
    expect((await listOf(t.as, t.id)).data).toEqual([]);
    const keys = await t.as.post(PATHS.keys.list(t.id));
    expect(keys.body.data.map((x: { id: number }) => x.id)).toEqual([teamKey.id]);
    const row = await server.app.ctx.db
      .selectFrom('keys')
      .select('status')
      .where('id', '=', k.id)
      .executeTakeFirst();
    expect(row?.status).toBe(50);
    const dom = await server.app.ctx.db
      .selectFrom('domains')
      .select(['status', 'deleted_at'])
      .where('id', '=', d.id)
      .executeTakeFirst();
    expect(dom?.status).toBe(50);
    expect(dom?.deleted_at).toEqual(expect.any(Number));
    // Gone: a second delete, a toggle or a promote are 404.
    expect((await t.as.send('DELETE', PATHS.domains.remove(t.id, d.id))).status).toBe(404);
    expect((await t.as.get(PATHS.domains.toggleActive(t.id, d.id))).status).toBe(404);
    expect((await t.as.get(PATHS.keys.read(t.id, k.id))).status).toBe(404);
  });
});

describe('suspension (supervisor)', () => {
  it('stores each key status, deactivates the keys, blocks key changes, and restores on unsuspend', async () => {
    const supervisor = await buildUser(server.app, { supervisor: true });
    const t = await team();
    const sup = api.as(supervisor.token);
    const d = await buildDomain(server.app, t.id, { promoted: true });
    const active = await buildKey(server.app, t.id, d.id, { name: 'a' });
    const inactive = await buildKey(server.app, t.id, d.id, { status: 20 });
    const restricted = await buildKey(server.app, t.id, d.id);
    expect((await sup.post(PATHS.keys.suspend(t.id, restricted.id))).body.data.status).toBe(40);

    const r = await sup.post(PATHS.domains.suspend(t.id, d.id));
    expect(r.status).toBe(200);
    expect(r.body.data.suspended).toBe(1);
    expect(r.body.data.keys.map((k: { status: number }) => k.status)).toEqual([20, 20, 20]);

    // Every key change of the domain is 403 keyChangeBlocked, for members and supervisors alike.
    const blocked = [
      await t.as.put(PATHS.keys.read(t.id, active.id), { name: 'x' }),
      await t.as.get(PATHS.keys.toggleActive(t.id, active.id)),
      await t.as.send('DELETE', PATHS.keys.read(t.id, active.id)),
      await t.as.post(PATHS.keys.create(t.id, d.id), {}),
      await sup.post(PATHS.keys.suspend(t.id, active.id)),
    ];
    for (const b of blocked) {
      expect(b.status).toBe(403);
      expect(b.body.message).toBe(MSG_DOMAINS.keyChangeBlocked);
    }
    // The domain itself cannot be toggled while suspended.
    const toggle = await t.as.get(PATHS.domains.toggleActive(t.id, d.id));
    expect(toggle.status).toBe(403);
    expect(toggle.body.message).toBe(MSG_DOMAINS.domainSuspended);

    const back = await sup.post(PATHS.domains.suspend(t.id, d.id));
    expect(back.body.data.suspended).toBe(0);
    const statuses = Object.fromEntries(
      back.body.data.keys.map((k: { id: number; status: number }) => [k.id, k.status]),
    );
    expect(statuses).toEqual({ [active.id]: 10, [inactive.id]: 20, [restricted.id]: 40 });
    expect((await t.as.put(PATHS.keys.read(t.id, active.id), { name: 'x' })).status).toBe(200);
  });

  it('is 403 for an Admin and 404 for a supervisor on a foreign id', async () => {
    const t = await team();
    const d = await buildDomain(server.app, t.id, { promoted: true });
    expect((await t.as.post(PATHS.domains.suspend(t.id, d.id))).status).toBe(403);
    const supervisor = await buildUser(server.app, { supervisor: true });
    const other = await team();
    expect((await api.as(supervisor.token).post(PATHS.domains.suspend(other.id, d.id))).status).toBe(404);
  });
});

describe('tenant scoping', () => {
  it("another team's domain id is 404 on every domain call, and nothing changes", async () => {
    const mine = await team();
    const theirs = await team();
    const d = await buildDomain(server.app, theirs.id, { verified: true });
    const calls = [
      mine.as.get(PATHS.domains.promote(mine.id, d.id)),
      mine.as.get(PATHS.domains.toggleActive(mine.id, d.id)),
      mine.as.send('DELETE', PATHS.domains.remove(mine.id, d.id)),
      mine.as.get(PATHS.domains.instructions(mine.id, d.id)),
      mine.as.put(PATHS.domains.verify(mine.id, d.id), { verificationMethod: 2 }),
      mine.as.post(PATHS.keys.create(mine.id, d.id), {}),
    ];
    for (const r of await Promise.all(calls)) {
      expect(r.status).toBe(404);
      expect(r.body.message).not.toBe(MSG_DOMAINS.assignedToAnother);
    }
    const list = await listOf(theirs.as, theirs.id);
    expect(list.data[0]).toMatchObject({ id: d.id, draft: { id: 0 } });
  });

  it('instructions give the four copyable texts for the hash', async () => {
    const t = await team();
    const d = await buildDomain(server.app, t.id, { host: 'shop.example.com' });
    const r = await t.as.get(PATHS.domains.instructions(t.id, d.id));
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      meta: { tag: `<meta name="tlprt-verification" content="${d.hash}">` },
      html: {
        fileName: `tlprt-${d.hash}.html`,
        content: d.hash,
        url: `https://shop.example.com/tlprt-${d.hash}.html`,
      },
      dnsTxt: { name: 'shop.example.com', type: 'TXT', value: `tlprt-verification=${d.hash}` },
      cname: { name: `tlprt-${d.hash}.shop.example.com`, type: 'CNAME', target: 'verify.dashboard.test' },
    });
  });
});

describe('events', () => {
  it('60 on create and promote, 62 on toggle and suspension, 61 on delete, to every member', async () => {
    const viewer = await buildUser(server.app);
    const supervisor = await buildUser(server.app, { supervisor: true });
    const t = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
    const as = api.as(t.owner.token);
    const streams = await streamsOf(server.base, { viewer, supervisor });
    try {
      const created = await as.post(PATHS.domains.create(t.id), { url: unique() });
      const id = created.body.data.id;
      expect(await streams.viewer.waitForEvent(EventCode.DomainCreated)).toEqual({
        code: 60,
        team_id: t.id,
        created_domain: id,
      });
      await server.app.ctx.db
        .updateTable('domains')
        .set({ verification: 1, status: 10 })
        .where('id', '=', id)
        .execute();
      await as.get(PATHS.domains.promote(t.id, id));
      await streams.viewer.waitFor(() => streams.viewer.events().filter((e) => e.code === 60).length === 2);

      await as.get(PATHS.domains.toggleActive(t.id, id));
      expect(await streams.viewer.waitForEvent(EventCode.DomainStatus)).toEqual({
        code: 62,
        team_id: t.id,
        domain_id: id,
        status: 20,
        suspended: 0,
      });
      await api.as(supervisor.token).post(PATHS.domains.suspend(t.id, id));
      // The supervisor is no member but made the change: their screen hears of it too.
      expect(await streams.supervisor.waitForEvent(EventCode.DomainStatus)).toMatchObject({
        team_id: t.id,
        domain_id: id,
        suspended: 1,
      });

      await as.send('DELETE', PATHS.domains.remove(t.id, id));
      expect(await streams.viewer.waitForEvent(EventCode.DomainDeleted)).toEqual({
        code: 61,
        team_id: t.id,
        deleted_domain: id,
      });
    } finally {
      streams.closeAll();
    }
  });
});

describe('housekeeping', () => {
  it('deleting a team takes its domains, keys, settings and origins with it', async () => {
    const t = await team();
    const d = await buildDomain(server.app, t.id, { promoted: true });
    const k = await buildKey(server.app, t.id, d.id);
    await buildKey(server.app, t.id, null);
    await t.as.post(PATHS.keySettings.write(t.id, d.id, k.id), { settings: [{ id: 12, value: 3 }] });
    expect((await t.as.post(PATHS.origins.list(t.id), { name: 'edge.example.test' })).status).toBe(201);
    await deleteTeam(server.app.ctx.db, t.id);
    for (const table of ['domains', 'keys', 'key_setting_values', 'origins'] as const) {
      const left = await server.app.ctx.db
        .selectFrom(table)
        .select('id')
        .where('team_id', '=', t.id)
        .execute();
      expect(left, table).toEqual([]);
    }
  });

  it('the OpenAPI description lists the domain, key, setting and origin calls', async () => {
    const r = await api.get('/api/docs/json');
    expect(Object.keys(r.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/domains/create/{teamId}',
        '/api/v1/domains/verify/{teamId}/{id}',
        '/api/v1/keys/create/{teamId}/{domainId}',
        '/api/v1/key_settings/team/{teamId}/domain/key/{keyId}/get_supervisor',
        '/api/v1/public/key_settings/{keyHash}',
        '/api/v1/origins/{teamId}/{id}/toggle',
      ]),
    );
  });
});
