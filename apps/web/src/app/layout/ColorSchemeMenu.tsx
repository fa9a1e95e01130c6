import { ActionIcon, type MantineColorScheme, Menu, Tooltip, useMantineColorScheme } from '@mantine/core';
import { IconCheck, IconMonitor, IconMoon, IconSun } from '../../platform/ui/icons';

const CHOICES: { value: MantineColorScheme; label: string; icon: typeof IconSun }[] = [
  { value: 'light', label: 'Light', icon: IconSun },
  { value: 'dark', label: 'Dark', icon: IconMoon },
  { value: 'auto', label: 'System', icon: IconMonitor },
];

/**
 * The header's colour scheme switch: light, dark or the browser's preference (prefers-color-scheme).
 * Mantine's color scheme manager keeps the choice (App.tsx); the button shows the choice made.
 */
export function ColorSchemeMenu() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const current = CHOICES.find((c) => c.value === colorScheme) ?? (CHOICES[2] as (typeof CHOICES)[number]);
  const CurrentIcon = current.icon;
  return (
    <Menu position="bottom-end" width={170} withinPortal>
      <Tooltip label="Color scheme">
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Color scheme: ${current.label}`}
            data-testid="color-scheme-menu"
          >
            <CurrentIcon size={20} />
          </ActionIcon>
        </Menu.Target>
      </Tooltip>
      <Menu.Dropdown>
        {CHOICES.map(({ value, label, icon: ItemIcon }) => (
          <Menu.Item
            key={value}
            leftSection={<ItemIcon size={16} />}
            rightSection={value === colorScheme ? <IconCheck size={14} /> : null}
            onClick={() => setColorScheme(value)}
          >
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
