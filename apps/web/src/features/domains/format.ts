import { type TDictionaries, type TDictionaryItem, ZSettingValue } from '@tlprt/contract';

const KEY_STATUS_FALLBACK: Record<number, string> = {
  10: 'Active',
  20: 'Inactive',
  30: 'Locked',
  40: 'Suspended',
  50: 'Deleted',
};
export const KEY_STATUS_COLOR: Record<number, string> = { 10: 'green', 20: 'gray', 30: 'orange', 40: 'red' };

/** A status name from the dictionary (locale 45), or the built-in one while it loads. */
export function statusName(
  dict: TDictionaries | undefined,
  name: 'key_statuses' | 'domain_statuses',
  id: number,
): string {
  const item = dict?.[name]?.find((d: TDictionaryItem) => Number(d.id) === id);
  return item?.name ?? KEY_STATUS_FALLBACK[id] ?? String(id);
}

/** Spec §5: supervisor setting values — numeric text becomes a number, empty becomes null. */
export function toSettingValue(text: string): { ok: true; value: number | null } | { ok: false } {
  const r = ZSettingValue.safeParse(text.trim());
  return r.success ? { ok: true, value: r.data } : { ok: false };
}
/** The text an input shows for a stored value. */
export const fromSettingValue = (v: number | null | undefined) =>
  v === null || v === undefined ? '' : String(v);
