import { Button, Divider, Group, Popover, Stack, Text } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import {
  CREATION_DATE_PRESET_LABELS,
  CREATION_DATE_PRESETS,
  customDateRange,
  type TCreationDatePreset,
} from '@tlprt/contract';
import { useState } from 'react';
import { type DateFilter, dateLabel, presetFilter } from './filters';

const pad = (n: number) => String(n).padStart(2, '0');
/** Local calendar day as YYYY-MM-DD (the DatePicker's value format). */
const localDay = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

/**
 * Creation date filter (spec §2, §9): Today, Last 7 days, Last 30 days, Last year apply at once; a
 * custom range is picked on a calendar that refuses future days; Clear all, Cancel.
 */
export function CreationDateFilter({
  value,
  onChange,
  onOpenChange,
  now = Date.now,
}: {
  value: DateFilter | null;
  onChange: (v: DateFilter | null) => void;
  /** Told when the pop-up opens and closes (the panel then leaves Escape to it). */
  onOpenChange?: (opened: boolean) => void;
  now?: () => number;
}) {
  const [opened, setOpenedState] = useState(false);
  const setOpened = (o: boolean) => {
    setOpenedState(o);
    onOpenChange?.(o);
  };
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const [error, setError] = useState<string | null>(null);
  const today = localDay(now());

  const open = () => {
    setRange(value?.kind === 'custom' ? [value.from, value.to] : [null, null]);
    setError(null);
    setOpened(true);
  };
  const pick = (preset: TCreationDatePreset) => {
    onChange(presetFilter(preset, now()));
    setOpened(false);
  };
  const applyRange = () => {
    const [from, to] = range;
    if (!from) return;
    const r = customDateRange(from, to ?? from, now());
    if ('error' in r) {
      setError(r.error);
      return;
    }
    onChange({ kind: 'custom', from, to: to ?? from, ...r });
    setOpened(false);
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-start"
      shadow="md"
      withinPortal
      trapFocus
      closeOnEscape
      hideDetached={false}
    >
      <Popover.Target>
        <Button
          variant={value ? 'light' : 'default'}
          size="sm"
          onClick={() => (opened ? setOpened(false) : open())}
          aria-label={`Creation date filter: ${dateLabel(value)}`}
          aria-expanded={opened}
        >
          {dateLabel(value)}
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw="calc(100vw - 24px)">
        <Stack gap="xs" aria-label="Creation date" role="group">
          <Group gap={6} wrap="wrap">
            {CREATION_DATE_PRESETS.map((p) => (
              <Button
                key={p}
                size="xs"
                variant={value?.kind === 'preset' && value.preset === p ? 'filled' : 'light'}
                onClick={() => pick(p)}
              >
                {CREATION_DATE_PRESET_LABELS[p]}
              </Button>
            ))}
          </Group>
          <Divider label="Custom range" labelPosition="left" />
          <DatePicker
            type="range"
            allowSingleDateInRange
            value={range}
            onChange={(v) => {
              setRange(v as [string | null, string | null]);
              setError(null);
            }}
            maxDate={today}
            defaultDate={range[0] ?? today}
            size="sm"
            ariaLabels={{ previousMonth: 'Previous month', nextMonth: 'Next month' }}
          />
          {error && (
            <Text size="xs" c="red" role="alert">
              {error}
            </Text>
          )}
          <Group justify="space-between" gap="xs">
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => {
                setRange([null, null]);
                onChange(null);
                setOpened(false);
              }}
            >
              Clear all
            </Button>
            <Group gap="xs">
              <Button size="xs" variant="default" onClick={() => setOpened(false)}>
                Cancel
              </Button>
              <Button size="xs" onClick={applyRange} disabled={!range[0]}>
                Apply
              </Button>
            </Group>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
