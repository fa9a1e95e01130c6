import { Button, Checkbox, Popover, Stack } from '@mantine/core';

/** Status filter (spec §2): Active (status ids 10 and 30, not suspended) and Suspended. */
export function StatusFilter({
  active,
  suspended,
  onChange,
  onOpenChange,
}: {
  active: boolean;
  suspended: boolean;
  onChange: (v: { active: boolean; suspended: boolean }) => void;
  /** Told when the pop-up opens and closes (the panel then leaves Escape to it). */
  onOpenChange?: (opened: boolean) => void;
}) {
  const label =
    active && suspended ? 'Active, Suspended' : active ? 'Active' : suspended ? 'Suspended' : 'Status';
  return (
    <Popover
      position="bottom-start"
      shadow="md"
      withinPortal
      hideDetached={false}
      onOpen={() => onOpenChange?.(true)}
      onClose={() => onOpenChange?.(false)}
    >
      <Popover.Target>
        <Button
          variant={active || suspended ? 'light' : 'default'}
          size="sm"
          aria-label={`Status filter: ${label}`}
        >
          {label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label="Status">
          <Checkbox
            label="Active"
            checked={active}
            onChange={(e) => onChange({ active: e.currentTarget.checked, suspended })}
          />
          <Checkbox
            label="Suspended"
            checked={suspended}
            onChange={(e) => onChange({ active, suspended: e.currentTarget.checked })}
          />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
