import { DomainStatus, INGEST_ERRORS, KeyStatus, PATHS, PLAYER_PATHS, TeamStatus } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type KeyStateRow,
  keyVerdict,
  USABLE_DOMAIN,
  USABLE_KEY_ROW,
  USABLE_TEAM,
} from '../src/access/usable-keys.js';
import { updateKey } from '../src/features/domains/keys/queries.js';
import { buildDomain, buildKey, buildTeam, setTeamState } from './factories.js';
import { Api } from './helpers/http.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { connectWs } from './helpers/ws.js';

/**
 * docs/DESIGN.md §11 "One predicate decides whether a key is usable": the ingest, the public settings read, the
 * Origin rule, the tracker and the integrity service give the same answer for every state of a key, its
 * domain and its team.
 */

const usable: KeyStateRow = {
  id: 1,
  key_hash: 'h',
  status: KeyStatus.Active,
  suspended: 0,
  team_id: 7,
  team_suspended: 0,
  team_status: TeamStatus.Active,
  domain_id: 3,
  domain_status: DomainStatus.Active,
  domain_suspended: 0,
  domain_draft: 1,
  domain_verification: 1,
};

const TABLE: Array<[string, Partial<KeyStateRow>, string | null]> = [
  ['usable: active key of a verified, promoted, active domain', {}, null],
  ['usable: a key of every domain of an active team', { domain_id: null, domain_status: null }, null],
  ['usable: a team asking for its deletion still plays', { team_status: TeamStatus.DeletionRequested }, null],
  ['key inactive', { status: KeyStatus.Inactive }, INGEST_ERRORS.keyInactive],
  ['key locked', { status: KeyStatus.Locked }, INGEST_ERRORS.keyInactive],
  ['key restricted', { status: KeyStatus.Restricted }, INGEST_ERRORS.keyInactive],
  ['key deleted', { status: KeyStatus.Deleted }, INGEST_ERRORS.keyInactive],
  ['key suspended by a supervisor', { suspended: 1 }, INGEST_ERRORS.keyInactive],
  ['team suspended (flag)', { team_suspended: 1 }, INGEST_ERRORS.teamSuspended],
  ['team suspended (status)', { team_status: TeamStatus.Suspended }, INGEST_ERRORS.teamSuspended],
  ['team disabled', { team_status: TeamStatus.Disabled }, INGEST_ERRORS.teamDisabled],
  ['domain still a draft', { domain_draft: 0 }, INGEST_ERRORS.domainInactive],
  ['domain not verified', { domain_verification: 0 }, INGEST_ERRORS.domainInactive],
  ['domain inactive', { domain_status: DomainStatus.Inactive }, INGEST_ERRORS.domainInactive],
  ['domain suspended (status)', { domain_status: DomainStatus.Suspended }, INGEST_ERRORS.domainInactive],
  ['domain suspended (flag)', { domain_suspended: 1 }, INGEST_ERRORS.domainInactive],
  ['domain deleted', { domain_status: DomainStatus.Deleted }, INGEST_ERRORS.domainInactive],
  [
    'domain of the key missing (another team’s id)',
    { domain_status: null, domain_draft: null },
    INGEST_ERRORS.domainInactive,
  ],
];

describe('keyVerdict: the one rule', () => {
  it.each(TABLE)('%s', (_name, patch, refusal) => {
    const v = keyVerdict({ ...usable, ...patch });
    expect(v.ok ? null : v.message).toBe(refusal);
    if (v.ok)
      expect(v.key).toEqual({ id: 1, hash: 'h', teamId: 7, domainId: patch.domain_id === null ? null : 3 });
  });
  it('an unknown key', () => {
    expect(keyVerdict(undefined)).toEqual({ ok: false, message: INGEST_ERRORS.unknownKey });
  });
});

describe('every public entry point asks the same rule', () => {
  let server: TestServer;
  let api: Api;
  const DASHBOARD = new URL(PUBLIC_URL).origin;

  beforeAll(async () => {
    server = await startServer();
    api = new Api(server.base);
  });
  afterAll(() => server.close());

  /** A key in the state the table names, in a team of its own. */
  async function keyIn(patch: Partial<KeyStateRow>): Promise<string> {
    const app = server.app;
    const team = await buildTeam(app);
    if (patch.team_suspended || patch.team_status)
      await setTeamState(app, team.id, {
        ...(patch.team_suspended ? { suspended: 1 } : {}),
        ...(patch.team_status ? { status_id: patch.team_status } : {}),
      });
    if (patch.domain_id === null) return (await buildKey(app, team.id, null)).keyHash;
    if (patch.domain_status === null) {
      const rival = await buildTeam(app);
      const foreign = await buildDomain(app, rival.id, { promoted: true });
      return (await buildKey(app, team.id, foreign.id)).keyHash;
    }
    const domain = await buildDomain(app, team.id, {
      verified: patch.domain_verification !== 0,
      promoted: patch.domain_draft !== 0 && patch.domain_verification !== 0,
      ...(patch.domain_status ? { status: patch.domain_status } : {}),
      ...(patch.domain_suspended ? { suspended: true } : {}),
    });
    const key = await buildKey(app, team.id, domain.id, patch.status ? { status: patch.status } : {});
    if (patch.suspended) await updateKey(app.ctx.db, team.id, key.id, { suspended: 1 });
    return key.keyHash;
  }

  it.each([
    ...TABLE,
    ['unknown key', { unknown: true } as Partial<KeyStateRow>, INGEST_ERRORS.unknownKey] as const,
  ])('%s', async (_name, patch, refusal) => {
    const keyHash = 'unknown' in patch ? 'NoSuchKey0123456789' : await keyIn(patch);
    const ok = refusal === null;
    // Ingest without an Origin (a server-side reporter): counted only for a usable key.
    const r = await api.post(PATHS.statistics.ingest, {
      reports: [
        { apiKey: keyHash, sessionId: 's1', ts: Math.floor(Date.now() / 1000), cdnBytes: 10, p2pBytes: 0 },
      ],
    });
    expect(r.status).toBe(202);
    expect(r.body.accepted).toBe(ok ? 1 : 0);
    if (!ok) expect(r.body.errors).toEqual([{ index: 0, message: refusal }]);
    // The public settings, from the dashboard's own origin too.
    expect((await api.get(PLAYER_PATHS.settings(keyHash), { origin: DASHBOARD })).status).toBe(
      ok ? 200 : 404,
    );
    expect(await server.app.ctx.origins.forKey(keyHash, DASHBOARD)).toBe(ok);
    // The rule's SQL half (the Origin rule's look-up by host, a team's usable domains) agrees.
    const bySql = await server.app.ctx.db
      .selectFrom('keys as k')
      .innerJoin('teams as t', 't.id', 'k.team_id')
      .leftJoin('domains as d', (j) =>
        j.onRef('d.id', '=', 'k.domain_id').onRef('d.team_id', '=', 'k.team_id'),
      )
      .select('k.id')
      .where('k.key_hash', '=', keyHash)
      .where((eb) =>
        eb.and([USABLE_KEY_ROW, USABLE_TEAM, eb.or([eb('k.domain_id', 'is', null), USABLE_DOMAIN])]),
      )
      .executeTakeFirst();
    expect(bySql !== undefined).toBe(ok);
    // The integrity service: a usable key gets past the key to the host rule (403 for a foreign host).
    const integrity = await api.get(
      `${PLAYER_PATHS.integrity}?${new URLSearchParams({ key: keyHash, url: 'https://elsewhere.example/s.ts' })}`,
      { origin: DASHBOARD },
    );
    expect(integrity.status).toBe(ok ? 403 : 404);
    // The tracker.
    const ws = await connectWs(
      `${server.base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${keyHash}`,
      DASHBOARD,
    );
    expect(ws.status).toBe(ok ? 101 : 403);
    if ('ws' in ws) ws.ws.close();
  });
});
