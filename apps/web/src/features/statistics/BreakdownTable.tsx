import { Button, Group, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { MSG_STATS, type TBreakdownBy } from '@tlprt/contract';
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { breakdownCsvText } from './api';
import {
  type Column,
  type ColumnKey,
  columnsOf,
  ellipsis,
  Header,
  SKELETON_ROWS,
  selectedRow,
  TABLE_MIN_WIDTH,
} from './BreakdownHeader';
import {
  BREAKDOWN_TEXT,
  type BreakdownSort,
  breakdownFileName,
  breakdownName,
  breakdownWindow,
  DEFAULT_SORT,
  sortRows,
  splitName,
} from './breakdown';
import { downloadText } from './exportCsv';
import type { BreakdownFilter } from './filter';
import type { BreakdownResult } from './queries';

function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState({ scrollable: false, more: false });
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const scrollable = el.scrollWidth > el.clientWidth + 1;
    const more = scrollable && el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setState((s) => (s.scrollable === scrollable && s.more === more ? s : { scrollable, more }));
  }, []);
  useEffect(() => {
    measure();
    const el = ref.current;
    const observer = typeof ResizeObserver === 'function' && el ? new ResizeObserver(measure) : null;
    if (el) observer?.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [measure]);
  return (
    <div>
      <div style={{ position: 'relative' }}>
        <div
          ref={ref}
          onScroll={measure}
          style={{ overflowX: 'auto' }}
          data-testid="breakdown-scroll"
          {...(state.scrollable ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
        >
          <div style={{ minWidth: TABLE_MIN_WIDTH }}>{children}</div>
        </div>
        {state.more && (
          <div
            aria-hidden="true"
            style={{
              position: 'absolute',
              top: 0,
              right: 0,
              bottom: 0,
              width: 40,
              pointerEvents: 'none',
              background: 'linear-gradient(to right, transparent, var(--mantine-color-body))',
            }}
          />
        )}
      </div>
      {state.scrollable && (
        <Text size="xs" c="dimmed" ta="right" mt={4} aria-hidden="true" data-testid="breakdown-scroll-hint">
          {BREAKDOWN_TEXT.scrollHint}
        </Text>
      )}
    </div>
  );
}

function Frame({
  label,
  columns,
  describedBy,
  hidden,
  children,
}: {
  label: string;
  columns: readonly Column[];
  describedBy?: string;
  /** Placeholders: read as their status's label, not as a table of empty cells. */
  hidden?: boolean;
  children: ReactNode;
}) {
  return (
    <ScrollBox label={label}>
      <Table
        verticalSpacing={6}
        horizontalSpacing={8}
        highlightOnHover={!hidden}
        aria-label={label}
        aria-describedby={describedBy}
        aria-hidden={hidden || undefined}
        // Fixed: the figures keep their widths and a long name is cut (whole in its title), never
        // widening the table past its box.
        style={{ tableLayout: 'fixed', width: '100%' }}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
        {children}
      </Table>
    </ScrollBox>
  );
}

export function Loading({ label, by }: { label: string; by: TBreakdownBy }) {
  const columns = columnsOf(by);
  return (
    <div role="status" aria-busy="true" aria-label={BREAKDOWN_TEXT.loading}>
      <Frame label={label} columns={columns} hidden>
        <Header columns={columns} sort={DEFAULT_SORT} />
        <Table.Tbody>
          {Array.from({ length: SKELETON_ROWS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders, never reordered
            <Table.Tr key={i}>
              {columns.map((c) => (
                <Table.Td key={c.key}>
                  <Skeleton
                    height={12}
                    radius="sm"
                    width={c.numeric ? '70%' : '90%'}
                    ml={c.numeric ? 'auto' : 0}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Frame>
    </div>
  );
}

/** A row's name: cut with an ellipsis when long (a stream keeps the end of its path), whole in its
 *  title; a button pressed while the chart shows this row alone. */
function NameCell({
  by,
  name,
  selected,
  onToggle,
}: {
  by: TBreakdownBy;
  name: string;
  selected: boolean;
  onToggle?: (() => void) | undefined;
}) {
  const shown = breakdownName(by, name);
  const [start, end] = splitName(by, shown);
  const text = (
    <>
      {/* A few letters of the head stay before its ellipsis: a cut name still shows its start. */}
      <span style={{ ...ellipsis, flex: '0 1 auto', minWidth: start.length > 6 ? '2.5em' : 0 }}>{start}</span>
      {/* The path's end gives way last, and with an ellipsis too when even it does not fit. */}
      {end && <span style={{ ...ellipsis, flex: '0 0.01 auto', minWidth: 0 }}>{end}</span>}
    </>
  );
  const line = { display: 'flex', minWidth: 0, maxWidth: '100%', overflow: 'hidden' } as const;
  return (
    <Table.Td title={shown}>
      {onToggle ? (
        <UnstyledButton
          fz="sm"
          // The name whole (its parts are laid out apart, which a browser may read with a space between).
          aria-label={shown}
          aria-pressed={selected}
          onClick={(e) => {
            // The row's own click would toggle it back.
            e.stopPropagation();
            onToggle();
          }}
          style={line}
        >
          {text}
        </UnstyledButton>
      ) : (
        <div style={line}>{text}</div>
      )}
    </Table.Td>
  );
}

export function Rows({
  result,
  label,
  utcOffset,
  sort: chosen,
  onSort,
  filter,
  onFilter,
}: {
  result: BreakdownResult;
  label: string;
  utcOffset: number;
  sort: BreakdownSort;
  onSort: (key: ColumnKey) => void;
  filter: BreakdownFilter | null;
  onFilter?: ((filter: BreakdownFilter | null) => void) | undefined;
}) {
  const noteId = useId();
  const { answer } = result;
  const columns = columnsOf(answer.by);
  // A column of another tab only (the CDN bytes, the share within own networks): traffic order here.
  const sort = columns.some((c) => c.key === chosen.key) ? chosen : DEFAULT_SORT;
  const rows = useMemo(() => sortRows(answer.data, answer.by, sort), [answer, sort]);
  const download = useMutation({
    // A failure has its popup already.
    mutationFn: async (r: BreakdownResult) =>
      downloadText(breakdownFileName(r.body.by, r.body.range), await breakdownCsvText(r.body)),
  });
  const covered = breakdownWindow(answer, utcOffset);
  if (rows.length === 0) {
    return (
      <Stack gap={4} py="md" align="center" ta="center" role="status">
        <Text fw={600}>{BREAKDOWN_TEXT.empty}</Text>
        <Text size="xs" c="dimmed">
          {covered}
        </Text>
      </Stack>
    );
  }
  const isSelected = (name: string) => filter?.by === answer.by && filter.value === name;
  // A second click on the selected row shows all traffic again, as the chip's × does.
  const toggle = onFilter
    ? (name: string) => onFilter(isSelected(name) ? null : { by: answer.by, value: name })
    : undefined;
  return (
    <Stack gap="xs">
      <Frame label={label} columns={columns} describedBy={noteId}>
        <Header columns={columns} sort={sort} onSort={onSort} />
        <Table.Tbody>
          {rows.map((r) => {
            const selected = isSelected(r.name);
            return (
              <Table.Tr
                key={r.name}
                data-testid="breakdown-row"
                data-selected={selected || undefined}
                // The mouse may click anywhere on the row; the keyboard has the name's button.
                onClick={toggle && (() => toggle(r.name))}
                style={{ ...(toggle ? { cursor: 'pointer' } : {}), ...(selected ? selectedRow : {}) }}
              >
                {columns.map((c) =>
                  c.numeric ? (
                    <Table.Td
                      key={c.key}
                      ta="right"
                      style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                    >
                      {c.value(r, answer.by)}
                    </Table.Td>
                  ) : (
                    <NameCell
                      key={c.key}
                      by={answer.by}
                      name={r.name}
                      selected={selected}
                      onToggle={toggle && (() => toggle(r.name))}
                    />
                  ),
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Frame>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <div id={noteId} style={{ flex: '1 1 240px' }}>
          <Text size="xs" c="dimmed">
            {sort.key === 'traffic' && 'Largest traffic first. '}
            {covered}
          </Text>
          {toggle && (
            <Text size="xs" c="dimmed">
              {MSG_STATS.breakdownRowHint}
            </Text>
          )}
        </div>
        <Button
          variant="default"
          size="xs"
          loading={download.isPending}
          onClick={() => download.mutate(result)}
        >
          {BREAKDOWN_TEXT.download}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Where the range's traffic comes from: by stream, country, network, browser or system, for the keys
 * and range of the chart. Only drawn for the team's own answers: the screen leaves it out when the
 * chart falls back to sample data. With `onFilter`, a row selected filters the chart and the viewer
 * experience to it (the drill-down, `filter` the one shown: its tab opens, its row is marked).
 */
