import {
  EventCode,
  MSG,
  MSG_TEAMS,
  PATHS,
  Role,
  TeamStatus,
  ZTeamDetailResponse,
  ZTeamSearchResponse,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, buildUser, memoryMailer, setTeamState, uniqueEmail } from './factories.js';
import { settle, streamsOf } from './helpers/events.js';
import { Api } from './helpers/http.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let api: Api;
beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/v1/teams/{id}', () => {
  it('shows members, pending invitations (invite_status 10), counts, tags and permissionToDelete', async () => {
    const viewer = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, {
      name: 'Detail',
      roleOf: [{ user: viewer, role: Role.Viewer }],
    });
    const invited = uniqueEmail('invited');
    const inv = await api.as(owner.token).post(PATHS.invitations.create(id), {
      invited_email: invited,
      role: Role.KeyMaster,
      accept_new_user_url: `${PUBLIC_URL}/email_invite_handler/new/`,
      accept_url: `${PUBLIC_URL}/email_invite_handler/old/`,
      decline_url: `${PUBLIC_URL}/email_invite_handler/decline/`,
    });
    expect(inv.status).toBe(201);
    const r = await api.as(owner.token).get(PATHS.teams.read(id));
    expect(r.status).toBe(200);
    const t = ZTeamDetailResponse.parse(r.body).data;
    expect(t).toMatchObject({
      id,
      name: 'Detail',
      role: Role.Admin,
      members: 2,
      countAdmin: 1,
      countUser: 2,
      tags: [],
    });
    // The owner is the sole admin of a team with other members: deleting the account is blocked.
    expect(t.permissionToDelete).toBe(20);
    expect(t.users.filter((u) => u.invite_status === 0).map((u) => [u.id, u.roles])).toEqual([
      [owner.id, Role.Admin],
      [viewer.id, Role.Viewer],
    ]);
    expect(t.invited).toHaveLength(1);
    expect(t.invited[0]).toMatchObject({
      email: invited,
      roles: Role.KeyMaster,
      invite_status: 10,
      inviting_user: owner.id,
    });
    expect(t.users.some((u) => u.invite_status === 10 && u.email === invited)).toBe(true);
    expect(JSON.stringify(r.body)).not.toMatch(/token_hash|password/);

    const asViewer = ZTeamDetailResponse.parse(
      (await api.as(viewer.token).get(PATHS.teams.read(id))).body,
    ).data;
    expect(asViewer).toMatchObject({ role: Role.Viewer, permissionToDelete: 10 });
    expect(asViewer.invited[0]?.isResendInviteUserTeam).toBe(false);
  });

  it('answers 404 for a team that does not exist, and for one the caller is not in', async () => {
    const u = await buildUser(server.app);
    const { id } = await buildTeam(server.app);
    expect((await api.as(u.token).get(PATHS.teams.read(id))).status).toBe(404);
    expect((await api.as(u.token).get(PATHS.teams.read(2_000_000_000))).status).toBe(404);
  });
});

describe('team settings', () => {
  it('update, time zone and version publish 10 {team_id} to the other members only', async () => {
    const member = await buildUser(server.app);
    const outsider = await buildUser(server.app);
    const sup = await buildUser(server.app, { supervisor: true });
    const { id, owner } = await buildTeam(server.app, { roleOf: [{ user: member, role: Role.Viewer }] });
    const s = await streamsOf(server.base, { owner, member, outsider });

    const r = await api
      .as(owner.token)
      .put(PATHS.teams.read(id), { name: '  New name ', website: 'video.example' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'New name', website: 'video.example' });
    expect(await s.member.waitForEvent(EventCode.UserAdded)).toEqual({ code: 10, team_id: id });

    const tz = await api.as(owner.token).post(PATHS.teams.setTimeZone(id, 1));
    expect(tz.status).toBe(200);
    expect(tz.body.data.timezoneId).toBe(1);
    expect((await api.as(owner.token).post(PATHS.teams.setTimeZone(id, 99_999))).status).toBe(400);
    expect((await api.as(owner.token).put(PATHS.teams.read(id), { name: 'x'.repeat(31) })).status).toBe(400);

    const v = await api.as(sup.token).put(PATHS.teams.setVersion(id), { version: 1 });
    expect(v.status).toBe(200);
    expect(v.body.data).toMatchObject({ version: 1, role: Role.Supervisor });
    expect((await api.as(sup.token).put(PATHS.teams.setVersion(id), { version: 2 })).status).toBe(400);

    await s.member.waitFor(() => s.member.events().filter((e) => e.code === 10).length === 3);
    await s.owner.waitFor(() => s.owner.events().some((e) => e.code === 10));
    await settle();
    expect(s.owner.events().filter((e) => e.code === 10)).toHaveLength(1); // the supervisor's change only
    expect(s.outsider.events()).toEqual([]);
    s.closeAll();
  });
});

describe('members and roles', () => {
  it('removing a member: 40 to them, 10 to the others; never oneself; never the last admin', async () => {
    const a = await buildUser(server.app);
    const b = await buildUser(server.app);
    const outsider = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, {
      roleOf: [
        { user: a, role: Role.Viewer },
        { user: b, role: Role.KeyMaster },
      ],
    });
    const s = await streamsOf(server.base, { owner, a, b, outsider });
    const self = await api.as(owner.token).send('DELETE', PATHS.teams.removeMember(id, owner.id));
    expect(self.status).toBe(400);
    expect(self.body.message).toBe(MSG_TEAMS.cannotRemoveSelf);

    expect((await api.as(owner.token).send('DELETE', PATHS.teams.removeMember(id, a.id))).status).toBe(200);
    expect(await s.a.waitForEvent(EventCode.UserRemoved)).toEqual({
      code: 40,
      team_id: id,
      deleted_user: a.id,
    });
    expect(await s.b.waitForEvent(EventCode.UserAdded)).toEqual({ code: 10, team_id: id });
    await s.owner.waitForEvent(EventCode.UserAdded);
    await settle();
    expect(s.a.events().map((e) => e.code)).toEqual([40]);
    expect(s.outsider.events()).toEqual([]);
    expect((await api.as(a.token).get(PATHS.teams.read(id))).status).toBe(404);
    expect((await api.as(owner.token).send('DELETE', PATHS.teams.removeMember(id, a.id))).status).toBe(404);

    // A supervisor who is not a member sees the member list read-only (a team picked in Team management).
    const sup = await buildUser(server.app, { supervisor: true });
    expect((await api.as(sup.token).send('DELETE', PATHS.teams.removeMember(id, owner.id))).status).toBe(403);
    s.closeAll();
  });

  it('set_role: roles 10, 30, 40 only; the last admin cannot be demoted; 70 to every member', async () => {
    const v = await buildUser(server.app);
    const outsider = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, { roleOf: [{ user: v, role: Role.Viewer }] });
    for (const role of [Role.BillingMaster, Role.Supervisor, 99]) {
      const r = await api.as(owner.token).post(PATHS.teams.setRole(id, v.id, role));
      expect(r.status, String(role)).toBe(400);
    }
    const demote = await api.as(owner.token).post(PATHS.teams.setRole(id, owner.id, Role.Viewer));
    expect(demote.status).toBe(409);
    expect(demote.body).toEqual({ message: MSG.teamNeedsAdmin });

    const s = await streamsOf(server.base, { owner, v, outsider });
    expect((await api.as(owner.token).post(PATHS.teams.setRole(id, v.id, Role.Admin))).status).toBe(200);
    const ev = { code: 70, team_id: id, changed_role_user: v.id, new_role: Role.Admin };
    expect(await s.v.waitForEvent(EventCode.RoleChanged)).toEqual(ev);
    expect(await s.owner.waitForEvent(EventCode.RoleChanged)).toEqual(ev);
    // Two admins now: the owner may step down.
    expect((await api.as(owner.token).post(PATHS.teams.setRole(id, owner.id, Role.KeyMaster))).status).toBe(
      200,
    );
    const detail = (await api.as(v.token).get(PATHS.teams.read(id))).body.data;
    expect(detail.countAdmin).toBe(1);
    await settle();
    expect(s.outsider.events()).toEqual([]);
    expect((await api.as(owner.token).post(PATHS.teams.setRole(id, outsider.id, Role.Viewer))).status).toBe(
      403,
    );
    s.closeAll();
  });
});

describe('POST /api/v1/teams/{id}/leave', () => {
  it('refuses the only member and the sole admin (409), a wrong password (400), then 41 and 12', async () => {
    const solo = await buildTeam(server.app);
    const only = await api
      .as(solo.owner.token)
      .post(PATHS.teams.leave(solo.id), { password: solo.owner.password });
    expect(only.status).toBe(409);
    expect(only.body).toEqual({ message: MSG_TEAMS.unableLeaveTitle });

    const billing = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, {
      roleOf: [{ user: billing, role: Role.BillingMaster }],
    });
    expect((await api.as(owner.token).post(PATHS.teams.leave(id), { password: owner.password })).status).toBe(
      409,
    );

    const wrong = await api.as(billing.token).post(PATHS.teams.leave(id), { password: 'not-it' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: 'Incorrect password', errors: { password: 'Incorrect password' } });

    const s = await streamsOf(server.base, { owner, billing });
    expect(
      (await api.as(billing.token).post(PATHS.teams.leave(id), { password: billing.password })).status,
    ).toBe(200);
    expect(await s.owner.waitForEvent(EventCode.UserLeft)).toEqual({
      code: 41,
      team_id: id,
      leaved_user: billing.id,
    });
    expect(await s.billing.waitForEvent(EventCode.GoToSettings)).toEqual({ code: 12 });
    expect((await api.as(billing.token).get(PATHS.teams.read(id))).status).toBe(404);
    s.closeAll();
  });

  it('an admin with another admin may leave; no 12 while other teams remain', async () => {
    const second = await buildUser(server.app);
    const { id, owner } = await buildTeam(server.app, { roleOf: [{ user: second, role: Role.Admin }] });
    await buildTeam(server.app, { owner: second });
    const s = await streamsOf(server.base, { owner, second });
    expect(
      (await api.as(second.token).post(PATHS.teams.leave(id), { password: second.password })).status,
    ).toBe(200);
    await s.owner.waitForEvent(EventCode.UserLeft);
    await settle();
    expect(s.second.events()).toEqual([]);
    s.closeAll();
  });
});

describe('favourites and tags', () => {
  it('favourite toggles the caller’s own star, for members and supervisors', async () => {
    const m = await buildUser(server.app);
    const sup = await buildUser(server.app, { supervisor: true });
    const { id, owner } = await buildTeam(server.app, { roleOf: [{ user: m, role: Role.Viewer }] });
    const on = await api.as(m.token).put(PATHS.teams.toggleFavourite(id));
    expect(on.body).toEqual({ message: MSG.updated, data: { team_id: id, favourite: true } });
    expect((await api.as(owner.token).get(PATHS.teams.read(id))).body.data.favourite).toBe(false);
    expect((await api.as(m.token).get(PATHS.teams.read(id))).body.data.favourite).toBe(true);
    expect((await api.as(sup.token).put(PATHS.teams.toggleFavourite(id))).body.data.favourite).toBe(true);
    expect((await api.as(m.token).put(PATHS.teams.toggleFavourite(id))).body.data.favourite).toBe(false);
    expect((await api.as(sup.token).get(PATHS.teams.read(id))).body.data.favourite).toBe(true);
  });

  it('tags are trimmed, 1–30 characters, unique per team (409); removal of a missing tag is 404', async () => {
    const sup = await buildUser(server.app, { supervisor: true });
    const { id } = await buildTeam(server.app);
    const add = (tag: string) => api.as(sup.token).put(PATHS.teams.addTag(id), { tag });
    const ok = await add('  vip  ');
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ team_id: id, tags: ['vip'] });
    expect((await add('   ')).body).toEqual({ message: MSG.validationFailed, errors: { tag: MSG.required } });
    expect((await add('x'.repeat(31))).body.errors).toEqual({ tag: MSG.tooLong(30) });
    expect((await add('x'.repeat(30))).status).toBe(200);
    const dup = await add('vip');
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(MSG_TEAMS.tagExists);
    const rm = await api.as(sup.token).put(PATHS.teams.removeTag(id), { tag: ' vip' });
    expect(rm.body.data.tags).toEqual(['x'.repeat(30)]);
    expect((await api.as(sup.token).put(PATHS.teams.removeTag(id), { tag: 'vip' })).status).toBe(404);
  });
});

describe('POST /api/v1/teams (search)', () => {
  it('an ordinary user sees only their own teams, paginated with a total', async () => {
    const u = await buildUser(server.app);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await buildTeam(server.app, { owner: u, name: `Mine ${i}` })).id);
    await buildTeam(server.app, { name: 'Not mine' });
    const page1 = ZTeamSearchResponse.parse(
      (await api.as(u.token).post(PATHS.teams.search, { page: 1, limit: 2 })).body,
    );
    expect(page1.pagination).toEqual({ total: 5, page: 1, limit: 2 });
    expect(page1.data.map((t) => t.id)).toEqual(ids.slice(0, 2));
    const page3 = (await api.as(u.token).post(PATHS.teams.search, { page: 3, limit: 2 })).body;
    expect(page3.data.map((t: { id: number }) => t.id)).toEqual(ids.slice(4));
    expect(page3.data[0]).toMatchObject({ role: Role.Admin, members: 1, tags: [] });
    const none = (await api.as(u.token).post(PATHS.teams.search, { general: 'Not mine' })).body;
    expect(none.pagination.total).toBe(0);
    // An empty body is a first page of 20.
    expect((await api.as(u.token).post(PATHS.teams.search)).body.pagination).toEqual({
      total: 5,
      page: 1,
      limit: 20,
    });
  });

  it('a supervisor searches every team by name, id, tag and member e-mail, with filters', async () => {
    const sup = await buildUser(server.app, { supervisor: true });
    const tag = `tag${Date.now()}`;
    const member = await buildUser(server.app, { email: uniqueEmail('searchme') });
    const a = await buildTeam(server.app, { name: `Alpha ${tag}` });
    const b = await buildTeam(server.app, { roleOf: [{ user: member, role: Role.Viewer }] });
    const c = await buildTeam(server.app);
    await api.as(sup.token).put(PATHS.teams.addTag(c.id), { tag: tag.toUpperCase() });
    const search = async (body: Record<string, unknown>) =>
      (
        (await api.as(sup.token).post(PATHS.teams.search, body)).body.data as Array<{
          id: number;
          role: number;
        }>
      ).map((t) => t.id);
    expect(await search({ general: tag })).toEqual([a.id, c.id]);
    expect(await search({ general: String(b.id) })).toContain(b.id);
    expect(await search({ general: member.email.slice(0, 14) })).toEqual([b.id]);
    expect(await search({ general: '%' })).not.toContain(a.id); // LIKE wildcards are literal

    await api.as(sup.token).put(PATHS.teams.toggleFavourite(c.id));
    expect(await search({ general: tag, favourite: 2 })).toEqual([c.id]);
    await setTeamState(server.app, a.id, { suspended: 1 });
    expect(await search({ general: tag, suspended: 1 })).toEqual([a.id]);
    await setTeamState(server.app, c.id, { status_id: TeamStatus.DeletionRequested });
    expect(await search({ general: tag, statuses: [30] })).toEqual([c.id]);
    const created = (await api.as(sup.token).get(PATHS.teams.read(a.id))).body.data.createdAt as string;
    const at = Math.floor(Date.parse(created) / 1000);
    expect(await search({ general: tag, start_time: at, end_time: at })).toEqual(
      expect.arrayContaining([a.id]),
    );
    expect(await search({ general: tag, start_time: at + 3600 })).toEqual([]);
    const first = (await api.as(sup.token).post(PATHS.teams.search, { general: tag })).body.data[0];
    expect(first.role).toBe(Role.Supervisor);
  });
});

describe('OpenAPI', () => {
  it('documents every team, invitation and self-service call from the contract schemas', async () => {
    const doc = (await api.get('/api/docs/json')).body;
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/api/v1/user',
      '/api/v1/profile_settings/user/{id}/change_password',
      '/api/v1/profile_settings/user/{id}/change_email',
      '/api/v1/profile_settings/change_email/accept',
      '/api/v1/profile_settings/change_email/resend',
      '/api/v1/profile_settings/change_email/revoke',
      '/api/v1/user/{id}/info_delete',
      '/api/v1/user/{id}/resend',
      '/api/v1/user/{id}/revoke',
      '/api/v1/user/accept',
      '/api/v1/user/invitation/search',
      '/api/v1/teams',
      '/api/v1/teams/{id}',
      '/api/v1/teams/{id}/leave',
      '/api/v1/teams/{id}/set_time_zone/{timezoneId}',
      '/api/v1/teams/{id}/set_version',
      '/api/v1/teams/{id}/delete/lock',
      '/api/v1/teams/{id}/delete/resend',
      '/api/v1/teams/{id}/delete/cancel',
      '/api/v1/teams/delete/confirm',
      '/api/v1/teams/{id}/delete/user/{userId}',
      '/api/v1/teams/{id}/user/{userId}/set_role/{roleId}',
      '/api/v1/teams/{id}/suspended',
      '/api/v1/teams/{id}/suspended/resend',
      '/api/v1/teams/{id}/suspended/revoke',
      '/api/v1/teams/suspended/confirm',
      '/api/v1/teams/{id}/favourite',
      '/api/v1/teams/{id}/tag/add',
      '/api/v1/teams/{id}/tag/remove',
      '/api/v1/teams/{teamId}/invitation/create',
      '/api/v1/teams/{teamId}/invitation/search',
      '/api/v1/teams/{teamId}/invitation/{inviteId}',
      '/api/v1/teams/{teamId}/invitation/{inviteId}/resend',
      '/auth/guest/invitation/{hash}',
    ]) {
      expect(paths, p).toContain(p);
    }
    expect(doc.paths['/api/v1/teams/{id}'].get.responses['200']).toBeDefined();
    expect(doc.paths['/auth/guest/invitation/{hash}'].put.requestBody).toBeDefined();
  });
});
