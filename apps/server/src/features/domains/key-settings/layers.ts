import { KEY_SETTING_RANGES, MSG_DOMAIN_RULES, type TSupervisorSettingRow } from '@tlprt/contract';
import type { SettingLayer } from '../../../db/schema.js';
import { badRequest } from '../../../http/errors.js';

/** The settings a player knows (12, 13, 101), in id order. */
export const SETTING_IDS = Object.keys(KEY_SETTING_RANGES)
  .map(Number)
  .sort((a, b) => a - b);

/** One stored layer value. */
export interface LayerValue {
  layer: SettingLayer;
  setting_id: number;
  value: number | null;
  override: number;
}

/** The layers stored for one key in one domain context, by setting id. */
type LayerTable = Map<number, Partial<Record<SettingLayer, LayerValue>>>;

export function tableOf(rows: LayerValue[]): LayerTable {
  const table: LayerTable = new Map();
  for (const r of rows) {
    const entry = table.get(r.setting_id) ?? {};
    entry[r.layer] = r;
    table.set(r.setting_id, entry);
  }
  return table;
}

/** A layer counts only when it overrides and holds a value. */
const counts = (v: LayerValue | undefined): v is LayerValue & { value: number } =>
  v !== undefined && v.override === 1 && v.value !== null;

/** The supervisor's layers, least specific first (the spec's supervisor row: client, domain, API key). */
const SUPERVISOR_LAYERS = ['team', 'domain', 'supervisor_key'] as const;

/**
 * The supervisor's override of a setting for this key, or null: the most specific overriding layer
 * (its key before its domain before its team). Overrides are how the platform holds a customer to a
 * value (a minimum buffer it must not raise, a stream it must not share), so any of them wins over
 * whatever the customer wrote on the key.
 */
export function supervisorOverride(table: LayerTable, settingId: number): number | null {
  const layers = table.get(settingId) ?? {};
  let fixed: number | null = null;
  for (const layer of SUPERVISOR_LAYERS) {
    const v = layers[layer];
    if (counts(v)) fixed = v.value;
  }
  return fixed;
}

/** The effective value: a supervisor's override at any level, else the customer's key value, else the
 *  setting's default. */
export function effectiveValue(table: LayerTable, settingId: number): number {
  const fixed = supervisorOverride(table, settingId);
  if (fixed !== null) return fixed;
  const own = table.get(settingId)?.key;
  return counts(own) ? own.value : (KEY_SETTING_RANGES[settingId]?.default ?? 0);
}

/** Every setting's effective value, keyed by id (what the player plugin reads). */
export function effectiveSettings(table: LayerTable): Record<string, number> {
  return Object.fromEntries(SETTING_IDS.map((id) => [String(id), effectiveValue(table, id)]));
}

/** The supervisor table: each layer's value and flag, and the production (effective) value. */
export function supervisorRows(
  table: LayerTable,
  domainId: number | null,
  keyId: number,
): TSupervisorSettingRow[] {
  return SETTING_IDS.map((id) => {
    const range = KEY_SETTING_RANGES[id] as { default: number; name: string };
    const l = table.get(id) ?? {};
    const prod = effectiveValue(table, id);
    return {
      param_name: range.name,
      param_id: id,
      param_default: range.default,
      param_client: l.team?.value ?? null,
      override_client: l.team?.override ?? 0,
      param_domain: l.domain?.value ?? null,
      override_domain: l.domain?.override ?? 0,
      param_api_key: l.supervisor_key?.value ?? null,
      override_api_key: l.supervisor_key?.override ?? 0,
      prod_value: prod,
      override_production: prod !== range.default ? 1 : 0,
      domain_id: domainId,
      key_id: keyId,
    };
  });
}

export interface SettingInput {
  id: number;
  value: number | null;
  override: number;
}

/**
 * Known ids and values inside their range (spec §5 help texts); a 400 names each bad field as
 * `settings.<index>.id` or `settings.<index>.value`.
 */
export function assertValidSettings(settings: SettingInput[]): void {
  const errors: Record<string, string> = {};
  settings.forEach((s, i) => {
    const range = KEY_SETTING_RANGES[s.id];
    if (!range) errors[`settings.${i}.id`] = MSG_DOMAIN_RULES.unknownSetting;
    else if (s.value === null) {
      if (s.override === 1) errors[`settings.${i}.value`] = MSG_DOMAIN_RULES.overrideNeedsValue;
    } else if (s.value < range.min || s.value > range.max) {
      errors[`settings.${i}.value`] = MSG_DOMAIN_RULES.settingRange(range.min, range.max);
    }
  });
  const first = Object.values(errors)[0];
  if (first) throw badRequest(first, errors);
}
