import { STORAGE_KEYS } from '@tlprt/contract';
import { useSyncExternalStore } from 'react';
import { readRaw, writeRaw } from '../session/storage';

/** Settings header tab (spec §2: 0 = profile, 1 = teams), kept in local storage. */
type SettingsTab = 0 | 1;
const listeners = new Set<() => void>();

function get(): SettingsTab {
  return readRaw(STORAGE_KEYS.settingsTab) === '1' ? 1 : 0;
}

export function setSettingsTab(tab: SettingsTab): void {
  writeRaw(STORAGE_KEYS.settingsTab, String(tab));
  for (const l of listeners) l();
}

export function useSettingsTab(): [SettingsTab, (tab: SettingsTab) => void] {
  const tab = useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    get,
    get,
  );
  return [tab, setSettingsTab];
}
