import {
  issuesToFieldErrors,
  MSG,
  STATS_SETTINGS_INVALID_JSON,
  type TStatsSettings,
  ZStatsSettings,
} from '@tlprt/contract';
import { authorizeTeam, denied } from '../../access/team-access.js';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { findSettingsJson, saveSettingsJson } from './settings-queries.js';
import { statsDb } from './tables.js';

const DEFAULT: TStatsSettings = { tabs: [] };

async function gate(ctx: AppContext, actor: UserRow, userId: number, teamId: number) {
  // A member's own lists only (the team check first: a foreign team stays a 404).
  await authorizeTeam(ctx, actor, teamId, 'statistics.read');
  if (actor.id !== userId) throw denied();
}

export async function getSettings(ctx: AppContext, actor: UserRow, userId: number, teamId: number) {
  await gate(ctx, actor, userId, teamId);
  const json = await findSettingsJson(statsDb(ctx.db), userId, teamId);
  if (json === undefined) return DEFAULT;
  try {
    const parsed = ZStatsSettings.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : DEFAULT;
  } catch {
    return DEFAULT;
  }
}

export async function putSettings(
  ctx: AppContext,
  actor: UserRow,
  userId: number,
  teamId: number,
  saveJson: string,
): Promise<TStatsSettings> {
  await gate(ctx, actor, userId, teamId);
  let value: unknown;
  try {
    value = JSON.parse(saveJson);
  } catch {
    throw badRequest(MSG.validationFailed, { save_json: STATS_SETTINGS_INVALID_JSON });
  }
  const parsed = ZStatsSettings.safeParse(value);
  if (!parsed.success) {
    const errors = Object.fromEntries(
      Object.entries(issuesToFieldErrors(parsed.error.issues)).map(([k, v]) => [
        k === '_' ? 'save_json' : `save_json.${k}`,
        v,
      ]),
    );
    throw badRequest(MSG.validationFailed, errors);
  }
  const json = JSON.stringify(parsed.data);
  await saveSettingsJson(statsDb(ctx.db), userId, teamId, json, ctx.now());
  return parsed.data;
}
