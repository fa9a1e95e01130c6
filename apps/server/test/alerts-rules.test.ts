import {
  AUDIT_ACTIONS,
  ENDPOINTS,
  EventCode,
  endpointPath,
  KeyStatus,
  LIMITS,
  MSG,
  MSG_ALERTS,
  PATHS,
  Role,
  WEBHOOK_SECRET_PATTERN,
  ZAlertListResponse,
  ZAlertSavedResponse,
  ZAlertSecretResponse,
} from '@tlprt/contract';
import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertIncidentsTable } from '../src/db/schema.js';
import {
  buildAlert,
  buildDomain,
  buildKey,
  buildTeamWithEveryRole,
  buildUser,
  memoryMailer,
  setTeamState,
} from './factories.js';
import { settle, streamsOf } from './helpers/events.js';
import { Api, type Json } from './helpers/http.js';
import { closedPort } from './helpers/http-site.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * Alert rules (docs/DESIGN.md §13): the CRUD, its limits, field errors, roles, the secret answered once, the
 * supervisor's audit and the live event. The evaluation and the deliveries have their own tests.
 */

let server: TestServer;
let api: Api;
/** A webhook target on this machine where nothing listens: the rules here never deliver. */
let hook: string;

beforeAll(async () => {
  // Loopback targets are allowed, as in the other tests that reach local servers.
  server = await startServer({
    deps: { mailer: memoryMailer().mailer },
    env: { VERIFY_ALLOW_PRIVATE: 'true' },
  });
  api = new Api(server.base);
  hook = `http://127.0.0.1:${await closedPort()}/hook`;
});
afterAll(async () => {
  await server?.close();
});

async function team() {
  const t = await buildTeamWithEveryRole(server.app);
  return {
    ...t,
    admin: api.as(t.owner.token),
    km: api.as(t.keyMaster.token),
    bm: api.as(t.billing.token),
    view: api.as(t.viewer.token),
  };
}

const input = (over: Record<string, unknown> = {}) => ({
  name: 'Low P2P share',
  metric: 'p2pShare',
  op: 'below',
  threshold: 40,
  windowMinutes: 5,
  minViewers: 2,
  keys: [],
  emailRoles: [Role.Admin],
  webhookUrl: null,
  ...over,
});

const list = (as: Api, teamId: number) => as.get(PATHS.alerts.list(teamId));
const create = (as: Api, teamId: number, body: Record<string, unknown> = input()) =>
  as.post(PATHS.alerts.create(teamId), body);
const update = (as: Api, teamId: number, id: number, body: Record<string, unknown> = input()) =>
  as.put(PATHS.alerts.update(teamId, id), body);
const remove = (as: Api, teamId: number, id: number) => as.send('DELETE', PATHS.alerts.remove(teamId, id));
const rotate = (as: Api, teamId: number, id: number) => as.post(PATHS.alerts.rotateSecret(teamId, id));

const storedSecret = async (id: number) =>
  (
    await server.app.ctx.db
      .selectFrom('alert_rules')
      .select('webhook_secret')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).webhook_secret;

const withoutSecret = ({ webhookSecret: _, ...rule }: Json) => rule;

describe('alert rules: create, list, update, delete', () => {
  it('creates (201, no-store), answers the secret once, lists oldest first without it', async () => {
    const t = await team();
    const key = await buildKey(server.app, t.id, null);
    const made = await create(t.admin, t.id, input({ webhookUrl: hook, keys: [key.keyHash, key.keyHash] }));
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    expect(made.body.message).toBe(MSG_ALERTS.created);
    expect(() => ZAlertSavedResponse.parse(made.body)).not.toThrow();
    const secret: string = made.body.data.webhookSecret;
    expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(await storedSecret(made.body.data.id)).toBe(secret);
    expect(made.body.data).toMatchObject({
      name: 'Low P2P share',
      metric: 'p2pShare',
      op: 'below',
      threshold: 40,
      windowMinutes: 5,
      minViewers: 2,
      // The duplicate is dropped.
      keys: [key.keyHash],
      emailRoles: [Role.Admin],
      webhookUrl: hook,
      state: 'ok',
      firingSince: null,
      lastValue: null,
      lastEvaluatedAt: null,
      history: [],
    });

    // A Key master manages them too; without a webhook no secret is made.
    const second = await create(
      t.km,
      t.id,
      input({ name: 'Refused bytes', metric: 'rejectedBytes', op: 'above', threshold: 1 }),
    );
    expect(second.status).toBe(201);
    expect(second.body.data.webhookSecret).toBeNull();
    expect(await storedSecret(second.body.data.id)).toBeNull();

    const listed = await list(t.view, t.id);
    expect(listed.status).toBe(200);
    expect(() => ZAlertListResponse.parse(listed.body)).not.toThrow();
    expect(listed.body.data).toEqual([withoutSecret(made.body.data), withoutSecret(second.body.data)]);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice('whsec_'.length));
    // Nobody but the team sees them.
    const other = await team();
    expect((await list(other.admin, other.id)).body.data).toEqual([]);
  });

  it('shows the state, the last value and the latest incidents of each rule, newest first', async () => {
    const t = await team();
    const a = await buildAlert(server.app, t.id, { name: 'A' });
    const b = await buildAlert(server.app, t.id, { name: 'B' });
    await buildAlert(server.app, t.id, { name: 'C' });
    const db = server.app.ctx.db;
    const base = Date.UTC(2026, 0, 1);
    const minute = 60_000;
    // A: 25 resolved incidents and an open one (more than the answer shows).
    const rows: Insertable<AlertIncidentsTable>[] = Array.from({ length: 25 }, (_, i) => ({
      rule_id: a.id,
      opened_at: base + i * 10 * minute,
      resolved_at: base + i * 10 * minute + 5 * minute,
      open_value: i,
      resolve_value: i + 0.5,
    }));
    rows.push({
      rule_id: a.id,
      opened_at: base + 300 * minute,
      resolved_at: null,
      open_value: 99,
      resolve_value: null,
    });
    await db.insertInto('alert_incidents').values(rows).execute();
    await db
      .insertInto('alert_incidents')
      .values({ rule_id: b.id, opened_at: base, resolved_at: base + minute, open_value: 1, resolve_value: 2 })
      .execute();
    await db
      .updateTable('alert_rules')
      .set({ firing: 1, last_value: 12.5, last_evaluated_at: base + 301 * minute })
      .where('id', '=', a.id)
      .execute();

    const { body } = await list(t.view, t.id);
    expect(() => ZAlertListResponse.parse(body)).not.toThrow();
    const [ra, rb, rc] = body.data;
    expect([ra.name, rb.name, rc.name]).toEqual(['A', 'B', 'C']);
    expect(ra).toMatchObject({
      state: 'firing',
      firingSince: new Date(base + 300 * minute).toISOString(),
      lastValue: 12.5,
      lastEvaluatedAt: new Date(base + 301 * minute).toISOString(),
    });
    expect(ra.history).toHaveLength(LIMITS.alertHistoryShown);
    expect(ra.history[0]).toMatchObject({ resolvedAt: null, openValue: 99, resolveValue: null });
    expect(ra.history[1]).toMatchObject({
      openedAt: new Date(base + 240 * minute).toISOString(),
      resolvedAt: new Date(base + 245 * minute).toISOString(),
      openValue: 24,
      resolveValue: 24.5,
    });
    const opened = ra.history.map((i: Json) => i.openedAt);
    expect([...opened].sort().reverse()).toEqual(opened);
    expect(rb).toMatchObject({ state: 'ok', firingSince: null });
    expect(rb.history).toHaveLength(1);
    expect(rc.history).toEqual([]);
  });

  it('replaces a rule: a first webhook URL answers a secret, removing it clears it; the state stays', async () => {
    const t = await team();
    const { id } = (await create(t.admin, t.id)).body.data;
    const db = server.app.ctx.db;
    await db.updateTable('alert_rules').set({ firing: 1, last_value: 3 }).where('id', '=', id).execute();
    await db
      .insertInto('alert_incidents')
      .values({ rule_id: id, opened_at: 1_700_000_000_000, open_value: 3 })
      .execute();

    const added = await update(t.km, t.id, id, input({ name: 'Renamed', threshold: 10, webhookUrl: hook }));
    expect(added.status).toBe(200);
    expect(added.headers.get('cache-control')).toBe('no-store');
    expect(added.body.message).toBe(MSG_ALERTS.updated);
    expect(() => ZAlertSavedResponse.parse(added.body)).not.toThrow();
    const secret = added.body.data.webhookSecret;
    expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(await storedSecret(id)).toBe(secret);
    // Changing the condition does not reset the state: the evaluator decides at the next minute.
    expect(added.body.data).toMatchObject({
      name: 'Renamed',
      threshold: 10,
      state: 'firing',
      firingSince: new Date(1_700_000_000_000).toISOString(),
      lastValue: 3,
    });
    expect(added.body.data.history).toHaveLength(1);

    // Another URL keeps the secret and does not show it.
    const moved = await update(t.admin, t.id, id, input({ webhookUrl: `${hook}/v2` }));
    expect(moved.body.data.webhookSecret).toBeNull();
    expect(await storedSecret(id)).toBe(secret);

    const cleared = await update(t.admin, t.id, id, input({ webhookUrl: null }));
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ webhookUrl: null, webhookSecret: null });
    expect(await storedSecret(id)).toBeNull();
    // Added again: a new secret, not the old one.
    const again = await update(t.admin, t.id, id, input({ webhookUrl: hook }));
    expect(again.body.data.webhookSecret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(again.body.data.webhookSecret).not.toBe(secret);
  });

  it('answers 404 for a rule of another team or none, and 400 for a malformed id', async () => {
    const t = await team();
    const other = await team();
    const theirs = await buildAlert(server.app, other.id, { webhookUrl: hook });
    for (const r of [
      await update(t.admin, t.id, theirs.id),
      await remove(t.admin, t.id, theirs.id),
      await rotate(t.admin, t.id, theirs.id),
      await update(t.admin, t.id, 999_999_999),
      await remove(t.admin, t.id, 999_999_999),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.message).toBe(MSG_ALERTS.notFound);
    }
    expect(await storedSecret(theirs.id)).toBe(theirs.webhookSecret);
    const bad = await t.admin.put(`${PATHS.alerts.list(t.id)}/x`, input());
    expect(bad.status).toBe(400);
    expect(bad.body.errors.id).toBeDefined();
  });

  it('deletes a rule with its incidents', async () => {
    const t = await team();
    const a = await buildAlert(server.app, t.id);
    const keep = await buildAlert(server.app, t.id);
    const db = server.app.ctx.db;
    await db.insertInto('alert_incidents').values({ rule_id: a.id, opened_at: 1, open_value: 1 }).execute();
    const gone = await remove(t.km, t.id, a.id);
    expect(gone.status).toBe(200);
    expect(gone.body.message).toBe(MSG_ALERTS.deleted);
    expect((await list(t.admin, t.id)).body.data.map((r: Json) => r.id)).toEqual([keep.id]);
    const left = await db.selectFrom('alert_incidents').select('id').where('rule_id', '=', a.id).execute();
    expect(left).toEqual([]);
    expect((await remove(t.km, t.id, a.id)).status).toBe(404);
  });
});

describe('alert rules: limits and field errors', () => {
  it(`refuses the rule past ${LIMITS.alertsPerTeam} with 409, also when created at once`, async () => {
    const t = await team();
    for (let i = 0; i < LIMITS.alertsPerTeam - 2; i++) await buildAlert(server.app, t.id);
    // Three at once for the last two places: exactly two pass the count.
    const racing = await Promise.all(
      [1, 2, 3].map((i) => create(t.admin, t.id, input({ name: `Race ${i}` }))),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 409]);
    const refused = await create(t.admin, t.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(MSG_ALERTS.limitReached);
    expect((await list(t.admin, t.id)).body.data).toHaveLength(LIMITS.alertsPerTeam);
    // Another team is not counted with it.
    const other = await team();
    expect((await create(other.admin, other.id)).status).toBe(201);
  });

  it('answers 400 naming the field', async () => {
    const t = await team();
    const foreign = await buildKey(server.app, (await team()).id, null);
    const domain = await buildDomain(server.app, t.id, { promoted: true });
    const deleted = await buildKey(server.app, t.id, domain.id, { status: KeyStatus.Deleted });
    const own = await buildKey(server.app, t.id, domain.id);
    const cases: Array<[Record<string, unknown>, string, string | null]> = [
      [{ name: '' }, 'name', MSG.required],
      [{ metric: 'bitrate' }, 'metric', MSG_ALERTS.metric],
      [{ op: 'equals' }, 'op', MSG_ALERTS.op],
      [{ threshold: -1 }, 'threshold', MSG_ALERTS.threshold],
      [{ threshold: '5' }, 'threshold', MSG_ALERTS.threshold],
      [{ metric: 'failureRate', threshold: 100.5 }, 'threshold', MSG_ALERTS.percentThreshold],
      [{ windowMinutes: 0 }, 'windowMinutes', MSG_ALERTS.windowMinutes],
      [{ windowMinutes: 61 }, 'windowMinutes', MSG_ALERTS.windowMinutes],
      [{ windowMinutes: 1.5 }, 'windowMinutes', MSG_ALERTS.windowMinutes],
      [{ minViewers: -1 }, 'minViewers', MSG_ALERTS.minViewers],
      [{ keys: [foreign.keyHash] }, 'keys', MSG_ALERTS.unknownKey],
      [{ keys: [own.keyHash, deleted.keyHash] }, 'keys', MSG_ALERTS.unknownKey],
      [{ emailRoles: [Role.Supervisor] }, 'emailRoles.0', MSG_ALERTS.emailRole],
      [{ webhookUrl: 'ftp://x.example.com/hook' }, 'webhookUrl', MSG_ALERTS.webhookUrl],
      [{ webhookUrl: 'http://u:p@x.example.com/hook' }, 'webhookUrl', MSG_ALERTS.webhookUrl],
      [
        { webhookUrl: `http://x.example.com/${'a'.repeat(LIMITS.webhookUrlMax)}` },
        'webhookUrl',
        MSG_ALERTS.webhookUrl,
      ],
      // The target check (SSRF rules): this machine is never a target, whatever the configuration.
      [{ webhookUrl: 'http://localhost:9/hook' }, 'webhookUrl', null],
    ];
    for (const [over, field, message] of cases) {
      const r = await create(t.admin, t.id, input(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      if (message === null) expect(r.body.errors?.[field], JSON.stringify(over)).toEqual(expect.any(String));
      else expect(r.body.errors?.[field], JSON.stringify(over)).toBe(message);
    }
    // A percentage may be 100; other units may exceed it.
    expect((await create(t.admin, t.id, input({ threshold: 100 }))).status).toBe(201);
    expect(
      (await create(t.admin, t.id, input({ metric: 'cdnBytes', op: 'above', threshold: 1e12 }))).status,
    ).toBe(201);
    // The team's live key is accepted; every field but the name has a default.
    const ok = await create(t.admin, t.id, {
      name: 'Minimal',
      metric: 'viewers',
      op: 'above',
      threshold: 5,
      windowMinutes: 1,
      keys: [own.keyHash],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({
      minViewers: 1,
      emailRoles: [],
      webhookUrl: null,
      keys: [own.keyHash],
    });

    // The replacement checks the same.
    const { id } = ok.body.data;
    const badPut = await update(t.admin, t.id, id, input({ keys: [foreign.keyHash], windowMinutes: 61 }));
    expect(badPut.status).toBe(400);
    expect(badPut.body.errors.windowMinutes).toBe(MSG_ALERTS.windowMinutes);
    const badKey = await update(t.admin, t.id, id, input({ keys: [foreign.keyHash] }));
    expect(badKey.status).toBe(400);
    expect(badKey.body.errors).toEqual({ keys: MSG_ALERTS.unknownKey });
    expect((await list(t.admin, t.id)).body.data.find((r: Json) => r.id === id).name).toBe('Minimal');
  });
});

describe('alert rules: the webhook secret', () => {
  it('rotates: a new, different secret answered once (no-store); 400 without a webhook URL', async () => {
    const t = await team();
    const made = (await create(t.admin, t.id, input({ webhookUrl: hook }))).body.data;
    const r = await rotate(t.km, t.id, made.id);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body.message).toBe(MSG_ALERTS.secretRotated);
    expect(() => ZAlertSecretResponse.parse(r.body)).not.toThrow();
    expect(r.body.data.webhookSecret).not.toBe(made.webhookSecret);
    expect(await storedSecret(made.id)).toBe(r.body.data.webhookSecret);
    expect(JSON.stringify((await list(t.admin, t.id)).body)).not.toContain(r.body.data.webhookSecret);

    const plain = (await create(t.admin, t.id)).body.data;
    const refused = await rotate(t.admin, t.id, plain.id);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(MSG_ALERTS.noWebhook);
    expect(await storedSecret(plain.id)).toBeNull();
  });
});

describe('alert rules: who may', () => {
  it('Admins and Key masters manage; Billing masters and Viewers read; strangers get 404', async () => {
    const t = await team();
    const a = await buildAlert(server.app, t.id, { webhookUrl: hook });
    for (const as of [t.view, t.bm]) {
      expect((await list(as, t.id)).status).toBe(200);
      for (const r of [
        await create(as, t.id),
        await update(as, t.id, a.id),
        await remove(as, t.id, a.id),
        await rotate(as, t.id, a.id),
      ]) {
        expect(r.status).toBe(403);
      }
    }
    const stranger = api.as((await buildUser(server.app)).token);
    for (const r of [
      await list(stranger, t.id),
      await create(stranger, t.id),
      await update(stranger, t.id, a.id),
      await remove(stranger, t.id, a.id),
      await rotate(stranger, t.id, a.id),
    ]) {
      expect(r.status).toBe(404);
    }
    expect(await storedSecret(a.id)).toBe(a.webhookSecret);
    expect((await list(t.admin, t.id)).body.data).toHaveLength(1);
  });

  it('a suspended team: reads and deletes, but creates, replaces and rotates nothing', async () => {
    const t = await team();
    const a = await buildAlert(server.app, t.id, { webhookUrl: hook });
    await setTeamState(server.app, t.id, { suspended: 1 });
    expect((await list(t.admin, t.id)).status).toBe(200);
    expect((await create(t.admin, t.id)).status).toBe(403);
    expect((await update(t.admin, t.id, a.id)).status).toBe(403);
    expect((await rotate(t.admin, t.id, a.id)).status).toBe(403);
    expect((await remove(t.admin, t.id, a.id)).status).toBe(200);
    expect((await list(t.admin, t.id)).body.data).toEqual([]);
  });

  it("audits a supervisor's changes, never the secret; a member's changes are not audited", async () => {
    const t = await team();
    const sup = await buildUser(server.app, { supervisor: true });
    const as = api.as(sup.token);
    const audit = async () => {
      const r = await as.get(endpointPath(ENDPOINTS.audit.read, {}, { team_id: t.id, page: 1 }));
      expect(r.status).toBe(200);
      return r.body.data as Json[];
    };
    await create(t.admin, t.id, input({ name: 'By the admin' }));
    expect(await audit()).toEqual([]);

    const made = await create(as, t.id, input({ webhookUrl: `${hook}?token=hidden` }));
    expect(made.status).toBe(201);
    const id = made.body.data.id;
    const secrets = [made.body.data.webhookSecret];
    expect(
      (
        await update(
          as,
          t.id,
          id,
          input({ name: 'Night watch', threshold: 20, webhookUrl: `${hook}?token=hidden` }),
        )
      ).status,
    ).toBe(200);
    const rotated = await rotate(as, t.id, id);
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.data.webhookSecret);
    expect((await remove(as, t.id, id)).status).toBe(200);

    const entries = await audit();
    expect(entries.map((e) => e.action)).toEqual([
      AUDIT_ACTIONS.alertDeleted,
      AUDIT_ACTIONS.alertSecretRotated,
      AUDIT_ACTIONS.alertUpdated,
      AUDIT_ACTIONS.alertCreated,
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({
        actorId: sup.id,
        actorEmail: sup.email,
        teamId: t.id,
        targetType: 'alert',
        targetId: id,
      });
    }
    const [deleted, , updated, created] = entries;
    expect(JSON.parse(created.newValue)).toMatchObject({
      name: 'Low P2P share',
      threshold: 40,
      keys: 'all',
      webhook: new URL(hook).host,
    });
    expect(JSON.parse(updated.oldValue)).toMatchObject({ threshold: 40 });
    expect(JSON.parse(updated.newValue)).toMatchObject({ name: 'Night watch', threshold: 20 });
    expect(deleted.target).toBe('Night watch');
    const text = JSON.stringify(entries);
    for (const s of secrets) expect(text).not.toContain(s.slice('whsec_'.length));
    // The webhook's own credential (in its query here) stays out of the log too.
    expect(text).not.toContain('hidden');
  });
});

describe('alert rules: live events', () => {
  it('tells every member of the team (event 110) on each change, and nobody else', async () => {
    const t = await team();
    const outsider = await buildUser(server.app);
    const s = await streamsOf(server.base, { viewer: t.viewer, outsider });
    try {
      const made = await create(t.admin, t.id, input({ webhookUrl: hook }));
      const id = made.body.data.id;
      const event = { code: EventCode.AlertChanged, team_id: t.id, alert_id: id };
      await s.viewer.waitFor(() => s.viewer.events().length >= 1);
      expect(s.viewer.events()).toEqual([event]);
      await update(t.admin, t.id, id, input({ name: 'Again', webhookUrl: hook }));
      await rotate(t.admin, t.id, id);
      await remove(t.admin, t.id, id);
      await s.viewer.waitFor(() => s.viewer.events().length >= 4);
      expect(s.viewer.events()).toEqual([event, event, event, event]);
      await settle();
      expect(s.outsider.events()).toEqual([]);
    } finally {
      s.closeAll();
    }
  });
});
