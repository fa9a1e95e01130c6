import { PATHS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltUser, buildTeam, buildUser, memoryMailer } from './factories.js';
import { Api } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * Hardening issue, item 2: the last-admin rule under real concurrency. Two admins act against each other
 * at the same moment over HTTP, in many teams at once; every team must keep an admin (on PostgreSQL the
 * admin count and the write were not serialized, and both demotions went through).
 */
let server: TestServer;
let api: Api;

beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

const TEAMS = 12;

async function twoAdminTeams(): Promise<Array<{ id: number; a: BuiltUser; b: BuiltUser }>> {
  return Promise.all(
    Array.from({ length: TEAMS }, async () => {
      const b = await buildUser(server.app);
      const t = await buildTeam(server.app, { roleOf: [{ user: b, role: Role.Admin }] });
      return { id: t.id, a: t.owner, b };
    }),
  );
}

async function adminsOf(teamId: number): Promise<number> {
  const r = await server.app.ctx.db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('role', '=', Role.Admin)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('the team keeps an admin whatever two admins do at once', () => {
  it('demote / demote', async () => {
    const teams = await twoAdminTeams();
    const results = await Promise.all(
      teams.flatMap((t) => [
        api.as(t.a.token).post(PATHS.teams.setRole(t.id, t.b.id, Role.Viewer)),
        api.as(t.b.token).post(PATHS.teams.setRole(t.id, t.a.id, Role.Viewer)),
      ]),
    );
    for (const t of teams) expect(await adminsOf(t.id)).toBe(1);
    // In each team one of the two went through; the other was refused with a reason: 409 (the count, when
    // both were admins at the check) or 403 (no longer an admin, when the other's change came first).
    expect(results.filter((r) => r.status === 200)).toHaveLength(TEAMS);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect([403, 409]).toContain(r.status);
      expect(r.body.message).toEqual(expect.any(String));
    }
  });

  it('demote / remove', async () => {
    const teams = await twoAdminTeams();
    await Promise.all(
      teams.flatMap((t) => [
        api.as(t.a.token).post(PATHS.teams.setRole(t.id, t.b.id, Role.KeyMaster)),
        api.as(t.b.token).send('DELETE', PATHS.teams.removeMember(t.id, t.a.id)),
      ]),
    );
    for (const t of teams) expect(await adminsOf(t.id)).toBeGreaterThanOrEqual(1);
  });

  it('leave / leave', async () => {
    const teams = await twoAdminTeams();
    await Promise.all(
      teams.flatMap((t) => [
        api.as(t.a.token).post(PATHS.teams.leave(t.id), { password: t.a.password }),
        api.as(t.b.token).post(PATHS.teams.leave(t.id), { password: t.b.password }),
      ]),
    );
    for (const t of teams) expect(await adminsOf(t.id)).toBe(1);
  });
});
