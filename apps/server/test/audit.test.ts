import {
  AUDIT_ACTIONS,
  AUDIT_OPERATOR,
  AUDIT_PAGE_SIZE,
  ENDPOINTS,
  endpointPath,
  LinkKind,
  linkBases,
  MSG,
  PATHS,
  SUPERVISOR_SET,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSupervisorCli } from '../src/cli/supervisor.js';
import {
  type BuiltUser,
  buildDomain,
  buildKey,
  buildTeam,
  buildUser,
  memoryMailer,
  mintLink,
} from './factories.js';
import { Api, type Json } from './helpers/http.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';

/** Hardening issue, item 9 (docs/DESIGN.md §12): every supervisor action on a customer's team is recorded. */
let server: TestServer;
let sup: BuiltUser;
let as: Api;
const links = linkBases(PUBLIC_URL);

beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer } });
  sup = await buildUser(server.app, { supervisor: true, email: 'auditor@example.test' });
  as = new Api(server.base).as(sup.token);
});
afterAll(async () => {
  await server?.close();
});

async function history(teamId?: number, page = 1): Promise<{ data: Json[]; pagination: Json }> {
  const r = await as.get(endpointPath(ENDPOINTS.audit.read, {}, { team_id: teamId, page: page }));
  expect(r.status).toBe(200);
  return r.body;
}

describe('supervisor audit log', () => {
  it('records each supervisor action with who, when, what, the target and old → new, newest first', async () => {
    const { id, owner } = await buildTeam(server.app, { name: 'Audited Co' });
    const domain = await buildDomain(server.app, id, { promoted: true, host: 'audited.example.test' });
    const draft = await buildDomain(server.app, id, { host: 'bypass.example.test' });
    const key = await buildKey(server.app, id, domain.id, { name: 'Main player' });

    expect((await as.put(PATHS.teams.setVersion(id), { version: 1 })).status).toBe(200);
    expect((await as.put(PATHS.teams.addTag(id), { tag: 'vip' })).status).toBe(200);
    expect((await as.put(PATHS.teams.removeTag(id), { tag: 'vip' })).status).toBe(200);
    expect((await as.put(PATHS.domains.verify(id, draft.id), { verificationMethod: 5 })).status).toBe(200);
    expect((await as.post(PATHS.domains.suspend(id, domain.id))).status).toBe(200);
    expect((await as.post(PATHS.domains.suspend(id, domain.id))).status).toBe(200);
    expect((await as.post(PATHS.keys.suspend(id, key.id))).status).toBe(200);
    expect((await as.post(PATHS.keys.suspend(id, key.id))).status).toBe(200);
    for (const layer of ['team', 'domain', 'key'] as const) {
      const r = await as.post(PATHS.keySettings[SUPERVISOR_SET[layer]](id), {
        domainId: domain.id,
        keyId: key.id,
        settings: [{ id: 101, value: 50, settingOverwrite: 1 }],
      });
      expect(r.status).toBe(200);
    }
    // Suspension: requested, confirmed by the mailed link, then lifted.
    expect(
      (
        await as.post(PATHS.teamLifecycle.suspend(id), {
          name: 'Audited Co',
          confirmPath: links.suspendTeamConfirm,
          cancelPath: links.suspendTeamCancel,
        })
      ).status,
    ).toBe(200);
    const hash = await mintLink(server.app, {
      kind: LinkKind.SuspendTeam,
      userId: sup.id,
      email: sup.email,
      teamId: id,
    });
    expect((await as.put(PATHS.teamLifecycle.suspendConfirm, { hash })).status).toBe(200);
    expect((await as.post(PATHS.teamLifecycle.suspend(id), { name: 'Audited Co' })).status).toBe(200);

    const { data, pagination } = await history(id);
    expect(pagination).toEqual({ page: 1, limit: AUDIT_PAGE_SIZE, total: 13 });
    expect(data.map((e) => e.action)).toEqual([
      AUDIT_ACTIONS.teamUnsuspended,
      AUDIT_ACTIONS.teamSuspended,
      AUDIT_ACTIONS.settingsKey,
      AUDIT_ACTIONS.settingsDomain,
      AUDIT_ACTIONS.settingsTeam,
      AUDIT_ACTIONS.keyUnsuspended,
      AUDIT_ACTIONS.keySuspended,
      AUDIT_ACTIONS.domainUnsuspended,
      AUDIT_ACTIONS.domainSuspended,
      AUDIT_ACTIONS.domainVerifiedBypass,
      AUDIT_ACTIONS.tagRemoved,
      AUDIT_ACTIONS.tagAdded,
      AUDIT_ACTIONS.teamVersion,
    ]);
    for (const e of data) {
      expect(e).toMatchObject({ actorId: sup.id, actorEmail: 'auditor@example.test', teamId: id });
      expect(Date.parse(e.createdAt)).not.toBeNaN();
    }
    const by = (action: string) => data.find((e) => e.action === action);
    expect(by(AUDIT_ACTIONS.teamVersion)).toMatchObject({
      target: 'Audited Co',
      oldValue: '0',
      newValue: '1',
    });
    expect(by(AUDIT_ACTIONS.tagAdded)).toMatchObject({ oldValue: null, newValue: 'vip' });
    expect(by(AUDIT_ACTIONS.domainVerifiedBypass)).toMatchObject({
      targetType: 'domain',
      targetId: draft.id,
      target: 'bypass.example.test',
    });
    expect(by(AUDIT_ACTIONS.keySuspended)).toMatchObject({ targetType: 'key', target: 'Main player' });
    expect(JSON.parse(by(AUDIT_ACTIONS.settingsKey)?.newValue ?? '{}')).toEqual({
      101: { value: 50, override: 1 },
    });
    expect(JSON.parse(by(AUDIT_ACTIONS.settingsKey)?.oldValue ?? '{}')).toEqual({ 101: null });

    // A customer's own actions are not in it; neither is another team's history.
    await new Api(server.base).as(owner.token).put(PATHS.teams.read(id), { name: 'Audited Co' });
    expect((await history(id)).pagination.total).toBe(13);
    const other = await buildTeam(server.app);
    await as.put(PATHS.teams.addTag(other.id), { tag: 'trial' });
    expect((await history(other.id)).data.map((e) => e.action)).toEqual([AUDIT_ACTIONS.tagAdded]);
    expect((await history(id)).pagination.total).toBe(13);
  });

  it('is for supervisors only: 403 for the team admin and anybody else, 401 without a session', async () => {
    const { id, owner } = await buildTeam(server.app);
    const r = await new Api(server.base)
      .as(owner.token)
      .get(endpointPath(ENDPOINTS.audit.read, {}, { team_id: id, page: 1 }));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ message: MSG.forbiddenText });
    expect(
      (await new Api(server.base).get(endpointPath(ENDPOINTS.audit.read, {}, { team_id: id, page: 1 })))
        .status,
    ).toBe(401);
    expect((await as.get('/api/v1/supervisor/audit?team_id=abc')).status).toBe(400);
  });

  it('pages newest first', async () => {
    const { id } = await buildTeam(server.app);
    for (let i = 0; i < AUDIT_PAGE_SIZE + 3; i++) await as.put(PATHS.teams.addTag(id), { tag: `t${i}` });
    const first = await history(id, 1);
    const second = await history(id, 2);
    expect(first.data).toHaveLength(AUDIT_PAGE_SIZE);
    expect(second.data.map((e) => e.newValue)).toEqual(['t2', 't1', 't0']);
    expect(first.data[0]?.newValue).toBe(`t${AUDIT_PAGE_SIZE + 2}`);
  });

  it('records grants and revocations of the supervisor flag by the operator', async () => {
    const u = await buildUser(server.app, { email: 'grantee@example.test' });
    const env = { DATABASE_URL: server.databaseUrl };
    expect((await runSupervisorCli(['grant', u.email], env)).code).toBe(0);
    expect((await runSupervisorCli(['revoke', u.email], env)).code).toBe(0);
    const all = (await history()).data.filter((e) => e.targetType === 'user' && e.targetId === u.id);
    expect(all.map((e) => [e.action, e.actorEmail, e.teamId])).toEqual([
      [AUDIT_ACTIONS.supervisorRevoked, AUDIT_OPERATOR, null],
      [AUDIT_ACTIONS.supervisorGranted, AUDIT_OPERATOR, null],
    ]);
  });
});
