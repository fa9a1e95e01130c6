import { Box, Button, Group, ScrollArea, Table, Text, VisuallyHidden } from '@mantine/core';
import { SERIES } from '@tlprt/contract';
import { useId, useState } from 'react';
import { utcLabel } from '../../platform/dates';
import { formatBytes } from '../../platform/units';
import type { ChartInput } from './chartOption';
import { chartSummary, chartTableRows, stepLabel } from './chartSummary';
import { drawnTraffic } from './seriesStyle';

export const CHART_TABLE_TEXT = {
  show: 'Show data table',
  hide: 'Hide data table',
  chartLabel: 'Bandwidth and viewers chart',
  tableLabel: 'Chart data',
} as const;

/**
 * The chart's text alternative: its summary (the canvas' description: `summaryId`) and a toggle that
 * shows the visible points as a table, for keyboards and screen readers and for anyone who wants the
 * numbers. The table scrolls inside its box and is itself focusable, so a keyboard can scroll it.
 */
export function ChartTextAlternative({
  input,
  zoom,
  summaryId,
}: {
  input: ChartInput;
  zoom: readonly [number, number];
  summaryId: string;
}) {
  const [open, setOpen] = useState(false);
  const tableId = useId();
  return (
    <Box mt="xs">
      <VisuallyHidden id={summaryId}>{chartSummary(input, zoom)}</VisuallyHidden>
      <Group justify="flex-end">
        <Button
          variant="subtle"
          size="compact-xs"
          color="gray"
          aria-expanded={open}
          aria-controls={tableId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? CHART_TABLE_TEXT.hide : CHART_TABLE_TEXT.show}
        </Button>
      </Group>
      <div id={tableId}>{open && <ChartDataTable input={input} zoom={zoom} />}</div>
    </Box>
  );
}

/** The visible points as a table: time, the bytes of each source of traffic the chart draws (the series
 *  table's, in its order: CDN, P2P, NODR for version-1 teams), viewers. */
export function ChartDataTable({ input, zoom }: { input: ChartInput; zoom: readonly [number, number] }) {
  const traffic = drawnTraffic(input.nodr);
  const rows = chartTableRows(input, zoom);
  const captionId = useId();
  return (
    <ScrollArea.Autosize
      mah={320}
      type="auto"
      mt={6}
      // A scrolling region must be reachable by keyboard (and named) to be scrolled without a mouse.
      viewportProps={{ tabIndex: 0, role: 'region', 'aria-labelledby': captionId }}
      style={{ border: '1px solid var(--app-border)', borderRadius: 8 }}
    >
      <Table striped stickyHeader fz="xs" verticalSpacing={4}>
        <Table.Caption
          id={captionId}
          style={{ captionSide: 'top', textAlign: 'left', margin: 0, padding: 8 }}
        >
          <Text span size="xs" fw={600}>
            {CHART_TABLE_TEXT.tableLabel}
          </Text>
          <Text span size="xs" c="dimmed">
            {' '}
            · bytes delivered per {stepLabel(input.step)}, viewers at each point · {utcLabel(input.utcOffset)}
          </Text>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Time</Table.Th>
            {traffic.map((t) => (
              <Table.Th key={t.series} scope="col" ta="right">
                {t.label}
              </Table.Th>
            ))}
            <Table.Th scope="col" ta="right">
              {SERIES.users.label}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.datePoint}>
              <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
                {r.time}
              </Table.Th>
              {traffic.map((t) => (
                <Table.Td key={t.series} ta="right">
                  {formatBytes(r.bytes[t.series] ?? 0)}
                </Table.Td>
              ))}
              <Table.Td ta="right">{r.viewers.toLocaleString('en-US')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
