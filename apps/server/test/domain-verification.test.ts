import { EventCode, MSG_DOMAINS, PATHS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BuiltUser, buildDomain, buildTeam, buildUser, memoryMailer } from './factories.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { streamsOf } from './helpers/events.js';
import { Api } from './helpers/http.js';
import { closedPort, startTestSite, type TestSite } from './helpers/http-site.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * Verification over real HTTP against the real local DNS server and web site of the verifier tests:
 * the server is configured as an operator would (DNS_SERVERS, VERIFY_HTTP_PORT, VERIFY_ALLOW_PRIVATE),
 * with only the https port and the timeouts shortened through buildApp's deps.
 */
let server: TestServer;
let api: Api;
let dns: TestDns;
let site: TestSite;

const Method = { CNAME: 1, dnsTXT: 2, HTML: 3, META: 4, Bypass: 5 } as const;

beforeAll(async () => {
  dns = await startTestDns();
  site = await startTestSite();
  server = await startServer({
    env: { DNS_SERVERS: dns.server, VERIFY_HTTP_PORT: String(site.port), VERIFY_ALLOW_PRIVATE: 'true' },
    deps: { mailer: memoryMailer().mailer, verifier: { httpsPort: await closedPort(), timeoutMs: 1500 } },
  });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await dns?.close();
});
beforeEach(() => site.clear());

let n = 0;
/** A team with a draft for a fresh host that resolves to the local site. */
async function draft(opts: { owner?: BuiltUser } = {}) {
  const t = await buildTeam(server.app, opts.owner ? { owner: opts.owner } : {});
  const host = `v${++n}-${Date.now().toString(36)}.example.test`;
  dns.set(host, { A: ['127.0.0.1'] });
  const as = api.as(t.owner.token);
  const created = await as.post(PATHS.domains.create(t.id), { url: `https://${host}/` });
  expect(created.status).toBe(201);
  const id: number = created.body.data.id;
  const [d] = (await as.post(PATHS.domains.list(t.id))).body.data;
  return { teamId: t.id, owner: t.owner, as, id, host, hash: d.verificationHash as string };
}

async function domainOf(as: Api, teamId: number, id: number) {
  const list = await as.post(PATHS.domains.list(teamId));
  return list.body.data.find((d: { id: number }) => d.id === id);
}

async function expectVerified(d: Awaited<ReturnType<typeof draft>>, method: number, inx = 2) {
  const r = await d.as.put(PATHS.domains.verify(d.teamId, d.id), { verificationMethod: method, inx });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body).toEqual({ message: MSG_DOMAINS.verified, data: { verified: true, inx } });
  expect(await domainOf(d.as, d.teamId, d.id)).toMatchObject({
    status: { id: 10 },
    verification: { id: 1 },
    verificationMethod: { id: method },
    draft: { id: 0 },
  });
}

async function expectFailed(d: Awaited<ReturnType<typeof draft>>, method: number) {
  const r = await d.as.put(PATHS.domains.verify(d.teamId, d.id), { verificationMethod: method, inx: 0 });
  expect(r.status).toBe(400);
  // The reason goes to the log only.
  expect(r.body).toEqual({ message: MSG_DOMAINS.verificationFailed });
  expect(await domainOf(d.as, d.teamId, d.id)).toMatchObject({
    status: { id: 20 },
    verification: { id: 0 },
    verificationMethod: null,
  });
}

describe('verification by each method against the local DNS server and web site', () => {
  it('META: passes with the tag in the head of the home page', async () => {
    const d = await draft();
    site.route('/', {
      body: `<!doctype html><html><head><meta name="tlprt-verification" content="${d.hash}"></head><body></body></html>`,
    });
    await expectVerified(d, Method.META);
    expect(site.requests.map((r) => r.host)).toContain(`${d.host}:${site.port}`);
  });

  it('META: fails without the tag', async () => {
    const d = await draft();
    site.route('/', { body: '<html><head><title>x</title></head><body></body></html>' });
    await expectFailed(d, Method.META);
  });

  it('HTML: passes with the file holding the hash; fails on a 404', async () => {
    const d = await draft();
    await expectFailed(d, Method.HTML);
    site.route(`/tlprt-${d.hash}.html`, { body: d.hash });
    await expectVerified(d, Method.HTML);
  });

  it('dnsTXT: passes with the TXT record; fails with another hash', async () => {
    const d = await draft();
    dns.set(d.host, { A: ['127.0.0.1'], TXT: [['tlprt-verification=ffffffffffffffffffffffffffffffff']] });
    await expectFailed(d, Method.dnsTXT);
    dns.set(d.host, { A: ['127.0.0.1'], TXT: [['v=spf1 -all'], [`tlprt-verification=${d.hash}`]] });
    await expectVerified(d, Method.dnsTXT);
  });

  it('CNAME: passes when tlprt-<hash>.<host> points at verify.<public host>; fails elsewhere', async () => {
    const d = await draft();
    const name = `tlprt-${d.hash}.${d.host}`;
    dns.set(name, { CNAME: 'verify.elsewhere.test' });
    await expectFailed(d, Method.CNAME);
    dns.set(name, { CNAME: 'verify.dashboard.test' });
    await expectVerified(d, Method.CNAME);
  });

  it('the instructions are what the checks look for', async () => {
    const d = await draft();
    const r = await d.as.get(PATHS.domains.instructions(d.teamId, d.id));
    expect(r.status).toBe(200);
    const i = r.body.data;
    dns.set(i.cname.name, { CNAME: i.cname.target });
    dns.set(i.dnsTxt.name, { A: ['127.0.0.1'], TXT: [[i.dnsTxt.value]] });
    site.route(`/${i.html.fileName}`, { body: i.html.content });
    site.route('/', { body: `<html><head>${i.meta.tag}</head></html>` });
    for (const method of [Method.CNAME, Method.dnsTXT, Method.HTML, Method.META]) {
      // Each passes on its own: reset the domain to a draft between methods.
      await server.app.ctx.db
        .updateTable('domains')
        .set({ verification: 0, status: 20, verification_method: null })
        .where('id', '=', d.id)
        .execute();
      await expectVerified(d, method);
    }
  });

  it('verifying an already verified domain answers 200 without another check', async () => {
    const d = await draft();
    await server.app.ctx.db
      .updateTable('domains')
      .set({ verification: 1, status: 10 })
      .where('id', '=', d.id)
      .execute();
    const r = await d.as.put(PATHS.domains.verify(d.teamId, d.id), { verificationMethod: Method.META });
    expect(r.status).toBe(200);
    expect(site.requests).toHaveLength(0);
  });

  it('an unknown method is 400', async () => {
    const d = await draft();
    const r = await d.as.put(PATHS.domains.verify(d.teamId, d.id), { verificationMethod: 6 });
    expect(r.status).toBe(400);
    expect(r.body.errors.verificationMethod).toBeTruthy();
  });
});

describe('supervisor bypass (method 5)', () => {
  it('verifies for a supervisor without any look-up; 403 for an Admin and a Key master', async () => {
    const keyMaster = await buildUser(server.app);
    const d = await draft();
    await server.app.ctx.db
      .insertInto('team_members')
      .values({ team_id: d.teamId, user_id: keyMaster.id, role: Role.KeyMaster, created_at: Date.now() })
      .execute();
    const queriesBefore = dns.queries.length;
    for (const token of [d.owner.token, keyMaster.token]) {
      const r = await api.as(token).put(PATHS.domains.verify(d.teamId, d.id), { verificationMethod: 5 });
      expect(r.status).toBe(403);
    }
    const supervisor = await buildUser(server.app, { supervisor: true });
    const r = await api
      .as(supervisor.token)
      .put(PATHS.domains.verify(d.teamId, d.id), { verificationMethod: Method.Bypass, inx: 1 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: MSG_DOMAINS.verified, data: { verified: true, inx: 1 } });
    expect(await domainOf(d.as, d.teamId, d.id)).toMatchObject({
      verification: { id: 1 },
      verificationMethod: { id: 5 },
    });
    expect(dns.queries.length).toBe(queriesBefore);
    expect(site.requests).toHaveLength(0);
  });
});

describe('one team per verified host', () => {
  it('404 assignedToAnother when another team verified the host first', async () => {
    const a = await draft();
    const b = await buildTeam(server.app);
    const bApi = api.as(b.owner.token);
    const created = await bApi.post(PATHS.domains.create(b.id), { url: a.host });
    expect(created.status).toBe(201);
    dns.set(a.host, { A: ['127.0.0.1'], TXT: [[`tlprt-verification=${a.hash}`]] });
    await expectVerified(a, Method.dnsTXT);
    const r = await bApi.put(PATHS.domains.verify(b.id, created.body.data.id), { verificationMethod: 5 });
    // Even the bypass cannot take a host another team holds.
    expect(r.status).toBe(403);
    const supervisor = await buildUser(server.app, { supervisor: true });
    const s = await api.as(supervisor.token).put(PATHS.domains.verify(b.id, created.body.data.id), {
      verificationMethod: 5,
    });
    expect(s.status).toBe(404);
    expect(s.body.message).toBe(MSG_DOMAINS.assignedToAnother);
  });

  it('404 when the other team verified while our check was running (re-checked in the transaction)', async () => {
    const a = await draft();
    const b = await buildTeam(server.app);
    const bApi = api.as(b.owner.token);
    const bDomain = (await bApi.post(PATHS.domains.create(b.id), { url: a.host })).body.data.id;
    const bHash = (await domainOf(bApi, b.id, bDomain)).verificationHash;
    // B's HTML file answers slowly; A is verified by a supervisor in the meantime.
    site.route(`/tlprt-${bHash}.html`, { body: bHash, delayMs: 400 });
    const pending = bApi.put(PATHS.domains.verify(b.id, bDomain), { verificationMethod: Method.HTML });
    await new Promise((r) => setTimeout(r, 100));
    const supervisor = await buildUser(server.app, { supervisor: true });
    const s = await api
      .as(supervisor.token)
      .put(PATHS.domains.verify(a.teamId, a.id), { verificationMethod: 5 });
    expect(s.status).toBe(200);
    const r = await pending;
    expect(r.status).toBe(404);
    expect(r.body.message).toBe(MSG_DOMAINS.assignedToAnother);
    expect((await domainOf(bApi, b.id, bDomain)).verification.id).toBe(0);
  });

  it('the database refuses a second verified row for a host (unique among verified live domains)', async () => {
    const host = `unique-${Date.now().toString(36)}.example.test`;
    const t1 = await buildTeam(server.app);
    const t2 = await buildTeam(server.app);
    await buildDomain(server.app, t1.id, { host, verified: true });
    await expect(buildDomain(server.app, t2.id, { host, verified: true })).rejects.toThrow();
    // A deleted verified row does not count.
    await server.app.ctx.db.updateTable('domains').set({ status: 50 }).where('host', '=', host).execute();
    await expect(buildDomain(server.app, t2.id, { host, verified: true })).resolves.toBeTruthy();
  });
});

describe('event 62 on verification', () => {
  it('reaches a member with the domain id and status 10', async () => {
    const viewer = await buildUser(server.app);
    const d = await draft();
    await server.app.ctx.db
      .insertInto('team_members')
      .values({ team_id: d.teamId, user_id: viewer.id, role: Role.Viewer, created_at: Date.now() })
      .execute();
    const streams = await streamsOf(server.base, { viewer });
    try {
      site.route(`/tlprt-${d.hash}.html`, { body: d.hash });
      await expectVerified(d, Method.HTML);
      expect(await streams.viewer.waitForEvent(EventCode.DomainStatus)).toEqual({
        code: 62,
        team_id: d.teamId,
        domain_id: d.id,
        status: 10,
        suspended: 0,
      });
    } finally {
      streams.closeAll();
    }
  });
});
