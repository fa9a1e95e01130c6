import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, emptySeries, POINT_FIELDS, type TStatsPoint } from '@tlprt/contract';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { theme } from '../../app/theme';
import { startTestServer } from '../../test/server';
import { CHART_TABLE_TEXT } from './ChartDataTable';
import type { ChartInput } from './chartOption';
import { visibleCsv, visibleCsvText } from './exportCsv';
import { ListTabButtons } from './ListTabButtons';
import { StatsChart } from './StatsChart';

// Only the canvas renderer is replaced: the zoom handler is kept to move the window as a user would.
const charts = vi.hoisted(() => ({ zoom: (_s: number, _e: number) => {} }));
vi.mock('./echarts', () => ({
  createChart: () => ({
    setOption: () => {},
    onZoom: (handler: (s: number, e: number) => void) => {
      charts.zoom = handler;
    },
    resize: () => {},
    dispose: () => {},
  }),
}));

afterEach(() => cleanup());

const T0 = 1_700_000_000;
const points: TStatsPoint[] = [0, 1, 2, 3, 4].map((i) => ({
  ...emptySeries(),
  datePoint: T0 + i * 60,
  cdnDwSize: 1000 * (i + 1),
  p2pDwSize: 500,
  usersCount: i + 1,
  playMs: 60_000,
}));
const input: ChartInput = { points, step: 60, nodr: false, utcOffset: 0 };
const ui = (node: React.ReactNode) => render(<MantineProvider theme={theme}>{node}</MantineProvider>);

describe('the chart text alternative', () => {
  it('describes the canvas and shows the visible points as a table from the keyboard', async () => {
    ui(<StatsChart input={input} view="v" sample={false} onZoom={() => {}} />);
    const chart = screen.getByRole('img', { name: CHART_TABLE_TEXT.chartLabel });
    expect(chart).toHaveAccessibleDescription(
      /^From 14 November 2023, 22:13 to 14 November 2023, 22:17 UTC\+0, 5 points of 1 minute\. CDN delivered 15 kB, P2P 2\.5 kB/,
    );
    const toggle = screen.getByRole('button', { name: CHART_TABLE_TEXT.show });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.tab();
    expect(toggle).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName(CHART_TABLE_TEXT.hide);
    const table = screen.getByRole('table', { name: /Chart data/ });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Time', 'CDN', 'P2P', 'Viewers']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    expect([...(rows[0] as HTMLElement).querySelectorAll('th, td')].map((c) => c.textContent)).toEqual([
      '14 November 2023, 22:13',
      '1 kB',
      '500 B',
      '1',
    ]);
    // The scrolling box is a tab stop, so a keyboard can scroll a long table.
    await user.tab();
    expect(screen.getByRole('region', { name: /Chart data/ })).toHaveFocus();
    // Zoomed to the last two points: the table and the summary follow.
    act(() => charts.zoom(75, 100));
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(chart).toHaveAccessibleDescription(/2 points of 1 minute/);
  });
});

function Tabs() {
  const [index, setIndex] = useState(0);
  return (
    <ListTabButtons
      names={['Active traffic', 'Evening streams', 'Sport']}
      index={index}
      onSelect={setIndex}
      variant="page"
    />
  );
}

describe('the list tabs', () => {
  it('are a tablist announcing the selected list, one tab stop, arrows to move', async () => {
    ui(<Tabs />);
    const list = screen.getByRole('tablist', { name: 'Statistics lists' });
    const tabs = within(list).getAllByRole('tab');
    expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false']);
    expect(tabs.map((t) => t.tabIndex)).toEqual([0, -1, -1]);
    const user = userEvent.setup();
    await user.tab();
    expect(tabs[0]).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Evening streams' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Evening streams' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Sport', selected: true })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { selected: true })).toHaveAccessibleName('Active traffic');
    await user.click(screen.getByRole('tab', { name: 'Sport' }));
    expect(screen.getByRole('tab', { selected: true })).toHaveAccessibleName('Sport');
  });
});

describe('the chart CSV', () => {
  const fields = POINT_FIELDS.filter((f) => !f.version1Only).map((f) => f.field);

  it("says the API's field names, every column of the breakdown CSV after its name", () => {
    const [head, first] = visibleCsv(input, [0, 100]).split('\r\n');
    expect(head).toBe(['time', 'timestamp', ...fields].join(','));
    expect(head).toContain('cdnDwSize,p2pDwSize');
    expect(head).not.toContain('cdn_bytes');
    const cells = (first as string).split(',');
    expect(cells[fields.indexOf('playMs') + 2]).toBe('60000');
    // A point read with the drawn series only leaves the others empty, not a made-up 0.
    const drawn = Object.fromEntries(
      Object.entries(points[0] as TStatsPoint).filter(
        ([k]) => k === 'datePoint' || POINT_FIELDS.some((f) => f.field === k && f.drawn),
      ),
    ) as TStatsPoint;
    const line = visibleCsv({ ...input, points: [drawn] }, [0, 100]).split('\r\n')[1] as string;
    expect(line.split(',')[fields.indexOf('playMs') + 2]).toBe('');
  });

  it('asks the server for every series of the visible window and writes them in the view’s zone', async () => {
    // Every series of each point, as the server answers a request without `points: 'drawn'`.
    const full = points.map((p) => ({ ...p, plays: 4, playMs: 60_000 }));
    const server = await startTestServer((r) => {
      const b = r.body as { startTimestamp: number; endTimestamp: number };
      const data = full.filter((p) => p.datePoint >= b.startTimestamp && p.datePoint <= b.endTimestamp);
      return {
        status: 200,
        body: {
          message: 'ok',
          data,
          step: 60,
          startTimestamp: b.startTimestamp,
          endTimestamp: b.endTimestamp,
        },
      };
    });
    try {
      const source = { range: 'day' as const, teamId: 7, keys: ['k'.repeat(32)], userId: 3 };
      const inKolkata = { ...input, utcOffset: 5.5 };
      const text = await visibleCsvText(inKolkata, [50, 100], source);
      const [asked] = server.requests;
      expect(asked?.url).toBe(ENDPOINTS.statistics.day.path);
      expect(asked?.body).toEqual({
        apiKeys: source.keys,
        startTimestamp: T0 + 120,
        endTimestamp: T0 + 240,
        clientId: 3,
        team_id: 7,
      });
      expect(text).toBe(visibleCsv({ ...inKolkata, points: full.slice(2) }, [0, 100]));
      expect(text.split('\r\n')[1]).toMatch(/^2023-11-15T03:45:20\+05:30,/);
      await visibleCsvText(input, [0, 100], { ...source, range: 'live' });
      expect(server.requests[1]?.url).toBe(ENDPOINTS.statistics.live.path.replace(':team_id', '7'));
      // Sample data (no source): the points held, as they are.
      expect(await visibleCsvText(input, [0, 100], null)).toBe(visibleCsv(input, [0, 100]));
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
