import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MSG_ALERTS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimMinute } from '../src/features/alerts/incident-queries.js';
import { buildAlert, buildDomain, buildKey, buildTeam } from './factories.js';
import { Api } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { manualClock, onPostgres, startServer, type TestServer } from './helpers/server.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';

/**
 * Issue 38: two server nodes on one PostgreSQL evaluate the same closed minute at the same time; each
 * rule's minute is claimed by one of them, so each opening and resolution is one incident, one e-mail
 * and one webhook delivery. PostgreSQL only: the cluster's database (SQLite is one node's).
 */

const BASE = Math.floor(Date.now() / 3_600_000) * 3600 - 2 * 3600;
const clock = manualClock(BASE * 1000);
const setClock = (ms: number) => clock.advance(ms - clock());
const evaluatedAt = (m: number) => (m + 60) * 1000 + 20_000;

let a: TestServer;
let b: TestServer;
let smtp: TestSmtp;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ delivery: string; body: { type: string; alert: { id: number } } }> = [];

describe.skipIf(!onPostgres)('two nodes on one PostgreSQL', () => {
  beforeAll(async () => {
    smtp = await startSmtp();
    receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => {
        text += c.toString();
      });
      req.on('end', () => {
        received.push({ delivery: String(req.headers['tlprt-delivery']), body: JSON.parse(text) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const env = {
      SMTP_URL: smtp.url,
      STATS_INGEST_FLUSH_MS: '600000',
      ALERTS_EVALUATE_EVERY_MS: '3600000',
      VERIFY_ALLOW_PRIVATE: 'true',
    };
    a = await startServer({ env, deps: { now: clock } });
    b = await startServer({ env, deps: { now: clock }, databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await smtp?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('evaluating the same minutes at once on both: one incident, one e-mail and one delivery per change', async () => {
    const app = a.app;
    const team = await buildTeam(app);
    const domain = await buildDomain(app, team.id, { promoted: true });
    const key = await buildKey(app, team.id, domain.id);
    const name = 'Attack on the swarm';
    const rule = await buildAlert(app, team.id, {
      name,
      metric: 'rejectedBytes',
      op: 'above',
      threshold: 100,
      windowMinutes: 1,
      emailRoles: [Role.Admin],
      webhookUrl: receiverUrl,
    });
    const api = new Api(a.base);
    const both = (m: number) =>
      Promise.all([
        a.app.alerts.evaluator.evaluate(evaluatedAt(m)),
        b.app.alerts.evaluator.evaluate(evaluatedAt(m)),
      ]);

    const m = BASE + 10 * 60;
    // Three minutes of refused bytes, reported through node A, then none.
    for (let i = 0; i < 3; i++) {
      const minute = m + i * 60;
      setClock((minute + 30) * 1000);
      const res = await ingestAsBrowsers(api, [
        {
          apiKey: key.keyHash,
          sessionId: `s${i}`,
          ts: minute + 30,
          cdnBytes: 5000,
          p2pBytes: 0,
          rejectedBytes: 1000,
        },
      ]);
      expect(res.status).toBe(202);
      await a.app.stats.flush();
      await both(minute);
    }
    for (let i = 3; i < 6; i++) await both(m + i * 60);

    const incidents = await app.ctx.db
      .selectFrom('alert_incidents')
      .selectAll()
      .where('rule_id', '=', rule.id)
      .execute();
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({
      opened_at: evaluatedAt(m),
      open_value: 1000,
      resolved_at: evaluatedAt(m + 180),
    });
    const mails = smtp.mails.filter((x) => x.to.includes(team.owner.email));
    expect(mails.map((x) => x.subject)).toEqual([
      MSG_ALERTS.mailOpenedSubject(name),
      MSG_ALERTS.mailResolvedSubject(name),
    ]);
    const deliveries = await app.ctx.db
      .selectFrom('alert_deliveries')
      .select(['id', 'type'])
      .where('rule_id', '=', rule.id)
      .orderBy('created_at')
      .execute();
    expect(deliveries.map((d) => d.type)).toEqual(['alert.opened', 'alert.resolved']);
    // Each sent once, by whichever node committed it (both nodes' sends have ended when they close;
    // wait here instead, briefly, for the receiver).
    const deadline = Date.now() + 10_000;
    while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // Nothing more comes: neither node sends the other's delivery again.
    await new Promise((r) => setTimeout(r, 300));
    expect(received.map((r) => r.body.type).sort()).toEqual(['alert.opened', 'alert.resolved']);
    expect(new Set(received.map((r) => r.delivery))).toEqual(new Set(deliveries.map((d) => d.id)));
  });

  it("the claim alone: of the two nodes' transactions claiming a rule's minute at once, exactly one wins", async () => {
    const team = await buildTeam(a.app);
    const rule = await buildAlert(a.app, team.id, { metric: 'viewers', op: 'above', threshold: 0 });
    for (let minute = BASE; minute < BASE + 20 * 60; minute += 60) {
      const claims = await Promise.all(
        [a, b].map((node) =>
          node.app.ctx.db.transaction().execute((trx) => claimMinute(trx, rule.id, minute, 1, clock())),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    }
  });
});
