import type { Db } from '../../../db/index.js';
import type { SettingLayer } from '../../../db/schema.js';
import type { LayerValue, SettingInput } from './layers.js';

/**
 * The stored layers that apply to one key in one domain context: the team's, that domain's (when
 * there is one) and the key's. Always scoped by the team.
 */
export function listLayerValues(
  db: Db,
  teamId: number,
  ctx: { domainId: number | null; keyId: number | null },
): Promise<LayerValue[]> {
  return db
    .selectFrom('key_setting_values')
    .select(['layer', 'setting_id', 'value', 'override'])
    .where('team_id', '=', teamId)
    .where((eb) =>
      eb.or([
        eb('layer', '=', 'team'),
        ...(ctx.domainId !== null
          ? [eb.and([eb('layer', '=', 'domain'), eb('domain_id', '=', ctx.domainId)])]
          : []),
        ...(ctx.keyId !== null
          ? [eb.and([eb('layer', 'in', ['key', 'supervisor_key']), eb('key_id', '=', ctx.keyId)])]
          : []),
      ]),
    )
    .execute();
}

/** One owner's stored values of one layer, by setting id (what an audit entry shows as the old value). */
export async function ownerLayerValues(
  db: Db,
  teamId: number,
  owner: { layer: SettingLayer; domainId: number; keyId: number },
): Promise<Record<number, { value: number | null; override: number }>> {
  const rows = await db
    .selectFrom('key_setting_values')
    .select(['setting_id', 'value', 'override'])
    .where('team_id', '=', teamId)
    .where('layer', '=', owner.layer)
    .where('domain_id', '=', owner.domainId)
    .where('key_id', '=', owner.keyId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.setting_id, { value: r.value, override: r.override }]));
}

/** Writes one layer's values (insert or replace per setting). */
export async function upsertLayerValues(
  db: Db,
  teamId: number,
  owner: { layer: SettingLayer; domainId: number; keyId: number },
  settings: SettingInput[],
  at: number,
): Promise<void> {
  for (const s of settings) {
    await db
      .insertInto('key_setting_values')
      .values({
        team_id: teamId,
        layer: owner.layer,
        domain_id: owner.domainId,
        key_id: owner.keyId,
        setting_id: s.id,
        value: s.value,
        override: s.override,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .columns(['team_id', 'layer', 'domain_id', 'key_id', 'setting_id'])
          .doUpdateSet({ value: s.value, override: s.override, updated_at: at }),
      )
      .execute();
  }
}
