import { randomBytes } from 'node:crypto';
import {
  creationDatePresetRange,
  PATHS,
  Role,
  TeamStatus,
  teamStatusFilter,
  ZTeamSearchResponse,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BuiltUser,
  buildTeam,
  buildUser,
  memoryMailer,
  setTeamState,
  uniqueEmail,
} from './factories.js';
import { Api } from './helpers/http.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';

/** Issue 5: the supervisors' team search, criterion by criterion and combined. */

const DAY = 24 * 3600 * 1000;
const clock = manualClock(Date.UTC(2026, 5, 15, 12, 0, 0));
let server: TestServer;
let api: Api;
let sup: BuiltUser;
beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer, now: clock } });
  api = new Api(server.base);
  sup = await buildUser(server.app, { supervisor: true });
});
afterAll(async () => {
  await server?.close();
});

/** A word no other test's team contains. */
const token = () => `zq${randomBytes(4).toString('hex')}`;

async function search(body: Record<string, unknown>, as: BuiltUser = sup) {
  const r = await api.as(as.token).post(PATHS.teams.search, body);
  expect(r.status).toBe(200);
  const parsed = ZTeamSearchResponse.parse(r.body);
  return { ids: parsed.data.map((t) => t.id), total: parsed.pagination.total, data: parsed.data };
}
const idsOf = async (body: Record<string, unknown>, as?: BuiltUser) => (await search(body, as)).ids;

describe('general text', () => {
  it('matches a team name (any case, anywhere in it), an exact id, a tag and a member’s e-mail', async () => {
    const t = token();
    const byName = await buildTeam(server.app, { name: `Acme ${t.toUpperCase()} Video` });
    const member = await buildUser(server.app, { email: `${t}-ops@member.test` });
    const byEmail = await buildTeam(server.app, { roleOf: [{ user: member, role: Role.Viewer }] });
    const byTag = await buildTeam(server.app);
    await api.as(sup.token).put(PATHS.teams.addTag(byTag.id), { tag: `Tier ${t}` });
    const other = await buildTeam(server.app);

    expect(await idsOf({ general: t })).toEqual([byName.id, byEmail.id, byTag.id]);
    expect(await idsOf({ general: `acme ${t}` })).toEqual([byName.id]);
    expect(await idsOf({ general: `${t}-ops@member` })).toEqual([byEmail.id]);
    expect(await idsOf({ general: `TIER ${t}` })).toEqual([byTag.id]);
    expect(await idsOf({ general: String(other.id) })).toContain(other.id);
    expect(await idsOf({ general: `#${other.id}` })).toContain(other.id);
    // The owner's e-mail matches too (every member counts, whatever the role).
    expect(await idsOf({ general: other.owner.email })).toEqual([other.id]);
    // LIKE wildcards are literal; surrounding spaces are trimmed.
    expect(await idsOf({ general: `${t.slice(0, 3)}%${t.slice(4)}` })).toEqual([]);
    expect(await idsOf({ general: `  ${t}  ` })).toHaveLength(3);
    // An empty text is no filter.
    expect((await search({ general: '' })).total).toBeGreaterThanOrEqual(4);
  });

  it('an ordinary user searches only their own teams', async () => {
    const t = token();
    const u = await buildUser(server.app);
    const mine = await buildTeam(server.app, { owner: u, name: `Mine ${t}` });
    await buildTeam(server.app, { name: `Theirs ${t}` });
    expect(await search({ general: t }, u)).toMatchObject({ ids: [mine.id], total: 1 });
    const all = await search({}, u);
    expect(all.ids).toEqual([mine.id]);
    expect(all.data[0]?.role).toBe(Role.Admin);
  });
});

describe('favourites', () => {
  it('favourite 2 gives only the caller’s stars: each supervisor has their own', async () => {
    const t = token();
    const other = await buildUser(server.app, { supervisor: true });
    const [a, b, c] = [
      await buildTeam(server.app, { name: `A ${t}` }),
      await buildTeam(server.app, { name: `B ${t}` }),
      await buildTeam(server.app, { name: `C ${t}` }),
    ];
    await api.as(sup.token).put(PATHS.teams.toggleFavourite(b.id));
    await api.as(other.token).put(PATHS.teams.toggleFavourite(c.id));
    expect(await search({ general: t, favourite: 2 })).toMatchObject({ ids: [b.id], total: 1 });
    expect(await idsOf({ general: t, favourite: 2 }, other)).toEqual([c.id]);
    // favourite 0 is every team, the caller's stars first.
    const all = await search({ general: t, favourite: 0 });
    expect(all.ids).toEqual([b.id, a.id, c.id]);
    expect(all.data.map((x) => x.favourite)).toEqual([true, false, false]);
  });

  it('pages keep favourites first and the total right on every page', async () => {
    const t = token();
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await buildTeam(server.app, { name: `P${i} ${t}` })).id);
    await api.as(sup.token).put(PATHS.teams.toggleFavourite(ids[2] as number));
    await api.as(sup.token).put(PATHS.teams.toggleFavourite(ids[5] as number));
    const page = (n: number) => search({ general: t, page: n, limit: 3, scroll: n > 1 ? 1 : 0 });
    const pages = [await page(1), await page(2), await page(3), await page(4)];
    expect(pages.map((p) => p.ids)).toEqual([
      [ids[2], ids[5], ids[0]],
      [ids[1], ids[3], ids[4]],
      [ids[6]],
      [],
    ]);
    expect(pages.map((p) => p.total)).toEqual([7, 7, 7, 7]);
    const r = await api.as(sup.token).post(PATHS.teams.search, { general: t, page: 2, limit: 3 });
    expect(r.body.pagination).toEqual({ total: 7, page: 2, limit: 3 });
    // Only favourites, paginated.
    expect(await search({ general: t, favourite: 2, page: 2, limit: 1 })).toMatchObject({
      ids: [ids[5]],
      total: 2,
    });
  });
});

describe('status filter', () => {
  it('Active = ids 10 and 30 not suspended; Suspended = the flag or status 50; both = either', async () => {
    const t = token();
    const mk = async (name: string, patch: Parameters<typeof setTeamState>[2]) => {
      const team = await buildTeam(server.app, { name: `${name} ${t}` });
      if (Object.keys(patch).length) await setTeamState(server.app, team.id, patch);
      return team.id;
    };
    const active = await mk('active', {});
    const deleting = await mk('deleting', { status_id: TeamStatus.DeletionRequested });
    const disabled = await mk('disabled', { status_id: TeamStatus.Disabled });
    const status50 = await mk('status50', { status_id: TeamStatus.Suspended });
    const flagged = await mk('flagged', { suspended: 1 });
    const flaggedDeleting = await mk('flagged-deleting', {
      suspended: 1,
      status_id: TeamStatus.DeletionRequested,
    });

    const activeOnly = teamStatusFilter({ active: true, suspended: false });
    expect(activeOnly).toEqual({ statuses: [10, 30] });
    expect(await idsOf({ general: t, ...activeOnly })).toEqual([active, deleting]);
    const suspendedOnly = teamStatusFilter({ active: false, suspended: true });
    expect(await idsOf({ general: t, ...suspendedOnly })).toEqual([status50, flagged, flaggedDeleting]);
    expect(await idsOf({ general: t, ...teamStatusFilter({ active: true, suspended: true }) })).toEqual([
      active,
      deleting,
      status50,
      flagged,
      flaggedDeleting,
    ]);
    expect(
      await idsOf({ general: t, ...teamStatusFilter({ active: false, suspended: false }) }),
    ).toHaveLength(6);
    // The raw fields: a single status id; suspended 0 = not suspended.
    expect(await idsOf({ general: t, statuses: [TeamStatus.Disabled] })).toEqual([disabled]);
    expect(await idsOf({ general: t, suspended: 0 })).toEqual([active, deleting, disabled, status50]);
  });
});

describe('creation date', () => {
  it('start_time and end_time (epoch seconds) bound the creation time, both inclusive', async () => {
    const t = token();
    const created: Record<string, number> = {};
    for (const [name, daysAgo] of [
      ['old', 400],
      ['month', 20],
      ['week', 5],
      ['today', 0],
    ] as const) {
      const back = daysAgo * DAY;
      clock.advance(-back);
      created[name] = (await buildTeam(server.app, { name: `${name} ${t}` })).id;
      clock.advance(back);
    }
    const now = clock();
    const preset = (p: 'today' | 'last7' | 'last30' | 'lastYear') =>
      idsOf({ general: t, ...creationDatePresetRange(p, now) });
    expect(await preset('today')).toEqual([created.today]);
    expect(await preset('last7')).toEqual([created.week, created.today]);
    expect(await preset('last30')).toEqual([created.month, created.week, created.today]);
    expect(await preset('lastYear')).toEqual([created.month, created.week, created.today]);
    const at = Math.floor((now - 5 * DAY) / 1000);
    expect(await idsOf({ general: t, start_time: at, end_time: at })).toEqual([created.week]);
    expect(await idsOf({ general: t, end_time: at - 1 })).toEqual([created.old, created.month]);
    expect(await idsOf({ general: t, start_time: at + 1 })).toEqual([created.today]);
  });
});

describe('combinations', () => {
  it('text, status, dates and favourites narrow together; the total follows', async () => {
    const t = token();
    const member = await buildUser(server.app, { email: uniqueEmail(t) });
    clock.advance(-10 * DAY);
    const oldStarred = await buildTeam(server.app, { roleOf: [{ user: member, role: Role.Admin }] });
    clock.advance(10 * DAY);
    const newStarred = await buildTeam(server.app, { roleOf: [{ user: member, role: Role.Viewer }] });
    const newSuspended = await buildTeam(server.app, { roleOf: [{ user: member, role: Role.Viewer }] });
    const tagged = await buildTeam(server.app);
    await api.as(sup.token).put(PATHS.teams.addTag(tagged.id), { tag: t });
    await setTeamState(server.app, newSuspended.id, { suspended: 1 });
    await setTeamState(server.app, tagged.id, { suspended: 1 });
    for (const id of [oldStarred.id, newStarred.id, tagged.id])
      await api.as(sup.token).put(PATHS.teams.toggleFavourite(id));

    const last7 = creationDatePresetRange('last7', clock());
    const active = teamStatusFilter({ active: true, suspended: false });
    const suspended = teamStatusFilter({ active: false, suspended: true });
    expect(await search({ general: t })).toMatchObject({
      ids: [oldStarred.id, newStarred.id, tagged.id, newSuspended.id],
      total: 4,
    });
    expect(await search({ general: t, ...last7 })).toMatchObject({ total: 3 });
    expect(await idsOf({ general: t, ...last7, ...active })).toEqual([newStarred.id]);
    expect(await idsOf({ general: t, ...last7, ...suspended })).toEqual([tagged.id, newSuspended.id]);
    expect(await idsOf({ general: t, ...last7, ...suspended, favourite: 2 })).toEqual([tagged.id]);
    expect(await idsOf({ general: t, ...active, favourite: 2 })).toEqual([oldStarred.id, newStarred.id]);
    expect(await search({ general: member.email, ...suspended, page: 1, limit: 1 })).toMatchObject({
      ids: [newSuspended.id],
      total: 1,
    });
    // The list items carry what the panel shows.
    const [item] = (await search({ general: String(tagged.id), ...suspended, favourite: 2 })).data;
    expect(item).toMatchObject({ id: tagged.id, suspended: 1, favourite: true, members: 1, tags: [t] });
    expect(item?.role).toBe(Role.Supervisor);
  });

  it('rejects malformed filters with 400', async () => {
    for (const body of [
      { page: 0 },
      { limit: 101 },
      { start_time: -1 },
      { statuses: 'x' },
      { favourite: 3 },
    ]) {
      expect((await api.as(sup.token).post(PATHS.teams.search, body)).status).toBe(400);
    }
  });
});
