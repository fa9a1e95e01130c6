import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MSG_ALERTS, Role, WEBHOOK_HEADERS, ZAlertDelivery, ZWebhookPayload } from '@tlprt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertMember } from '../src/access/membership.js';
import type { AppContext } from '../src/context.js';
import {
  type DeliveryEvent,
  type DeliveryRule,
  GIVE_UP_AFTER_MS,
  RETRY_DELAYS_MS,
  retryDelayMs,
  WebhookSender,
} from '../src/features/alerts/webhooks/sender.js';
import { checkWebhookTarget } from '../src/features/alerts/webhooks/target.js';
import { buildTeam, buildUser } from './factories.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { Api } from './helpers/http.js';
import { manualClock, onPostgres, startServer, type TestServer } from './helpers/server.js';

/** What the receiver got: the raw body as sent (signatures are over these bytes). */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
/** How the receiver answers one request: a status (with headers), or never. */
type Answer = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

/** A customer's webhook receiver: a real HTTP server on 127.0.0.1, answering from a queue (200 when
 *  empty), every request recorded. */
async function startReceiver() {
  const received: Received[] = [];
  const queue: Answer[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) });
      const answer = queue.shift() ?? { status: 200 };
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      const send = () => res.writeHead(answer.status, answer.headers).end('ok');
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (...answers: Answer[]) => queue.push(...answers),
    reset: () => {
      received.length = 0;
      queue.length = 0;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** How a receiver checks a delivery (the guide's snippet does the same): the HMAC over "<t>.<raw body>"
 *  compared in constant time. Answers the signed time, or null when the signature is wrong. */
function verifiedTime(secret: string, header: string | string[] | undefined, rawBody: Buffer): number | null {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(typeof header === 'string' ? header : '');
  if (!m) return null;
  const expected = createHmac('sha256', secret).update(`${m[1]}.`).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(m[2] as string, 'hex')) ? Number(m[1]) : null;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;
const MIN = 60_000;

let dns: TestDns;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let server: TestServer;
let clock: ReturnType<typeof manualClock>;
let ctx: AppContext;
let webhooks: WebhookSender;
let admin: { id: number; token: string };
let teamId: number;
let api: Api;

beforeAll(async () => {
  dns = await startTestDns();
  receiver = await startReceiver();
  clock = manualClock(Date.parse('2026-11-23T10:00:00.000Z'));
  server = await startServer({
    env: { VERIFY_ALLOW_PRIVATE: 'true', DNS_SERVERS: dns.server, WEBHOOK_TIMEOUT_MS: '400' },
    deps: { now: clock },
  });
  ctx = server.app.ctx;
  webhooks = server.app.alerts.webhooks;
  // The tests run the sender at chosen times: no timer may send a delivery first.
  await webhooks.stop();
  await server.app.alerts.evaluator.stop();
  const team = await buildTeam(server.app);
  teamId = team.id;
  admin = team.owner;
  api = new Api(server.base, admin.token);
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await dns?.close();
});

beforeEach(async () => {
  receiver.reset();
  // Each test sends only its own deliveries: what earlier ones left pending is settled.
  await ctx.db
    .updateTable('alert_deliveries')
    .set({ state: 'failed' })
    .where('state', '=', 'pending')
    .execute();
});

async function insertRule(
  team: number,
  webhookUrl: string | null,
  secret: string | null = webhookUrl === null ? null : newSecret(),
): Promise<DeliveryRule & { secret: string | null }> {
  const now = clock();
  const row = await ctx.db
    .insertInto('alert_rules')
    .values({
      team_id: team,
      name: `Refused bytes ${randomBytes(2).toString('hex')}`,
      metric: 'rejectedBytes',
      op: 'above',
      threshold: 1_000_000,
      window_minutes: 1,
      min_viewers: 1,
      webhook_url: webhookUrl,
      webhook_secret: secret,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    teamId: team,
    name: 'Refused bytes',
    metric: 'rejectedBytes',
    op: 'above',
    threshold: 1_000_000,
    windowMinutes: 1,
    secret,
  };
}

const OPENED: DeliveryEvent = {
  type: 'alert.opened',
  value: 2_500_000,
  openedAt: Date.parse('2026-11-23T09:59:00.000Z'),
  resolvedAt: null,
};

function enqueue(rule: DeliveryRule, at: number, event: DeliveryEvent = OPENED, sender = webhooks) {
  return ctx.db.transaction().execute((trx) => sender.enqueue(trx, rule, event, at));
}

async function deliveryRow(id: string) {
  return ctx.db.selectFrom('alert_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function attemptRows(id: string) {
  return ctx.db
    .selectFrom('alert_delivery_attempts')
    .selectAll()
    .where('delivery_id', '=', id)
    .orderBy('id')
    .execute();
}

/** The same context with private addresses refused (the production setting). */
function strictContext(): AppContext {
  return { ...ctx, config: { ...ctx.config, verifyAllowPrivate: false } };
}

describe('checkWebhookTarget', () => {
  it('refuses IP literals and names of private, loopback or link-local addresses unless allowed', async () => {
    dns.set('private.hooks.test', { A: ['10.1.2.3'] });
    dns.set('mixed.hooks.test', { A: ['93.184.216.34', '192.168.1.9'] });
    dns.set('v6.hooks.test', { AAAA: ['fe80::1'] });
    dns.set('public.hooks.test', { A: ['93.184.216.34'], AAAA: ['2606:2800:220:1::1'] });
    const strict = strictContext();
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'http://localhost:3000/hook',
      'https://private.hooks.test/hook',
      'https://mixed.hooks.test/hook',
      'https://v6.hooks.test/hook',
    ])
      expect([url, await checkWebhookTarget(strict, url)]).toEqual([url, MSG_ALERTS.webhookPrivate]);
    expect(await checkWebhookTarget(strict, 'https://public.hooks.test:8443/hook?token=x')).toBeNull();
    expect(await checkWebhookTarget(strict, 'https://93.184.216.34/hook')).toBeNull();
    expect(await checkWebhookTarget(strict, 'https://nowhere.hooks.test/hook')).toBe(
      MSG_ALERTS.webhookUnresolved,
    );
    // Where VERIFY_ALLOW_PRIVATE allows them (these tests), private targets pass; unknown names do not.
    expect(await checkWebhookTarget(ctx, receiver.url())).toBeNull();
    expect(await checkWebhookTarget(ctx, 'https://private.hooks.test/hook')).toBeNull();
    expect(await checkWebhookTarget(ctx, 'https://nowhere.hooks.test/hook')).toBe(
      MSG_ALERTS.webhookUnresolved,
    );
  });
});

describe('deliveries', () => {
  it('signs each attempt, retries a 503 with the same delivery id and the same bytes, then delivers', async () => {
    const rule = await insertRule(teamId, receiver.url());
    const t0 = clock();
    const id = await enqueue(rule, t0);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await deliveryRow(id)).toMatchObject({
      state: 'pending',
      next_attempt_at: t0,
      give_up_at: t0 + GIVE_UP_AFTER_MS,
      type: 'alert.opened',
    });

    receiver.answer({ status: 503 });
    await webhooks.runDue(t0);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRow(id)).toMatchObject({
      state: 'pending',
      next_attempt_at: t0 + 15_000,
      lease_until: 0,
    });
    // Not due yet: nothing is sent.
    await webhooks.runDue(t0 + 10_000);
    expect(receiver.received).toHaveLength(1);

    await webhooks.runDue(t0 + 30_000);
    expect(receiver.received).toHaveLength(2);
    expect(await deliveryRow(id)).toMatchObject({ state: 'delivered', next_attempt_at: null });

    const [first, second] = receiver.received as [Received, Received];
    for (const [r, at] of [
      [first, t0],
      [second, t0 + 30_000],
    ] as const) {
      expect(r.path).toBe('/hook');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers[WEBHOOK_HEADERS.delivery.toLowerCase()]).toBe(id);
      const signature = r.headers[WEBHOOK_HEADERS.signature.toLowerCase()];
      expect(verifiedTime(rule.secret as string, signature, r.body)).toBe(Math.floor(at / 1000));
      expect(verifiedTime(newSecret(), signature, r.body)).toBeNull();
    }
    expect(second.body.equals(first.body)).toBe(true);
    expect(ZWebhookPayload.parse(JSON.parse(first.body.toString('utf8')))).toEqual({
      type: 'alert.opened',
      id,
      teamId,
      alert: {
        id: rule.id,
        name: 'Refused bytes',
        metric: 'rejectedBytes',
        op: 'above',
        threshold: 1_000_000,
        windowMinutes: 1,
      },
      value: 2_500_000,
      openedAt: '2026-11-23T09:59:00.000Z',
      resolvedAt: null,
    });

    const attempts = await attemptRows(id);
    expect(attempts.map((a) => [a.at, a.status, a.error])).toEqual([
      [t0, 503, null],
      [t0 + 30_000, 200, null],
    ]);
    for (const a of attempts) expect(a.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('logs a receiver that never answers as timed out, and retries it', async () => {
    const rule = await insertRule(teamId, receiver.url('/slow'));
    const t0 = clock();
    const id = await enqueue(rule, t0);
    receiver.answer('hang');
    const started = Date.now();
    await webhooks.runDue(t0);
    expect(Date.now() - started).toBeLessThan(3000);
    const [attempt] = await attemptRows(id);
    expect(attempt).toMatchObject({ status: null, error: 'timed out after 400 ms' });
    expect(attempt?.duration_ms).toBeGreaterThanOrEqual(350);
    expect(await deliveryRow(id)).toMatchObject({ state: 'pending', next_attempt_at: t0 + 15_000 });
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const rule = await insertRule(teamId, receiver.url('/moved'));
    const id = await enqueue(rule, clock());
    receiver.answer({ status: 302, headers: { location: '/elsewhere' } });
    await webhooks.runDue(clock());
    expect(receiver.received.map((r) => r.path)).toEqual(['/moved']);
    expect(await attemptRows(id)).toMatchObject([{ status: 302, error: 'redirects are not followed' }]);
    expect((await deliveryRow(id)).state).toBe('pending');
  });

  it('refuses private addresses at delivery where they are not allowed, re-checked on each attempt', async () => {
    const strict = new WebhookSender(strictContext());
    dns.set('rebind.hooks.test', { A: ['93.184.216.34'] });
    const literal = await insertRule(teamId, receiver.url());
    const named = await insertRule(teamId, `http://private.hooks.test:${receiver.port}/hook`);
    const rebinding = await insertRule(teamId, `http://rebind.hooks.test:${receiver.port}/hook`);
    expect(
      await checkWebhookTarget(strictContext(), `http://rebind.hooks.test:${receiver.port}/hook`),
    ).toBeNull();
    // Saved while public, the name now answers a loopback address.
    dns.set('rebind.hooks.test', { A: ['127.0.0.1'] });
    dns.set('private.hooks.test', { A: ['10.1.2.3'] });
    const t0 = clock();
    const ids = [await enqueue(literal, t0), await enqueue(named, t0), await enqueue(rebinding, t0)];
    await strict.runDue(t0);
    expect(receiver.received).toHaveLength(0);
    const errors = await Promise.all(
      ids.map(async (id) => (await attemptRows(id)).map((a) => [a.status, a.error])),
    );
    expect(errors).toEqual([
      [[null, 'refused loopback address 127.0.0.1']],
      [[null, 'refused private address 10.1.2.3']],
      [[null, 'refused loopback address 127.0.0.1']],
    ]);
  });

  it('retries with growing delays and gives up 24 hours after the delivery was made', async () => {
    const rule = await insertRule(teamId, receiver.url('/down'));
    const t0 = clock();
    const id = await enqueue(rule, t0);
    let at = t0;
    for (const delay of RETRY_DELAYS_MS.slice(0, 3)) {
      receiver.answer({ status: 500 });
      await webhooks.runDue(at);
      at += delay;
      expect((await deliveryRow(id)).next_attempt_at).toBe(at);
    }
    expect(RETRY_DELAYS_MS[0]).toBeLessThanOrEqual(30_000);
    receiver.answer({ status: 500 });
    await webhooks.runDue(t0 + GIVE_UP_AFTER_MS);
    expect(await deliveryRow(id)).toMatchObject({ state: 'failed', next_attempt_at: null });
    expect(await attemptRows(id)).toHaveLength(4);
    // Failed for good: never sent again.
    await webhooks.runDue(t0 + GIVE_UP_AFTER_MS + 3 * 3600_000);
    expect(receiver.received).toHaveLength(4);
  });

  it('signs with the secret the rule has at the attempt (rotation), and sends to its current URL', async () => {
    const oldSecret = newSecret();
    const rule = await insertRule(teamId, receiver.url('/old'), oldSecret);
    const t0 = clock();
    const pending = await enqueue(rule, t0);
    const rotated = newSecret();
    await ctx.db
      .updateTable('alert_rules')
      .set({ webhook_secret: rotated, webhook_url: receiver.url('/new') })
      .where('id', '=', rule.id)
      .execute();
    const later = await enqueue(rule, t0 + 1000);
    await webhooks.runDue(t0 + 1000);
    expect(receiver.received.map((r) => r.headers[WEBHOOK_HEADERS.delivery.toLowerCase()]).sort()).toEqual(
      [pending, later].sort(),
    );
    for (const r of receiver.received) {
      expect(r.path).toBe('/new');
      const signature = r.headers[WEBHOOK_HEADERS.signature.toLowerCase()];
      expect(verifiedTime(rotated, signature, r.body)).not.toBeNull();
      expect(verifiedTime(oldSecret, signature, r.body)).toBeNull();
    }
  });

  it('fails a delivery whose rule lost its URL without a request; a deleted rule takes its deliveries along', async () => {
    const rule = await insertRule(teamId, receiver.url());
    const t0 = clock();
    const id = await enqueue(rule, t0);
    await ctx.db
      .updateTable('alert_rules')
      .set({ webhook_url: null, webhook_secret: null })
      .where('id', '=', rule.id)
      .execute();
    await webhooks.runDue(t0);
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryRow(id)).toMatchObject({ state: 'failed', next_attempt_at: null });
    expect(await attemptRows(id)).toMatchObject([
      { status: null, error: 'not sent: the alert has no webhook URL any more' },
    ]);

    const gone = await insertRule(teamId, receiver.url());
    const goneId = await enqueue(gone, t0);
    receiver.answer({ status: 503 });
    await webhooks.runDue(t0);
    await ctx.db.deleteFrom('alert_rules').where('id', '=', gone.id).execute();
    expect(
      await ctx.db.selectFrom('alert_deliveries').select('id').where('id', '=', goneId).execute(),
    ).toEqual([]);
    expect(await attemptRows(goneId)).toEqual([]);
  });

  it('sends on its timer; stop() ends the timer and waits for the attempt in flight', async () => {
    const timed = new WebhookSender(ctx, { intervalMs: 50 });
    const rule = await insertRule(teamId, receiver.url('/timer'));
    const id = await enqueue(rule, clock());
    receiver.answer('hang');
    timed.start();
    await expect.poll(() => receiver.received.length, { timeout: 5000 }).toBe(1);
    await timed.stop();
    // Recorded before stop() returned: the timeout of the hanging receiver.
    expect(await attemptRows(id)).toMatchObject([{ status: null, error: 'timed out after 400 ms' }]);
    clock.advance(MIN);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(1);
  });

  it.runIf(onPostgres)('two nodes on one database send each attempt once', async () => {
    const second = await startServer({
      databaseUrl: server.databaseUrl,
      env: { VERIFY_ALLOW_PRIVATE: 'true', DNS_SERVERS: dns.server },
      deps: { now: clock },
    });
    try {
      await second.app.alerts.webhooks.stop();
      await second.app.alerts.evaluator.stop();
      const rule = await insertRule(teamId, receiver.url('/pair'));
      const t0 = clock();
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await enqueue(rule, t0));
      for (let i = 0; i < 12; i++) receiver.answer({ status: 200, delayMs: 30 });
      await Promise.all([webhooks.runDue(t0), second.app.alerts.webhooks.runDue(t0)]);
      const sent = receiver.received.map((r) => r.headers[WEBHOOK_HEADERS.delivery.toLowerCase()]);
      expect(sent.sort()).toEqual([...ids].sort());
      for (const id of ids) {
        expect(await attemptRows(id)).toHaveLength(1);
        expect((await deliveryRow(id)).state).toBe('delivered');
      }
    } finally {
      await second.close();
    }
  });
});

describe('Send test and the delivery log', () => {
  const base = (rule: number, team = teamId) => `/api/v1/teams/${team}/alerts/${rule}`;

  it('sends alert.test and answers the delivery after its first attempt', async () => {
    const rule = await insertRule(teamId, receiver.url('/test'));
    const res = await api.post(`${base(rule.id)}/test`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MSG_ALERTS.testSent);
    const delivery = ZAlertDelivery.parse(res.body.data);
    expect(delivery).toMatchObject({ type: 'alert.test', state: 'delivered', nextAttemptAt: null });
    expect(delivery.attempts).toMatchObject([{ status: 200, error: null }]);
    expect(receiver.received).toHaveLength(1);
    const [r] = receiver.received as [Received];
    const payload = ZWebhookPayload.parse(JSON.parse(r.body.toString('utf8')));
    expect(payload).toMatchObject({
      type: 'alert.test',
      id: delivery.id,
      value: null,
      openedAt: null,
      resolvedAt: null,
    });
    expect(verifiedTime(rule.secret as string, r.headers['tlprt-signature'], r.body)).not.toBeNull();

    // A failed test stays pending, retried as any delivery.
    receiver.answer({ status: 500 });
    const failed = await api.post(`${base(rule.id)}/test`);
    expect(failed.status).toBe(200);
    expect(failed.body.message).toBe(MSG_ALERTS.testFailed);
    expect(failed.body.data).toMatchObject({ state: 'pending', attempts: [{ status: 500 }] });
    expect(failed.body.data.nextAttemptAt).toBe(new Date(clock() + retryDelayMs(1)).toISOString());
  });

  it('refuses a rule without a webhook (400), a Viewer (403), another team (404) and a burst (429)', async () => {
    const noHook = await insertRule(teamId, null);
    expect(await api.post(`${base(noHook.id)}/test`)).toMatchObject({
      status: 400,
      body: { message: MSG_ALERTS.noWebhook },
    });
    const viewer = await buildUser(server.app);
    const other = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
    const theirs = await insertRule(other.id, receiver.url('/theirs'));
    expect((await api.as(viewer.token).post(`${base(theirs.id, other.id)}/test`)).status).toBe(403);
    // Our admin asking for another team's rule through our team: not found.
    expect(await api.post(`${base(theirs.id)}/test`)).toMatchObject({
      status: 404,
      body: { message: MSG_ALERTS.notFound },
    });
    expect(receiver.received).toHaveLength(0);

    const rule = await insertRule(teamId, receiver.url('/burst'));
    for (let i = 0; i < 10; i++) expect((await api.post(`${base(rule.id)}/test`)).status).toBe(200);
    const refused = await api.post(`${base(rule.id)}/test`);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(MSG_ALERTS.tooManyTests);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(receiver.received).toHaveLength(10);
    clock.advance(2 * MIN);
    expect((await api.post(`${base(rule.id)}/test`)).status).toBe(200);
  });

  it('lists the latest deliveries newest first with their attempts; 404 for another team', async () => {
    const rule = await insertRule(teamId, receiver.url('/log'));
    const t0 = clock();
    const ids = [await enqueue(rule, t0), await enqueue(rule, t0 + 1000), await enqueue(rule, t0 + 2000)];
    receiver.answer({ status: 503 });
    await webhooks.runDue(t0 + 2000);
    await webhooks.runDue(t0 + 2000 + 30_000);

    const viewer = await buildUser(server.app);
    await insertMember(ctx.db, { teamId, userId: viewer.id, role: Role.Viewer, createdAt: t0 });
    const res = await api.as(viewer.token).get(`${base(rule.id)}/deliveries`);
    expect(res.status).toBe(200);
    const list = res.body.data.map((d: unknown) => ZAlertDelivery.parse(d));
    expect(list.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
    const failedOnce = list.find((d: { attempts: unknown[] }) => d.attempts.length === 2);
    expect(failedOnce?.attempts.map((a: { status: number }) => a.status)).toEqual([503, 200]);
    expect(list.every((d: { state: string }) => d.state === 'delivered')).toBe(true);

    const other = await buildTeam(server.app);
    const theirs = await insertRule(other.id, receiver.url('/theirs'));
    expect(await api.get(`${base(theirs.id)}/deliveries`)).toMatchObject({
      status: 404,
      body: { message: MSG_ALERTS.notFound },
    });
    expect(
      (await api.as(other.owner.token).get(`${base(theirs.id, other.id)}/deliveries`)).body.data,
    ).toEqual([]);
  });
});
