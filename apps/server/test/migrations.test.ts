import { Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { newKeyHash } from '../src/features/keys/hash.js';
import { insertKey } from '../src/features/keys/queries.js';
import { statsDb } from '../src/features/statistics/tables.js';
import { insertTeamWithMember } from '../src/features/teams/queries.js';
import { insertUserIfAbsent } from '../src/features/users/queries.js';
import { dropDatabase, freshDatabaseUrl, PUBLIC_URL } from './helpers/server.js';

const opened: Array<{ db: Db; url: string }> = [];
afterAll(async () => {
  for (const { db, url } of opened) {
    await db.destroy();
    await dropDatabase(url);
  }
});

/** A database migrated up to and including `last`. */
async function databaseAt(last: string): Promise<Db> {
  const url = await freshDatabaseUrl();
  const db = openDatabase(loadConfig({ DATABASE_URL: url, PUBLIC_URL }).database);
  opened.push({ db, url });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(last);
  if (error) throw error;
  return db;
}

describe('0006_stats_team_totals', () => {
  it('fills the team totals from the per-key rows stored before it', async () => {
    const db = await databaseAt('0005_statistics');
    const now = Date.now();
    const userId = await insertUserIfAbsent(db, {
      email: 'm@example.test',
      supervisor: false,
      subscription: false,
      createdAt: now,
    });
    if (userId === undefined) throw new Error('no user');
    const teamWithTwoKeys = async (name: string) => {
      const teamId = await insertTeamWithMember(db, { name, createdAt: now }, { userId, role: 10 });
      const key = () =>
        insertKey(db, { teamId, domainId: null, keyHash: newKeyHash(), name: '', createdAt: now });
      return { teamId, keyIds: [await key(), await key()] as const };
    };
    const a = await teamWithTwoKeys('A');
    const b = await teamWithTwoKeys('B');
    const s = statsDb(db);
    const row = (k: number) => ({
      cdn_bytes: 100 * k,
      p2p_bytes: 10 * k,
      nodr_bytes: k,
      cdn_users: k,
      p2p_users: 2 * k,
      nodr_users: 0,
    });
    await s
      .insertInto('stats_minute')
      .values([
        { key_id: a.keyIds[0], minute: 600, ...row(1) },
        { key_id: a.keyIds[1], minute: 600, ...row(2) },
        { key_id: a.keyIds[1], minute: 660, ...row(3) },
        { key_id: b.keyIds[0], minute: 600, ...row(5) },
      ])
      .execute();
    await s
      .insertInto('stats_hour')
      .values([
        { key_id: a.keyIds[0], bucket: 3600, ...row(4) },
        { key_id: a.keyIds[1], bucket: 3600, ...row(6) },
      ])
      .execute();
    await migrateToLatest(db);
    const minutes = await s
      .selectFrom('stats_team_minute')
      .selectAll()
      .orderBy('team_id')
      .orderBy('minute')
      .execute();
    expect(minutes).toEqual([
      { team_id: a.teamId, minute: 600, ...row(3) },
      { team_id: a.teamId, minute: 660, ...row(3) },
      { team_id: b.teamId, minute: 600, ...row(5) },
    ]);
    expect(await s.selectFrom('stats_team_hour').selectAll().execute()).toEqual([
      { team_id: a.teamId, bucket: 3600, ...row(10) },
    ]);
    expect(await s.selectFrom('stats_team_20m').selectAll().execute()).toEqual([]);
  });
});
