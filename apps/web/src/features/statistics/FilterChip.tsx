import { CloseButton, Group, Paper, Text } from '@mantine/core';
import { MSG_STATS } from '@tlprt/contract';
import { useEffect } from 'react';
import { breakdownName } from './breakdown';
import { type BreakdownFilter, filterLabel, filterNoun } from './filter';

/** Where Escape belongs to something else: a field being typed in, an open dialog, menu or list. */
const ESCAPE_OWNERS =
  'input, textarea, select, [contenteditable="true"], [role="dialog"], [role="menu"], [role="listbox"]';

/**
 * The drill-down's chip above the chart: which row the chart and the viewer experience show, how it is
 * drawn (per hour, or per UTC day for a window older than the hours kept), removed by its × or by
 * Escape anywhere on the page that does not use Escape itself.
 */
export function BreakdownFilterChip({
  filter,
  onRemove,
  step,
}: {
  filter: BreakdownFilter;
  onRemove: () => void;
  /** The seconds of the filtered points, once answered. */
  step?: number | undefined;
}) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (e.target instanceof Element && e.target.closest(ESCAPE_OWNERS)) return;
      onRemove();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onRemove]);
  const label = filterLabel(filter);
  const name = breakdownName(filter.by, filter.value);
  return (
    <Group gap="xs" align="center" wrap="wrap" data-testid="breakdown-filter">
      <Paper
        withBorder
        radius="xl"
        pl="sm"
        pr={4}
        py={2}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, maxWidth: '100%', minWidth: 0 }}
        bg="var(--mantine-primary-color-light)"
      >
        <Text
          size="sm"
          fw={600}
          title={label}
          style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 }}
        >
          {label}
        </Text>
        <CloseButton
          size="sm"
          radius="xl"
          aria-label={MSG_STATS.filterRemove(filterNoun(filter.by), name)}
          onClick={onRemove}
        />
      </Paper>
      <Text size="xs" c="dimmed" style={{ flex: '1 1 240px' }}>
        {step !== undefined && step >= 86_400 ? MSG_STATS.filterPerDay : MSG_STATS.filterPerHour}
      </Text>
    </Group>
  );
}
