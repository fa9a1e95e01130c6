import type { StatsDb } from './tables.js';

/** The saved statistics settings of a person in a team (settings.ts). */

export async function findSettingsJson(db: StatsDb, userId: number, teamId: number) {
  const row = await db
    .selectFrom('stats_settings')
    .select('save_json')
    .where('user_id', '=', userId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row?.save_json;
}

export async function saveSettingsJson(
  db: StatsDb,
  userId: number,
  teamId: number,
  json: string,
  at: number,
): Promise<void> {
  await db
    .insertInto('stats_settings')
    .values({ user_id: userId, team_id: teamId, save_json: json, updated_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'team_id']).doUpdateSet({ save_json: json, updated_at: at }))
    .execute();
}
