import {
  AUDIT_ACTIONS,
  LIMITS,
  MSG,
  MSG_TOKENS,
  PATHS,
  TEAM_TOKEN_PATTERN,
  TEAM_TOKEN_PREFIX,
  TEAM_TOKEN_SCOPES,
  TeamStatus,
  ZCreateTeamTokenResponse,
  ZTeamTokenListResponse,
} from '@tlprt/contract';
import type { Kysely, KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamTokens } from '../src/access/team-tokens.js';
import type { Db } from '../src/db/index.js';
import { sha256 } from '../src/lib/tokens.js';
import {
  type BuiltUser,
  buildTeamWithEveryRole,
  buildUser,
  memoryMailer,
  setTeamState,
} from './factories.js';
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

/** A team with a member in every role, and its Admin's client. */
async function team() {
  const t = await buildTeamWithEveryRole(server.app);
  return { ...t, admin: api.as(t.owner.token) };
}

const create = (as: Api, teamId: number, name = 'Encoder') =>
  as.post(PATHS.teamTokens.list(teamId), { name });
const list = (as: Api, teamId: number) => as.get(PATHS.teamTokens.list(teamId));
const revoke = (as: Api, teamId: number, id: number) =>
  as.send('DELETE', PATHS.teamTokens.revoke(teamId, id));

/** A query counter over the real database (Kysely plugin): proves what is and is not asked. */
function counted(db: Db) {
  const seen: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      seen.push(args.node.kind);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: (db as Kysely<never>).withPlugin(plugin) as unknown as Db, seen };
}

describe('API tokens: create, list, revoke', () => {
  it('creates (201, the secret once, no-store), lists without secrets, revokes', async () => {
    const t = await team();
    const made = await create(t.admin, t.id, '  Encoder EU  ');
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    expect(() => ZCreateTeamTokenResponse.parse(made.body)).not.toThrow();
    const { token, ...shown } = made.body.data;
    expect(token).toMatch(TEAM_TOKEN_PATTERN);
    expect(token.startsWith(TEAM_TOKEN_PREFIX)).toBe(true);
    expect(shown).toEqual({
      id: expect.any(Number),
      name: 'Encoder EU',
      scope: 'ingest',
      createdAt: expect.any(String),
      // Who made it (the audit of the team's own tokens): the Admin's e-mail.
      createdBy: t.owner.email,
      lastUsedAt: null,
    });

    const second = await create(t.admin, t.id, 'Backup');
    expect(second.body.data.token).not.toBe(token);
    const listed = await list(t.admin, t.id);
    expect(listed.status).toBe(200);
    expect(() => ZTeamTokenListResponse.parse(listed.body)).not.toThrow();
    expect(listed.body.data).toEqual([shown, { ...second.body.data, token: undefined }].map(withoutToken));
    expect(JSON.stringify(listed.body)).not.toContain(token.slice(TEAM_TOKEN_PREFIX.length));
    expect(JSON.stringify(listed.body)).not.toContain(sha256(token));

    const gone = await revoke(t.admin, t.id, shown.id);
    expect(gone.status).toBe(200);
    expect(gone.body.message).toBe(MSG_TOKENS.revoked);
    expect((await list(t.admin, t.id)).body.data.map((x: { name: string }) => x.name)).toEqual(['Backup']);
    // Already revoked, or never this team's: 404.
    expect((await revoke(t.admin, t.id, shown.id)).status).toBe(404);
    const other = await team();
    expect((await revoke(other.admin, other.id, second.body.data.id)).status).toBe(404);
    expect((await list(t.admin, t.id)).body.data).toHaveLength(1);
  });

  it('stores only the SHA-256 of a token, never the token', async () => {
    const t = await team();
    const { token, id } = (await create(t.admin, t.id)).body.data;
    const row = await server.app.ctx.db
      .selectFrom('team_tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(token));
    expect(row.created_by).toBe(t.owner.id);
    const secret = token.slice(TEAM_TOKEN_PREFIX.length);
    for (const value of Object.values(row)) expect(String(value)).not.toContain(secret);
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    const t = await team();
    for (const [body, text] of [
      [{ name: '' }, MSG.required],
      [{ name: '   ' }, MSG.required],
      [{ name: 'x'.repeat(LIMITS.teamTokenNameMax + 1) }, MSG.tooLong(LIMITS.teamTokenNameMax)],
      [{ name: 'a\u0000b' }, MSG.controlChars],
      [{}, MSG.required],
      [{ name: 42 }, MSG.required],
    ] as const) {
      const r = await t.admin.post(PATHS.teamTokens.list(t.id), body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors.name, JSON.stringify(body)).toBe(text);
    }
    expect((await t.admin.post(PATHS.teamTokens.list(t.id), '{"name":')).status).toBe(400);
    const bad = await t.admin.send('DELETE', '/api/v1/teams/1/tokens/x');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.id).toBeDefined();
    expect((await list(t.admin, t.id)).body.data).toEqual([]);
  });

  it('creates a token of each scope; another scope is a 400 naming the scope and every choice', async () => {
    const t = await team();
    for (const scope of TEAM_TOKEN_SCOPES) {
      const made = await t.admin.post(PATHS.teamTokens.list(t.id), { name: scope, scope });
      expect(made.status, scope).toBe(201);
      expect(made.body.data.scope).toBe(scope);
    }
    expect((await list(t.admin, t.id)).body.data.map((x: { scope: string }) => x.scope)).toEqual([
      ...TEAM_TOKEN_SCOPES,
    ]);
    const bad = await t.admin.post(PATHS.teamTokens.list(t.id), { name: 'Other', scope: 'admin' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ scope: 'Must be ingest, statistics or hashes' });
  });

  it(`keeps at most ${LIMITS.teamTokensPerTeam} live tokens per team (409), also when asked at once`, async () => {
    const t = await team();
    const answers = await Promise.all(
      Array.from({ length: LIMITS.teamTokensPerTeam + 3 }, (_, i) => create(t.admin, t.id, `t${i}`)),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(LIMITS.teamTokensPerTeam);
    const refused = answers.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.message])).toEqual(
      refused.map(() => [409, MSG_TOKENS.limitReached]),
    );
    // Revoked ones do not count.
    const first = answers.find((r) => r.status === 201)?.body.data.id;
    expect((await revoke(t.admin, t.id, first)).status).toBe(200);
    expect((await create(t.admin, t.id, 'again')).status).toBe(201);
    expect((await create(t.admin, t.id, 'one more')).status).toBe(409);
    // The limit is per team.
    const other = await team();
    expect((await create(other.admin, other.id)).status).toBe(201);
  });
});

describe('API tokens: who may', () => {
  it('Admins and Billing masters among members: Key master and Viewer 403; a stranger 404', async () => {
    const t = await team();
    const id = (await create(t.admin, t.id)).body.data.id;
    // A Billing master makes one too, and sees who made which.
    const billing = api.as(t.billing.token);
    const own = await create(billing, t.id, 'Billing export');
    expect(own.status).toBe(201);
    expect((await list(billing, t.id)).body.data.map((x: { createdBy: string }) => x.createdBy)).toEqual([
      t.owner.email,
      t.billing.email,
    ]);
    expect((await revoke(billing, t.id, own.body.data.id)).status).toBe(200);
    for (const user of [t.keyMaster, t.viewer]) {
      const as = api.as(user.token);
      expect((await list(as, t.id)).status).toBe(403);
      expect((await create(as, t.id)).status).toBe(403);
      expect((await revoke(as, t.id, id)).status).toBe(403);
    }
    const stranger = api.as((await buildUser(server.app)).token);
    expect((await list(stranger, t.id)).status).toBe(404);
    expect((await create(stranger, t.id)).status).toBe(404);
    expect((await revoke(stranger, t.id, id)).status).toBe(404);
    expect((await api.get(PATHS.teamTokens.list(t.id))).status).toBe(401);
    expect((await list(t.admin, t.id)).body.data).toHaveLength(1);
    // A member admin's changes are the team's own business: no supervisor audit entry.
    expect(await auditOf(t.id)).toEqual([]);
  });

  it('a supervisor may, on any team, and each creation and revocation is audited', async () => {
    const t = await team();
    const sup: BuiltUser = await buildUser(server.app, { supervisor: true });
    const as = api.as(sup.token);
    const made = await create(as, t.id, 'Ops reporter');
    expect(made.status).toBe(201);
    expect((await list(as, t.id)).body.data).toHaveLength(1);
    expect((await revoke(as, t.id, made.body.data.id)).status).toBe(200);
    expect(await auditOf(t.id)).toEqual([
      {
        action: AUDIT_ACTIONS.tokenCreated,
        actor_id: sup.id,
        target_type: 'token',
        target_id: made.body.data.id,
        target_label: 'Ops reporter',
      },
      {
        action: AUDIT_ACTIONS.tokenRevoked,
        actor_id: sup.id,
        target_type: 'token',
        target_id: made.body.data.id,
        target_label: 'Ops reporter',
      },
    ]);
  });

  it('a suspended team is view-only; a team being deleted may still revoke, not create', async () => {
    const t = await team();
    const id = (await create(t.admin, t.id)).body.data.id;
    await setTeamState(server.app, t.id, { suspended: 1 });
    expect((await list(t.admin, t.id)).status).toBe(200);
    expect((await create(t.admin, t.id)).status).toBe(403);
    expect((await revoke(t.admin, t.id, id)).status).toBe(403);
    const sup = api.as((await buildUser(server.app, { supervisor: true })).token);
    expect((await create(sup, t.id)).status).toBe(403);

    await setTeamState(server.app, t.id, { suspended: 0, status_id: TeamStatus.DeletionRequested });
    expect((await create(t.admin, t.id)).status).toBe(403);
    expect((await revoke(t.admin, t.id, id)).status).toBe(200);
  });
});

describe('TeamTokens: the look-up the ingest asks', () => {
  it('answers the team of a live token, null for malformed, unknown, revoked and deleted teams', async () => {
    const t = await team();
    const { token, id } = (await create(t.admin, t.id)).body.data;
    const lookup = server.app.ctx.teamTokens;
    expect(await lookup.teamOf(token)).toBe(t.id);
    expect(await lookup.teamOf(`${TEAM_TOKEN_PREFIX}${'A'.repeat(43)}`)).toBeNull();
    expect(await lookup.teamOf(t.owner.token)).toBeNull();
    // The app's own look-up forgets a revoked token at once.
    expect((await revoke(t.admin, t.id, id)).status).toBe(200);
    expect(await lookup.teamOf(token)).toBeNull();

    const doomed = await team();
    const other = (await create(doomed.admin, doomed.id)).body.data.token;
    await server.app.ctx.db.deleteFrom('teams').where('id', '=', doomed.id).execute();
    expect(await new TeamTokens(server.app.ctx.db, Date.now).teamOf(other)).toBeNull();
  });

  it('refuses a malformed value without a query', async () => {
    const { db, seen } = counted(server.app.ctx.db);
    const lookup = new TeamTokens(db, Date.now);
    for (const bad of [
      '',
      'Bearer x',
      TEAM_TOKEN_PREFIX,
      `${TEAM_TOKEN_PREFIX}${'A'.repeat(42)}`,
      `${TEAM_TOKEN_PREFIX}${'A'.repeat(44)}`,
      `${TEAM_TOKEN_PREFIX}${'A'.repeat(42)}=`,
      `tlprt_rt_${'A'.repeat(43)}`,
      'x'.repeat(10_000),
    ])
      expect(await lookup.teamOf(bad)).toBeNull();
    expect(seen).toEqual([]);
  });

  it('a token revoked elsewhere is refused within the 5 s cache, not before it expires', async () => {
    const t = await team();
    const { token, id } = (await create(t.admin, t.id)).body.data;
    let now = Date.now();
    // Another node's look-up: the revocation below is not forgotten there, only outlived.
    const elsewhere = new TeamTokens(server.app.ctx.db, () => now);
    expect(await elsewhere.teamOf(token)).toBe(t.id);
    expect((await revoke(t.admin, t.id, id)).status).toBe(200);
    now += 4_999;
    expect(await elsewhere.teamOf(token)).toBe(t.id);
    now += 1;
    expect(await elsewhere.teamOf(token)).toBeNull();
  });

  it('asks once for concurrent look-ups of one token and caches unknown ones too', async () => {
    const t = await team();
    const { token } = (await create(t.admin, t.id)).body.data;
    const { db, seen } = counted(server.app.ctx.db);
    const lookup = new TeamTokens(db, Date.now);
    const answers = await Promise.all(Array.from({ length: 20 }, () => lookup.teamOf(token)));
    expect(new Set(answers)).toEqual(new Set([t.id]));
    expect(seen.filter((k) => k === 'SelectQueryNode')).toHaveLength(1);
    const unknown = `${TEAM_TOKEN_PREFIX}${'B'.repeat(43)}`;
    await lookup.teamOf(unknown);
    await lookup.teamOf(unknown);
    expect(seen.filter((k) => k === 'SelectQueryNode')).toHaveLength(2);
  });

  it('keeps a bounded cache: made-up tokens cannot grow it without end', async () => {
    const { db } = counted(server.app.ctx.db);
    const lookup = new TeamTokens(db, Date.now, { maxEntries: 5 });
    for (let i = 0; i < 40; i++) await lookup.teamOf(`${TEAM_TOKEN_PREFIX}${String(i).padStart(43, 'C')}`);
    expect((lookup as unknown as { cache: Map<string, unknown> }).cache.size).toBeLessThanOrEqual(5);
  });

  it('writes last_used_at at most once a minute per token, shown in the list', async () => {
    const t = await team();
    const { token, id } = (await create(t.admin, t.id)).body.data;
    const start = Date.now();
    let now = start;
    const lookup = new TeamTokens(server.app.ctx.db, () => now);
    // Another node, whose cached answer outlives the minute: only the SQL condition stops its write.
    let otherNow = start;
    const other = new TeamTokens(server.app.ctx.db, () => otherNow, { ttlMs: 3_600_000 });
    const lastUsed = async () =>
      (
        await server.app.ctx.db
          .selectFrom('team_tokens')
          .select('last_used_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    expect(await lookup.teamOf(token)).toBe(t.id);
    expect(await lastUsed()).toBe(start);
    otherNow = start + 1_000;
    expect(await other.teamOf(token)).toBe(t.id);
    expect(await lastUsed()).toBe(start);
    now = start + 30_000;
    expect(await lookup.teamOf(token)).toBe(t.id);
    expect(await lastUsed()).toBe(start);
    now = start + 60_000;
    expect(await lookup.teamOf(token)).toBe(t.id);
    expect(await lastUsed()).toBe(start + 60_000);
    otherNow = start + 61_500;
    expect(await other.teamOf(token)).toBe(t.id);
    expect(await lastUsed()).toBe(start + 60_000);
    expect((await list(t.admin, t.id)).body.data[0].lastUsedAt).toBe(new Date(start + 60_000).toISOString());
  });
});

function withoutToken(x: Record<string, unknown>) {
  const { token: _secret, ...rest } = x;
  return rest;
}

async function auditOf(teamId: number) {
  return server.app.ctx.db
    .selectFrom('supervisor_audit')
    .select(['action', 'actor_id', 'target_type', 'target_id', 'target_label'])
    .where('team_id', '=', teamId)
    .orderBy('id', 'asc')
    .execute();
}
