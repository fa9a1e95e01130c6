import { MSG, MSG_DOMAINS, PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrigin, buildTeam, memoryMailer } from './factories.js';
import { Api } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

/** Issue 39 item 5: an Origin is the host the customer typed, refused when it is no host or the team's
 *  already. */
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
  const t = await buildTeam(server.app);
  return { id: t.id, as: api.as(t.owner.token) };
}

describe('an Origin is named with a host', () => {
  it('keeps the typed host (lower case, root dot dropped) as its name and host; the url is generated', async () => {
    const t = await team();
    const r = await t.as.post(PATHS.origins.create(t.id), { name: ' CDN.Example.com. ' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data).toMatchObject({
      name: 'cdn.example.com',
      host: 'cdn.example.com',
      url: `o${r.body.data.id}-t${t.id}.cdn.dashboard.test`,
      verification: 'unverified',
    });
    const idn = await t.as.post(PATHS.origins.create(t.id), { name: 'cdn.bücher.example' });
    expect(idn.status).toBe(201);
    expect(idn.body.data.name).toBe('cdn.xn--bcher-kva.example');
    const list = (await t.as.get(PATHS.origins.list(t.id))).body.data;
    expect(list.map((o: { name: string }) => o.name)).toEqual([
      'cdn.example.com',
      'cdn.xn--bcher-kva.example',
    ]);
  });

  it('refuses what is no bare host with a 400 naming name', async () => {
    const t = await team();
    for (const name of [
      'http://x',
      'https://cdn.example.com',
      'cdn.example.com/live',
      'cdn example.com',
      'edge',
      'Main storage',
      '1.2.3.4',
      '[::1]',
      'cdn.example.com:8080',
      'user@cdn.example.com',
      '-cdn.example.com',
      'cdn..example.com',
    ]) {
      const r = await t.as.post(PATHS.origins.create(t.id), { name });
      expect(r.status, name).toBe(400);
      expect(r.body.errors, name).toEqual({ name: MSG_DOMAINS.originNotAHost });
    }
    const empty = await t.as.post(PATHS.origins.create(t.id), { name: '  ' });
    expect(empty.body.errors).toEqual({ name: MSG.required });
    const long = await t.as.post(PATHS.origins.create(t.id), { name: `${'a'.repeat(20)}.example.com` });
    expect(long.body.errors).toEqual({ name: MSG.tooLong(30) });
    expect((await t.as.get(PATHS.origins.list(t.id))).body.data).toEqual([]);
  });

  it('refuses a host the team has already (409 naming name), however typed; another team may have it', async () => {
    const t = await team();
    expect((await t.as.post(PATHS.origins.create(t.id), { name: 'edge.example.com' })).status).toBe(201);
    for (const name of ['edge.example.com', 'EDGE.example.com.']) {
      const again = await t.as.post(PATHS.origins.create(t.id), { name });
      expect(again.status, name).toBe(409);
      expect(again.body).toEqual({
        message: MSG_DOMAINS.originDuplicate,
        errors: { name: MSG_DOMAINS.originDuplicate },
      });
    }
    const other = await team();
    expect((await other.as.post(PATHS.origins.create(other.id), { name: 'edge.example.com' })).status).toBe(
      201,
    );
    // Deleting it frees the host again.
    const [o] = (await t.as.get(PATHS.origins.list(t.id))).body.data;
    expect((await t.as.send('DELETE', PATHS.origins.remove(t.id, o.id))).status).toBe(200);
    expect((await t.as.post(PATHS.origins.create(t.id), { name: 'edge.example.com' })).status).toBe(201);
  });

  it('of the same host added at once, exactly one is created', async () => {
    const t = await team();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => t.as.post(PATHS.origins.create(t.id), { name: 'race.example.com' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await t.as.get(PATHS.origins.list(t.id))).body.data).toHaveLength(1);
  });

  it('an older row named with no host is still listed as such (nothing to verify)', async () => {
    const t = await team();
    await buildOrigin(server.app, t.id, { name: 'Main storage' });
    const [o] = (await t.as.get(PATHS.origins.list(t.id))).body.data;
    expect(o).toMatchObject({ name: 'Main storage', host: null, verification: 'notHost' });
  });
});
