import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MSG_ALERTS,
  PATHS,
  Role,
  WEBHOOK_HEADERS,
  ZAlertDeliveryListResponse,
  ZAlertListResponse,
  ZAlertSavedResponse,
  ZWebhookPayload,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { Api } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';

/**
 * Issue 38's whole path on one node (SQLite and PostgreSQL): a rule made through the API on refused peer
 * bytes over 1 minute opens on real ingest traffic; every delivery reaches a real receiver that checks
 * its signature with the secret the creation answered; the receiver fails each delivery's first attempt
 * with 503 and the retry comes with the same delivery id and bytes; the admin gets one e-mail per change;
 * the incident resolves once the traffic stops.
 */

const BASE = Math.floor(Date.now() / 3_600_000) * 3600 - 3 * 3600;
const clock = manualClock(BASE * 1000);
const setClock = (ms: number) => clock.advance(ms - clock());
/** When a closed minute is evaluated with the default delay (ALERTS_EVALUATE_AFTER_MS). */
const evaluatedAt = (m: number) => (m + 60) * 1000 + 20_000;

interface Received {
  delivery: string;
  raw: Buffer;
  signed: boolean;
  answered: number;
}

let server: TestServer;
let smtp: TestSmtp;
let receiver: Server;
let receiverUrl: string;
let secret = '';
const received: Received[] = [];

/** HMAC-SHA256(secret, "<t>.<raw body>") as the guide tells receivers to check it. */
function signatureHolds(header: string | undefined, raw: Buffer): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.`).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(m[2] as string, 'hex'));
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('alerts end to end', () => {
  beforeAll(async () => {
    smtp = await startSmtp();
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const delivery = String(req.headers[WEBHOOK_HEADERS.delivery.toLowerCase()]);
        // Each delivery's first attempt fails: the sender must come back with the same id.
        const answered = received.some((r) => r.delivery === delivery) ? 200 : 503;
        const signature = req.headers[WEBHOOK_HEADERS.signature.toLowerCase()];
        received.push({
          delivery,
          raw,
          signed: signatureHolds(typeof signature === 'string' ? signature : undefined, raw),
          answered,
        });
        res.writeHead(answered).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    server = await startServer({
      env: {
        SMTP_URL: smtp.url,
        STATS_INGEST_FLUSH_MS: '600000',
        ALERTS_EVALUATE_EVERY_MS: '3600000',
        VERIFY_ALLOW_PRIVATE: 'true',
      },
      deps: { now: clock },
    });
    // The test sends the retries at chosen times: the sender's own timer stays off.
    await server.app.alerts.webhooks.stop();
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('a refused-bytes rule opens on real traffic, its signed deliveries are retried with the same id, one e-mail per change, and it resolves when the traffic stops', async () => {
    const app = server.app;
    const team = await buildTeam(app);
    const domain = await buildDomain(app, team.id, { promoted: true });
    const key = await buildKey(app, team.id, domain.id);
    const admin = new Api(server.base, team.owner.token);
    const name = 'Peer bytes refused';

    const created = await admin.post(PATHS.alerts.create(team.id), {
      name,
      metric: 'rejectedBytes',
      op: 'above',
      threshold: 0,
      windowMinutes: 1,
      minViewers: 1,
      emailRoles: [Role.Admin],
      webhookUrl: receiverUrl,
    });
    expect(created.status).toBe(201);
    const rule = ZAlertSavedResponse.parse(created.body).data;
    secret = rule.webhookSecret as string;
    expect(secret).toMatch(/^whsec_/);

    // A minute of refused bytes, through the real ingest.
    const m = BASE + 30 * 60;
    setClock((m + 30) * 1000);
    const sent = await ingestAsBrowsers(new Api(server.base), [
      {
        apiKey: key.keyHash,
        sessionId: 'viewer-1',
        ts: m + 30,
        cdnBytes: 40_000,
        p2pBytes: 0,
        rejectedBytes: 6000,
      },
    ]);
    expect(sent.status).toBe(202);
    await app.stats.flush();

    setClock(evaluatedAt(m));
    await app.alerts.evaluator.evaluate(evaluatedAt(m));
    // The evaluator sends at once after its commit: the first attempt gets 503.
    await until(() => received.length === 1, 'the first attempt');
    setClock(evaluatedAt(m) + 30_000);
    await app.alerts.webhooks.runDue(evaluatedAt(m) + 30_000);
    expect(received.map((r) => r.answered)).toEqual([503, 200]);

    const firing = ZAlertListResponse.parse((await admin.get(PATHS.alerts.list(team.id))).body).data[0];
    expect(firing).toMatchObject({ state: 'firing', lastValue: 6000 });
    expect(firing?.firingSince).toBe(new Date(evaluatedAt(m)).toISOString());

    // No traffic in the next minute: resolved.
    setClock(evaluatedAt(m + 60));
    await app.alerts.evaluator.evaluate(evaluatedAt(m + 60));
    await until(() => received.length === 3, 'the resolution');
    await app.alerts.webhooks.runDue(evaluatedAt(m + 60) + 30_000);
    expect(received.map((r) => r.answered)).toEqual([503, 200, 503, 200]);

    // Every delivery signed with the creation's secret; each retry is the same id and the same bytes.
    expect(received.every((r) => r.signed)).toBe(true);
    const [open1, open2, resolve1, resolve2] = received as [Received, Received, Received, Received];
    expect(open2.delivery).toBe(open1.delivery);
    expect(open2.raw.equals(open1.raw)).toBe(true);
    expect(resolve2.delivery).toBe(resolve1.delivery);
    expect(resolve1.delivery).not.toBe(open1.delivery);
    const opened = ZWebhookPayload.parse(JSON.parse(open1.raw.toString()));
    const resolved = ZWebhookPayload.parse(JSON.parse(resolve1.raw.toString()));
    expect(opened).toMatchObject({
      type: 'alert.opened',
      id: open1.delivery,
      teamId: team.id,
      alert: { id: rule.id, name, metric: 'rejectedBytes', op: 'above', threshold: 0, windowMinutes: 1 },
      value: 6000,
      openedAt: new Date(evaluatedAt(m)).toISOString(),
      resolvedAt: null,
    });
    expect(resolved).toMatchObject({
      type: 'alert.resolved',
      id: resolve1.delivery,
      openedAt: opened.openedAt,
      resolvedAt: new Date(evaluatedAt(m + 60)).toISOString(),
    });

    // One e-mail to the admin per change, never one per minute.
    for (let i = 2; i < 6; i++) await app.alerts.evaluator.evaluate(evaluatedAt(m + i * 60));
    const mails = smtp.mails.filter((x) => x.to.includes(team.owner.email));
    expect(mails.map((x) => x.subject)).toEqual([
      MSG_ALERTS.mailOpenedSubject(name),
      MSG_ALERTS.mailResolvedSubject(name),
    ]);
    expect(received).toHaveLength(4);

    // The rule's delivery log: both deliveries, each with its 503 and its 200.
    const log = ZAlertDeliveryListResponse.parse(
      (await admin.get(PATHS.alerts.deliveries(team.id, rule.id))).body,
    );
    expect(log.data.map((d) => [d.type, d.state, d.attempts.map((a) => a.status)])).toEqual([
      ['alert.resolved', 'delivered', [503, 200]],
      ['alert.opened', 'delivered', [503, 200]],
    ]);
    const after = ZAlertListResponse.parse((await admin.get(PATHS.alerts.list(team.id))).body).data[0];
    expect(after).toMatchObject({ state: 'ok', firingSince: null });
    expect(after?.history).toHaveLength(1);
    expect(after?.history[0]?.resolvedAt).toBe(new Date(evaluatedAt(m + 60)).toISOString());
  });
});
