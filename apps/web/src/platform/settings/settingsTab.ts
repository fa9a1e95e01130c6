import { useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '@tlprt/contract';

/** Settings header tab (spec §2: 0 = profile, 1 = teams). */
type SettingsTab = 0 | 1;

/** The tab kept in localStorage as "0"/"1" (spec §9), the same in every tab of the browser. */
export function useSettingsTab(): [SettingsTab, (tab: SettingsTab) => void] {
  const [tab, setTab] = useLocalStorage<SettingsTab>({
    key: STORAGE_KEYS.settingsTab,
    defaultValue: 0,
    getInitialValueInEffect: false,
    serialize: String,
    deserialize: (v) => (v === '1' ? 1 : 0),
  });
  return [tab, setTab];
}
