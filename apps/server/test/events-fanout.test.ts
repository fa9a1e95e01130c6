import net from 'node:net';
import { EventCode, PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyPayloads } from '../src/events/bus.js';
import { sha256 } from '../src/lib/tokens.js';
import { buildSession, buildUser } from './factories.js';
import { onPostgres, startServer, type TestServer } from './helpers/server.js';
import { openStream } from './helpers/sse.js';

/** A live stream read off the socket, so the test sees the bytes on the wire, framing included. */
function rawStream(base: string, token: string, version: '1.0' | '1.1') {
  const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
  let bytes = Buffer.alloc(0);
  socket.on('data', (d) => {
    bytes = Buffer.concat([bytes, d]);
  });
  socket.write(
    `GET ${PATHS.live.stream} HTTP/${version}\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`,
  );
  const split = () => {
    const text = bytes.toString('latin1');
    const end = text.indexOf('\r\n\r\n');
    return end === -1 ? { head: '', body: '' } : { head: text.slice(0, end), body: text.slice(end + 4) };
  };
  return { head: () => split().head, body: () => split().body, close: () => socket.destroy() };
}

/** Decodes an HTTP/1.1 chunked body strictly: every size must match its data, each followed by CRLF. */
function dechunk(body: string): { text: string; last: boolean } {
  let text = '';
  let at = 0;
  while (at < body.length) {
    const eol = body.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = Number.parseInt(body.slice(at, eol), 16);
    if (!/^[0-9a-f]+$/.test(body.slice(at, eol)))
      throw new Error(`bad chunk size at ${at}: ${body.slice(at)}`);
    if (size === 0) {
      expect(body.slice(eol)).toBe('\r\n\r\n');
      return { text, last: true };
    }
    const data = body.slice(eol + 2, eol + 2 + size);
    if (data.length < size) break;
    expect(body.slice(eol + 2 + size, eol + 4 + size)).toBe('\r\n');
    text += data;
    at = eol + 4 + size;
  }
  return { text, last: false };
}

async function sessionIdOf(server: TestServer, token: string): Promise<number> {
  const row = await server.app.ctx.db
    .selectFrom('sessions')
    .select('id')
    .where('token_hash', '=', sha256(token))
    .executeTakeFirstOrThrow();
  return row.id;
}

const withoutPings = (text: string) => text.replaceAll(': ping\n\n', '');
const connected = ': connected\n\n';

describe('one event to many streams', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ deps: { heartbeatMs: 150 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes the event once to every targeted stream as well-formed HTTP/1.1 chunks, and none to others', async () => {
    const a = await buildUser(server.app);
    const b = await buildUser(server.app);
    const bystander = await buildUser(server.app);
    const aOtherDevice = await buildSession(server.app, a.id);
    const streams = {
      aTab1: rawStream(server.base, a.token, '1.1'),
      aTab2: rawStream(server.base, a.token, '1.1'),
      aDevice: rawStream(server.base, aOtherDevice, '1.1'),
      b: rawStream(server.base, b.token, '1.1'),
      bystander: rawStream(server.base, bystander.token, '1.1'),
    };
    const all = Object.values(streams);
    await expect.poll(() => all.every((s) => dechunk(s.body()).text.startsWith(connected))).toBe(true);
    for (const s of all) expect(s.head()).toMatch(/\r\ntransfer-encoding: chunked/i);

    const event = { code: EventCode.RoleChanged, team_id: 7, changed_role_user: b.id, new_role: 30 };
    await server.app.ctx.bus.publish({ userIds: [a.id, b.id] }, event);
    const message = `data: ${JSON.stringify(event)}\n\n`;
    const targeted = [streams.aTab1, streams.aTab2, streams.aDevice, streams.b];
    await expect
      .poll(() => targeted.every((s) => withoutPings(dechunk(s.body()).text) === connected + message))
      .toBe(true);
    // Heartbeats keep arriving, framed like events, on every stream.
    await expect.poll(() => all.every((s) => dechunk(s.body()).text.includes(': ping\n\n'))).toBe(true);
    expect(withoutPings(dechunk(streams.bystander.body()).text)).toBe(connected);
    expect(all.every((s) => !dechunk(s.body()).last)).toBe(true);
    for (const s of all) s.close();
  });

  it('writes once to a stream targeted both as its user and as its session, and forgets closed streams', async () => {
    const u = await buildUser(server.app);
    const sessionId = await sessionIdOf(server, u.token);
    const first = rawStream(server.base, u.token, '1.1');
    await expect.poll(() => dechunk(first.body()).text.startsWith(connected)).toBe(true);
    const event = { code: EventCode.UserAdded, team_id: 9 };
    await server.app.ctx.bus.publish({ userIds: [u.id], sessionIds: [sessionId] }, event);
    const message = `data: ${JSON.stringify(event)}\n\n`;
    await expect.poll(() => withoutPings(dechunk(first.body()).text)).toBe(connected + message);

    const held = server.app.ctx.hub.size;
    first.close();
    await expect.poll(() => server.app.ctx.hub.size).toBe(held - 1);
    const second = rawStream(server.base, u.token, '1.1');
    await expect.poll(() => dechunk(second.body()).text.startsWith(connected)).toBe(true);
    await server.app.ctx.bus.publish({ sessionIds: [sessionId] }, event);
    await expect.poll(() => withoutPings(dechunk(second.body()).text)).toBe(connected + message);
    second.close();
  });

  it('ends the targeted streams of a forced logout after the event, with the last chunk', async () => {
    const u = await buildUser(server.app);
    const other = await buildSession(server.app, u.id);
    const tab1 = rawStream(server.base, u.token, '1.1');
    const tab2 = rawStream(server.base, u.token, '1.1');
    const device2 = rawStream(server.base, other, '1.1');
    await expect
      .poll(() => [tab1, tab2, device2].every((s) => dechunk(s.body()).text.startsWith(connected)))
      .toBe(true);
    const sessionId = await sessionIdOf(server, u.token);

    await server.app.ctx.bus.publish(
      { sessionIds: [sessionId] },
      { code: EventCode.ForcedLogoutSession },
      { close: true },
    );
    // The response ends (its last chunk); the keep-alive connection itself is the client's to close.
    await expect.poll(() => [tab1, tab2].every((tab) => dechunk(tab.body()).last)).toBe(true);
    for (const tab of [tab1, tab2])
      expect(withoutPings(dechunk(tab.body()).text)).toBe(`${connected}data: {"code":11}\n\n`);
    expect(withoutPings(dechunk(device2.body()).text)).toBe(connected);
    expect(dechunk(device2.body()).last).toBe(false);
    for (const s of [tab1, tab2, device2]) s.close();
  });

  it('sends an HTTP/1.0 client (not chunked) the same text', async () => {
    const u = await buildUser(server.app);
    const s = rawStream(server.base, u.token, '1.0');
    await expect.poll(() => s.body().startsWith(connected)).toBe(true);
    expect(s.head()).not.toMatch(/transfer-encoding/i);
    await server.app.ctx.bus.publish({ userIds: [u.id] }, { code: EventCode.UserAdded, team_id: 4 });
    await expect.poll(() => withoutPings(s.body())).toBe(`${connected}data: {"code":10,"team_id":4}\n\n`);
    await expect.poll(() => s.body().includes(': ping\n\n')).toBe(true);
    s.close();
  });
});

/** Ids of nobody, to make a target longer than one notification can carry. */
const strangers = (n: number, from: number) => Array.from({ length: n }, (_, i) => from + i);

describe('notifyPayloads (NOTIFY carries less than 8000 bytes)', () => {
  const event = { code: EventCode.KeyChanged, team_id: 5, created_key: 9 };

  it('keeps a message that fits whole', () => {
    const message = { target: { userIds: [1, 2, 3] }, event };
    expect(notifyPayloads(message)).toEqual([JSON.stringify(message)]);
  });

  it('splits the recipients of a longer one over parts that each fit, in order, each with the event', () => {
    const userIds = strangers(3000, 1_000_000);
    const sessionIds = strangers(1500, 2_000_000);
    const payloads = notifyPayloads({ target: { userIds, sessionIds }, event, close: true }, 2000);
    expect(payloads.length).toBeGreaterThan(1);
    const parts = payloads.map((p) => {
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(2000);
      return JSON.parse(p);
    });
    const [first] = parts;
    parts.forEach((p, index) => {
      expect(p.part).toEqual({ id: first.part.id, index, count: parts.length });
      expect(p.event).toEqual(event);
      expect(p.close).toBe(true);
    });
    expect(parts.flatMap((p) => p.target.userIds ?? [])).toEqual(userIds);
    expect(parts.flatMap((p) => p.target.sessionIds ?? [])).toEqual(sessionIds);
  });
});

describe.runIf(onPostgres)('PgBus: a message split over several notifications', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reaches its streams once, whole, and a forced logout still ends them', async () => {
    const u = await buildUser(server.app);
    const sessionId = await sessionIdOf(server, u.token);
    const s = await openStream(server.base, u.token);
    await s.waitFor((raw) => raw.startsWith(': connected'));

    // Named both by user and by session, in different parts.
    const big = { code: EventCode.UserAdded, team_id: 8 };
    await server.app.ctx.bus.publish(
      {
        userIds: [u.id, ...strangers(3000, 1_000_000)],
        sessionIds: [...strangers(3000, 2_000_000), sessionId],
      },
      big,
    );
    const marker = { code: EventCode.UserAdded, team_id: 9 };
    await server.app.ctx.bus.publish({ userIds: [u.id] }, marker);
    await s.waitFor((raw) => raw.includes('"team_id":9'));
    expect(s.events()).toEqual([big, marker]);

    await server.app.ctx.bus.publish(
      { sessionIds: [...strangers(3000, 2_000_000), sessionId] },
      { code: EventCode.ForcedLogoutSession },
      { close: true },
    );
    await s.ended;
    expect(s.events()).toEqual([big, marker, { code: EventCode.ForcedLogoutSession }]);
  });
});
