import {
  findTimeZone,
  MSG,
  MSG_TEAMS,
  PATHS,
  TIME_ZONES,
  ZTimeZoneListResponse,
  ZUserResponse,
  zoneOffsetMinutes,
} from '@tlprt/contract';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { findUserById, insertUserIfAbsent } from '../src/directory/users.js';
import { buildUser } from './factories.js';
import { Api } from './helpers/http.js';
import {
  dropDatabase,
  freshDatabaseUrl,
  PUBLIC_URL,
  startServer,
  type TestServer,
} from './helpers/server.js';

let server: TestServer;
let api: Api;
const opened: Array<{ db: Db; url: string }> = [];

beforeAll(async () => {
  server = await startServer();
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
  for (const { db, url } of opened) {
    await db.destroy();
    await dropDatabase(url);
  }
});

const zoneId = (name: string) => TIME_ZONES.find((z) => z.name === name)?.id ?? 0;

describe("a person's time zone for charts", () => {
  it('is unset for a new account: the session shows null (the team’s zone applies)', async () => {
    const u = await buildUser(server.app);
    const me = ZUserResponse.parse((await api.as(u.token).get(PATHS.auth.check)).body).data;
    expect(me.timezoneId).toBeNull();
  });

  it('is set, read back in the session and in the profile, and cleared with null', async () => {
    const u = await buildUser(server.app);
    const darwin = zoneId('Australia/Darwin');
    const set = await api.as(u.token).put(PATHS.users.read(u.id), { id: u.id, timezoneId: darwin });
    expect(set.status).toBe(200);
    expect(set.body.message).toBe(MSG.updated);
    expect(ZUserResponse.parse(set.body).data.timezoneId).toBe(darwin);
    expect(ZUserResponse.parse((await api.as(u.token).get(PATHS.auth.check)).body).data.timezoneId).toBe(
      darwin,
    );
    expect((await api.as(u.token).get(PATHS.users.read(u.id))).body.data.timezoneId).toBe(darwin);

    // Another field's change leaves the zone alone.
    const named = await api.as(u.token).put(PATHS.users.read(u.id), { name: 'Ada' });
    expect(named.body.data.timezoneId).toBe(darwin);

    const cleared = await api.as(u.token).put(PATHS.users.read(u.id), { timezoneId: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.timezoneId).toBeNull();
    expect((await findUserById(server.app.ctx.db, u.id))?.time_zone_id).toBeNull();
  });

  it('refuses an unknown zone or a non-number with 400 naming the field, and stores nothing', async () => {
    const u = await buildUser(server.app);
    const unknown = await api.as(u.token).put(PATHS.users.read(u.id), { timezoneId: 999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toMatchObject({ timezoneId: MSG_TEAMS.timeZoneUnknown });
    for (const bad of ['37', 1.5, true]) {
      const r = await api.as(u.token).put(PATHS.users.read(u.id), { timezoneId: bad });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors ?? {})).toEqual(['timezoneId']);
    }
    expect((await findUserById(server.app.ctx.db, u.id))?.time_zone_id).toBeNull();
  });

  it('is one’s own: another account, even a supervisor, may not set it', async () => {
    const u = await buildUser(server.app);
    const sup = await buildUser(server.app, { supervisor: true });
    const r = await api.as(sup.token).put(PATHS.users.read(u.id), { timezoneId: zoneId('Asia/Tokyo') });
    expect(r.status).toBe(403);
    expect((await findUserById(server.app.ctx.db, u.id))?.time_zone_id).toBeNull();
  });
});

describe('GET /auth/time_zone_list', () => {
  it('is ordered by the current offset, keeps the ids and the spec texts', async () => {
    const zones = ZTimeZoneListResponse.parse((await api.get(PATHS.dictionaries.timeZoneList)).body).data;
    expect(zones).toHaveLength(TIME_ZONES.length);
    const now = new Date();
    const offsets = zones.map((z) => zoneOffsetMinutes(z.name, now));
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    for (const z of zones) expect(findTimeZone(z.id)?.name).toBe(z.name);
    expect(zones.find((z) => z.id === 37)).toMatchObject({ name: 'UTC', text: 'UTC' });
    expect(zones.find((z) => z.name === 'Asia/Kolkata')?.text).toBe('(UTC+05:30) Asia/Kolkata');
  });
});

describe('0023_user_time_zone', () => {
  it('adds the column to existing accounts as null', async () => {
    const url = await freshDatabaseUrl();
    const db = openDatabase(loadConfig({ DATABASE_URL: url, PUBLIC_URL }).database);
    opened.push({ db, url });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo('0022_alerts');
    if (error) throw error;
    const id = await insertUserIfAbsent(db, {
      email: 'old@example.test',
      supervisor: false,
      subscription: false,
      createdAt: Date.now(),
    });
    await migrateToLatest(db);
    const row = await findUserById(db, id ?? 0);
    expect(row?.email).toBe('old@example.test');
    expect(row?.time_zone_id).toBeNull();
  });
});
