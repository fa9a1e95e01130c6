import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ENDPOINTS,
  emptySeries,
  MSG_STATS,
  PATHS,
  POINT_FIELDS,
  SERIES,
  STORAGE_KEYS,
  type TBreakdownRow,
  type TDomain,
  type TKey,
  type TSeriesFields,
  type TStatsPoint,
} from '@tlprt/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import StatisticsRoute from '../../routes/statistics';
import { buildDomain, buildKey, buildTeam, buildUser, domainList } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import type { Recorded } from '../../test/server';
import { on, type Routes, renderSignedIn, startApi } from '../../test/session';
import { BREAKDOWN_TEXT } from './breakdown';
import { ExperiencePanel } from './ExperiencePanel';
import { EXPERIENCE_TEXT } from './experience';

// Only the canvas renderer is replaced: the option the page hands to ECharts is recorded.
const charts = vi.hoisted(() => ({
  options: [] as Array<Record<string, unknown>>,
  replaced: [] as boolean[],
  zoom: (_start: number, _end: number) => {},
}));
vi.mock('./echarts', () => ({
  createChart: () => ({
    setOption: (o: Record<string, unknown>, replace: boolean) => {
      charts.options.push(o);
      charts.replaced.push(replace);
    },
    onZoom: (handler: (start: number, end: number) => void) => {
      charts.zoom = handler;
    },
    resize: () => {},
    dispose: () => {},
  }),
}));

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  vi.useRealTimers();
  // Unmounting sends the lists' pending save: to this test's server, before it closes.
  cleanup();
  charts.options.length = 0;
  charts.replaced.length = 0;
  await api?.close();
  api = null;
});

/** A window where nothing was reported: tests spread it, then set what their answers hold. */
const NO_PLAYS = emptySeries();

// 4 viewers: 3 on the CDN, 2 from peers, so 1 fed by both (not 3, the largest series, nor 5, both added).
// `refused`: the peer bytes refused at each point (none by default).
const points = (n: number, step = 60, refused: (i: number) => number = () => 0): TStatsPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    ...NO_PLAYS,
    datePoint: 1_700_000_000 + i * step,
    cdnDwSize: 3000,
    cdnUsersCount: 3,
    p2pDwSize: 1000,
    p2pUsersCount: 2,
    usersCount: 4,
    rejectedDwSize: refused(i),
  }));
type Totals = TSeriesFields;
/** The whole window as the server sums it: sizes added, viewers the largest point's. */
const totalsOf = (data: readonly TStatsPoint[]): Totals => ({
  ...NO_PLAYS,
  cdnDwSize: data.reduce((a, p) => a + p.cdnDwSize, 0),
  p2pDwSize: data.reduce((a, p) => a + p.p2pDwSize, 0),
  cdnUsersCount: Math.max(0, ...data.map((p) => p.cdnUsersCount)),
  p2pUsersCount: Math.max(0, ...data.map((p) => p.p2pUsersCount)),
  usersCount: Math.max(0, ...data.map((p) => p.usersCount)),
  rejectedDwSize: data.reduce((a, p) => a + p.rejectedDwSize, 0),
});
/** As the server answers a chart asking for the drawn series only (`points: 'drawn'`). */
const drawnOnly = (p: TStatsPoint): TStatsPoint =>
  Object.fromEntries(
    Object.entries(p).filter(
      ([k]) => k === 'datePoint' || POINT_FIELDS.some((f) => f.field === k && f.drawn),
    ),
  ) as TStatsPoint;
const statsReply = (req: Recorded, n = 5, refused?: (i: number) => number, totals?: Totals | null) => {
  const b = req.body as { startTimestamp: number; endTimestamp: number; points?: string };
  const all = points(n, 60, refused);
  const data = b.points === 'drawn' ? all.map(drawnOnly) : all;
  return {
    status: 200,
    body: {
      message: 'ok',
      data,
      step: 60,
      startTimestamp: b.startTimestamp,
      endTimestamp: b.endTimestamp,
      // null: an answer without totals.
      ...(totals === null ? {} : { totals: totals ?? totalsOf(all) }),
    },
  };
};

/** A breakdown answer over the asked window: whole hours (day, live) or whole UTC days (week, month). */
const breakdownReply = (req: Recorded, rows: readonly TBreakdownRow[] = []) => {
  const b = req.body as { startTimestamp: number; endTimestamp: number; range: string; by: string };
  const size = b.range === 'day' || b.range === 'live' ? 3600 : 86_400;
  return {
    status: 200,
    body: {
      message: 'ok',
      by: b.by,
      data: rows,
      step: size,
      startTimestamp: b.startTimestamp - (b.startTimestamp % size),
      endTimestamp: b.endTimestamp - (b.endTimestamp % size) + size - 1,
    },
  };
};

const k1 = buildKey({ id: 1, name: 'Main player' });
const k2 = buildKey({ id: 2, name: '' });
const kOff = buildKey({ id: 3, name: 'Old player', status: 20 });
const kRed = buildKey({ id: 4, name: 'Blocked', status: 40 });
const standard = [
  buildDomain({ id: 11, name: 'video.example.com', keys: [k1, k2, kOff, kRed] }),
  buildDomain({ id: 12, name: 'empty.example.com', keys: [] }),
  buildDomain({
    id: 13,
    name: 'paused.example.com',
    status: { id: 20, name: 'Inactive' },
    keys: [buildKey({ id: 5, name: 'Paused key', domainId: 13 })],
  }),
];

async function open(
  opts: {
    domains?: TDomain[];
    deleted?: TDomain[];
    allDomains?: TKey[];
    deletedAllDomains?: TKey[];
    role?: number;
    version?: number;
    routes?: Routes;
    tabs?: unknown[];
    range?: number;
    /** The screen's URL (a shared link). */
    path?: string;
  } = {},
) {
  const team = buildTeam({ role: opts.role ?? 10, version: opts.version ?? 0, utcOffset: 2 });
  const tabs = opts.tabs ?? [];
  api = await startApi({
    user: buildUser({ TeamsRender: [team] }),
    routes: {
      [on(ENDPOINTS.domains.list, 5)]: () => ({
        status: 200,
        body: domainList(
          opts.domains ?? standard,
          opts.deleted ?? [],
          opts.allDomains ?? [],
          opts.deletedAllDomains ?? [],
        ),
      }),
      [on(ENDPOINTS.statistics.readLists, 1, 5)]: {
        status: 200,
        body: { message: 'ok', data: { tabs } },
      },
      // The server answers the lists it saved.
      [on(ENDPOINTS.statistics.saveLists, 1, 5)]: (r) => ({
        status: 200,
        body: { message: 'ok', data: JSON.parse((r.body as { save_json: string }).save_json) as unknown },
      }),
      [on(ENDPOINTS.statistics.day)]: (r) => statsReply(r),
      [on(ENDPOINTS.statistics.week)]: (r) => statsReply(r),
      [on(ENDPOINTS.statistics.month)]: (r) => statsReply(r),
      [on(ENDPOINTS.statistics.live, 5)]: (r) => statsReply(r),
      [on(ENDPOINTS.statistics.breakdown)]: (r) => breakdownReply(r),
      ...opts.routes,
    },
  });
  if (opts.range !== undefined) localStorage.setItem(STORAGE_KEYS.timeRange, String(opts.range));
  renderSignedIn(<StatisticsRoute />, opts.path ?? '/statistics');
}
const BREAKDOWN_PATH = PATHS.statistics.breakdown;
/** The chart's calls (the live one under its team). */
const CHART_PATHS = [
  PATHS.statistics.day,
  PATHS.statistics.week,
  PATHS.statistics.month,
  PATHS.statistics.live(''),
];
/** The chart's calls (the breakdown table's are counted apart). */
const statsCalls = () => (api?.requests ?? []).filter((r) => CHART_PATHS.some((p) => r.url.startsWith(p)));
const breakdownCalls = () => (api?.requests ?? []).filter((r) => r.url.startsWith(BREAKDOWN_PATH));
/** The range and dimension a breakdown call asked for. */
const askedOf = (r: Recorded | undefined) => (r?.body ?? {}) as { range?: string; by?: string };
const user = () => userEvent.setup();

describe('statistics screen', () => {
  it('loads the Active traffic list for the stored range with the window ending now', async () => {
    await open();
    await screen.findByLabelText('P2P share');
    expect(screen.getByLabelText('P2P share')).toHaveTextContent('25.0%');
    expect(screen.getByTestId('figure-total-traffic')).toHaveTextContent('20 kB');
    expect(screen.getByTestId('figure-peak-viewers')).toHaveTextContent(/^4$/);
    const [call] = statsCalls();
    expect(call?.url).toBe(PATHS.statistics.day);
    const body = call?.body as Record<string, number | string[]>;
    expect(body.apiKeys).toEqual([k1.keyHash, k2.keyHash]);
    expect(body.clientId).toBe(1);
    expect(body.team_id).toBe(5);
    // Only what the chart draws, a point: the experience panel reads the totals.
    expect(body.points).toBe('drawn');
    expect(Number(body.endTimestamp) - Number(body.startTimestamp)).toBe(86_400);
    expect(Math.abs(Number(body.endTimestamp) - Date.now() / 1000)).toBeLessThan(30);
    expect(screen.getByTestId('stats-chart')).toBeInTheDocument();
    const series = charts.options.at(-1)?.series as Array<Record<string, unknown> & { data: unknown[][] }>;
    expect(series.map((s) => `${s.type}:${s.name}`)).toEqual([
      'line:CDN',
      'line:P2P',
      'line:CDN',
      'line:P2P',
      'line:Viewers',
    ]);
    // The viewer panel draws each series unstacked (a stack would reach 5) and the audience.
    const viewerPanel = series.filter((s) => s.yAxisIndex === 1);
    expect(viewerPanel.map((s) => s.stack)).toEqual([undefined, undefined, undefined]);
    expect(viewerPanel.map((s) => s.data[0]?.[1])).toEqual([3, 2, 4]);
    expect(screen.queryByText('Sample data')).toBeNull();
    // Nothing refused: neither the figure, its note nor the series.
    expect(screen.queryByTestId('figure-refused-peer-bytes')).toBeNull();
    expect(screen.queryByText(MSG_STATS.refusedNote)).toBeNull();
  });

  it('warns of refused peer bytes in the visible range: the figure with its note, and the red series', async () => {
    // 2 KiB refused at the fourth of five points.
    await open({
      routes: { [on(ENDPOINTS.statistics.day)]: (r) => statsReply(r, 5, (i) => (i === 3 ? 2048 : 0)) },
    });
    const figure = await screen.findByTestId('figure-refused-peer-bytes');
    expect(figure).toHaveTextContent('2.05 kB');
    expect(screen.getByText(MSG_STATS.refusedBytes)).toBeInTheDocument();
    const note = screen.getByText(MSG_STATS.refusedNote);
    expect(figure).toHaveAttribute('aria-describedby', note.id);
    // Not traffic: the share and the total are those without it.
    expect(screen.getByLabelText('P2P share')).toHaveTextContent('25.0%');
    expect(screen.getByTestId('figure-total-traffic')).toHaveTextContent('20 kB');
    const series = charts.options.at(-1)?.series as Array<{ type: string; name: string; data: unknown[][] }>;
    expect(series.map((s) => `${s.type}:${s.name}`)).toEqual([
      'line:CDN',
      'line:P2P',
      `line:${MSG_STATS.refusedSeries}`,
      'line:CDN',
      'line:P2P',
      'line:Viewers',
    ]);
    // 2048 bytes in 60 s.
    expect(series[2]?.data[3]?.[1]).toBeCloseTo((2048 * 8) / 60);
    // Zoomed to the first points only: none refused there, so no warning (the series stays).
    act(() => charts.zoom(0, 50));
    await waitFor(() => expect(screen.queryByTestId('figure-refused-peer-bytes')).toBeNull());
    expect(screen.queryByText(MSG_STATS.refusedNote)).toBeNull();
    act(() => charts.zoom(50, 100));
    expect(await screen.findByTestId('figure-refused-peer-bytes')).toHaveTextContent('2.05 kB');
  });

  it("shows the origin's real saving beside the P2P share: less the verification bytes, why, and how to close the gap", async () => {
    // Five points of 3 kB CDN and 1 kB P2P; the service fetched 500 B of each from the origin.
    const verified = (r: Recorded) => {
      const reply = statsReply(r, 5);
      reply.body.data = reply.body.data.map((p) => ({ ...p, verifyDwSize: 500 }));
      return reply;
    };
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: verified } });
    await screen.findByLabelText('P2P share');
    expect(screen.getByLabelText('P2P share')).toHaveTextContent('25.0%');
    // 1 − (15 kB + 2.5 kB) ÷ (15 kB + 5 kB).
    const saving = screen.getByLabelText(MSG_STATS.originSaving);
    expect(saving).toHaveTextContent('12.5%');
    const note = screen.getByTestId('saving-note');
    expect(saving).toHaveAttribute('aria-describedby', note.id);
    expect(note).toHaveTextContent(MSG_STATS.originSavingNote('2.5 kB'));
    expect(note).toHaveTextContent(MSG_STATS.originSavingHow);
    expect(within(note).getByRole('link', { name: MSG_STATS.originSavingLink })).toHaveAttribute(
      'href',
      '/docs#verification',
    );
    // Not traffic: the total is the viewers' bytes.
    expect(screen.getByTestId('figure-total-traffic')).toHaveTextContent('20 kB');
    // Nor drawn: no series of its own.
    const series = charts.options.at(-1)?.series as Array<{ name: string }>;
    expect(series.map((x) => x.name)).not.toContain(SERIES.verifyBytes.label);
    // The visible range's: zoomed to the first two points, 1 − (6 + 1) ÷ (6 + 2) kB.
    act(() => charts.zoom(0, 25));
    await waitFor(() => expect(screen.getByLabelText(MSG_STATS.originSaving)).toHaveTextContent('12.5%'));
    expect(screen.getByTestId('saving-note')).toHaveTextContent(MSG_STATS.originSavingNote('1 kB'));
  });

  it("shows the share of P2P within viewers' own networks over the visible range, explained; none without P2P bytes nor on sample data", async () => {
    // Five points of 1 kB P2P; of it from other networks 0, 100, 200, 300 and 400 B.
    const crossing = (r: Recorded) => {
      const reply = statsReply(r, 5);
      reply.body.data = reply.body.data.map((p, i) => ({ ...p, p2pCrossDwSize: 100 * i }));
      return reply;
    };
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: crossing } });
    // 1 − 1 kB ÷ 5 kB.
    const own = await screen.findByLabelText(MSG_STATS.ownNetwork);
    expect(own).toHaveTextContent('80.0%');
    expect(own).toHaveAccessibleDescription(MSG_STATS.ownNetworkHelp);
    expect(screen.getByText(MSG_STATS.ownNetwork)).toHaveAttribute('tabindex', '0');
    // Part of P2P, not traffic of its own: the share and the total are as before, and nothing drawn.
    expect(screen.getByLabelText('P2P share')).toHaveTextContent('25.0%');
    expect(screen.getByTestId('figure-total-traffic')).toHaveTextContent('20 kB');
    const series = charts.options.at(-1)?.series as Array<{ name: string }>;
    expect(series.map((x) => x.name)).not.toContain(SERIES.crossBytes.label);
    // The chart asked for its drawn series only, which carry it: the zoom's first two points, 1 − 100 ÷ 2000.
    act(() => charts.zoom(0, 25));
    await waitFor(() => expect(screen.getByLabelText(MSG_STATS.ownNetwork)).toHaveTextContent('95.0%'));
    cleanup();
    await api?.close();
    // No P2P bytes in the range: no share of them.
    const cdnOnly = (r: Recorded) => {
      const reply = statsReply(r, 5);
      reply.body.data = reply.body.data.map((p) => ({ ...p, p2pDwSize: 0, p2pUsersCount: 0 }));
      return reply;
    };
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: cdnOnly } });
    await screen.findByLabelText('P2P share');
    expect(screen.queryByLabelText(MSG_STATS.ownNetwork)).toBeNull();
    cleanup();
    await api?.close();
    // Sample data has no networks.
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: { status: 500, body: { message: 'down' } } } });
    await screen.findByText('The chart below shows sample data, not your traffic.');
    expect(screen.queryByLabelText(MSG_STATS.ownNetwork)).toBeNull();
  });

  it('shows the saving equal to the share when nothing was fetched, below 0 when verifying cost more, a dash without traffic', async () => {
    await open();
    await screen.findByLabelText('P2P share');
    expect(screen.getByLabelText(MSG_STATS.originSaving)).toHaveTextContent('25.0%');
    expect(screen.queryByTestId('saving-note')).toBeNull();
    cleanup();
    await api?.close();
    // Peers delivered 1 kB a point, the service fetched 1.4 kB of the origin: 1 − (3 + 1.4) ÷ 4.
    const costly = (r: Recorded) => {
      const reply = statsReply(r, 5);
      reply.body.data = reply.body.data.map((p) => ({ ...p, verifyDwSize: 1400 }));
      return reply;
    };
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: costly } });
    await screen.findByLabelText('P2P share');
    expect(screen.getByLabelText(MSG_STATS.originSaving)).toHaveTextContent('−10.0%');
    cleanup();
    await api?.close();
    const quiet = (r: Recorded) => {
      const reply = statsReply(r, 5);
      reply.body.data = reply.body.data.map((p) => ({
        ...p,
        cdnDwSize: 0,
        p2pDwSize: 0,
        cdnUsersCount: 0,
        p2pUsersCount: 0,
        usersCount: 0,
      }));
      return reply;
    };
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: quiet } });
    await screen.findByLabelText('P2P share');
    expect(screen.getByLabelText('P2P share')).toHaveTextContent('—');
    expect(screen.getByLabelText(MSG_STATS.originSaving)).toHaveTextContent(/^—$/);
    expect(screen.getByLabelText(MSG_STATS.originSaving)).not.toHaveTextContent('NaN');
  });

  it('ends every window at server time, not at the browser clock (offset asked once)', async () => {
    const ahead = 3 * 3600;
    await open({
      routes: {
        [on(ENDPOINTS.dictionaries.serverTime)]: () => ({
          status: 200,
          body: { message: 'ok', data: { timestamp: Math.floor(Date.now() / 1000) + ahead } },
        }),
      },
    });
    await screen.findByLabelText('P2P share');
    const end = (i: number) =>
      Number((statsCalls()[i]?.body as { endTimestamp?: number } | undefined)?.endTimestamp);
    expect(Math.abs(end(0) - (Date.now() / 1000 + ahead))).toBeLessThan(30);
    await user().click(screen.getByLabelText('Week'));
    await waitFor(() => expect(statsCalls().length).toBe(2));
    expect(Math.abs(end(1) - (Date.now() / 1000 + ahead))).toBeLessThan(30);
    expect(api?.requests.filter((r) => r.url === PATHS.dictionaries.serverTime)).toHaveLength(1);
  });

  it('switches ranges (stored 0..3), each with its window', async () => {
    await open({ range: 2 });
    await screen.findByLabelText('P2P share');
    expect(statsCalls()[0]?.url).toBe(PATHS.statistics.week);
    const windows: Record<string, number> = { Month: 2_592_000, Day: 86_400, Live: 300 };
    for (const [label, window] of Object.entries(windows)) {
      const before = statsCalls().length;
      await user().click(screen.getByLabelText(label));
      await waitFor(() => expect(statsCalls().length).toBe(before + 1));
      const last = statsCalls().at(-1);
      const b = last?.body as { startTimestamp: number; endTimestamp: number };
      expect(b.endTimestamp - b.startTimestamp).toBe(window);
      expect(last?.url).toBe(
        label === 'Live'
          ? PATHS.statistics.live(5)
          : PATHS.statistics[label.toLowerCase() as 'day' | 'week' | 'month'],
      );
    }
    expect(localStorage.getItem(STORAGE_KEYS.timeRange)).toBe('0');
  });

  it('locks the first tab with its note; inactive keys by status colour; "No key" and hash labels', async () => {
    await open();
    await screen.findByLabelText('P2P share');
    expect(screen.getByText(MSG_STATS.activeTrafficNote)).toBeInTheDocument();
    expect(screen.getByLabelText('List name')).toBeDisabled();
    expect(screen.getByLabelText('List name')).toHaveValue('Active traffic');
    expect(screen.getByRole('checkbox', { name: 'Main player' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Main player' })).toBeDisabled();
    // An unnamed key: the short form of its hash, the whole hash its title and accessible name.
    expect(screen.getByRole('checkbox', { name: k2.keyHash })).toBeChecked();
    expect(screen.getByText(`${k2.keyHash.slice(0, 8)}…`)).toHaveAttribute('title', k2.keyHash);
    expect(screen.getByRole('checkbox', { name: 'Old player' })).not.toBeChecked();
    expect(screen.getByText('No key')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Rename / })).toBeNull();
    // Inactive and deleted groups expand to their domains and keys.
    await user().click(screen.getByRole('button', { name: /Inactive/ }));
    await user().click(screen.getByRole('button', { name: /paused\.example\.com/ }));
    expect(screen.getByRole('checkbox', { name: 'Paused key' })).not.toBeChecked();
  });

  it('adds a list, selects keys (reload with them), saves it, renames it for 10 s, deletes it after confirmation', async () => {
    await open();
    await screen.findByLabelText('P2P share');
    const ue = user();
    await ue.click(screen.getByRole('button', { name: 'Add list' }));
    expect(screen.getByRole('tab', { name: MSG_STATS.newList })).toHaveAttribute('aria-selected', 'true');
    // A new list has no key: no request, the hint instead.
    const before = statsCalls().length;
    expect(await screen.findByText(MSG_STATS.noKey)).toBeInTheDocument();
    expect(screen.queryByText(MSG_STATS.activeTrafficNote)).toBeNull();
    await ue.click(screen.getByRole('checkbox', { name: 'Old player' }));
    await waitFor(() => expect(statsCalls().length).toBe(before + 1));
    expect((statsCalls().at(-1)?.body as { apiKeys: string[] } | undefined)?.apiKeys).toEqual([kOff.keyHash]);
    await screen.findByLabelText('P2P share');
    // Saved (debounced) as JSON text. On a slow machine the new, still empty list may be saved first:
    // the last save is the one with the key.
    await waitFor(() =>
      expect(api?.requests.filter((r) => r.url.includes('/settings/put/')).at(-1)?.body).toEqual({
        user_id: 1,
        team_id: 5,
        save_json: JSON.stringify({ tabs: [{ nameTab: MSG_STATS.newList, activeKeys: [kOff.keyHash] }] }),
      }),
    );

    // Rename: the field is read-only until the edit icon, then for 10 seconds.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const field = screen.getByLabelText('List name');
    expect(field).toHaveAttribute('readonly');
    await ue.click(screen.getByRole('button', { name: `Rename ${MSG_STATS.newList}` }));
    expect(field).not.toHaveAttribute('readonly');
    await ue.clear(field);
    expect(screen.getByRole('tab', { name: 'No name' })).toBeInTheDocument();
    await ue.type(field, 'Evening');
    expect(screen.getByRole('tab', { name: 'Evening' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(10_000));
    expect(field).toHaveAttribute('readonly');
    vi.useRealTimers();

    await ue.click(screen.getByRole('button', { name: 'Delete Evening' }));
    const dialog = await screen.findByRole('dialog', { name: MSG_STATS.deleteSheet });
    await ue.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('tab', { name: 'Evening' })).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Delete Evening' }));
    await ue.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('tab', { name: 'Evening' })).toBeNull());
    expect(screen.getByRole('tab', { name: 'Active traffic' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => {
      const last = api?.requests.filter((r) => r.url.includes('/settings/put/')).at(-1);
      expect(last?.body).toMatchObject({ save_json: JSON.stringify({ tabs: [] }) });
    });
  });

  it('shows the keys for all domains (domainId null) in an "All domains" row, counted in Active traffic', async () => {
    const teamWide = buildKey({ id: 9, name: 'Everywhere', domainId: null });
    await open({ allDomains: [teamWide] });
    await screen.findByLabelText('P2P share');
    expect(screen.getByRole('button', { name: /All domains/ })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Everywhere' })).toBeChecked();
    expect((statsCalls()[0]?.body as { apiKeys?: string[] } | undefined)?.apiKeys).toEqual([
      teamWide.keyHash,
      k1.keyHash,
      k2.keyHash,
    ]);
  });

  it('lists deleted keys under Deleted; a new list can chart their past traffic', async () => {
    const gone = buildKey({ id: 9, name: 'Retired player', status: 50, domainId: 14 });
    await open({
      deleted: [
        buildDomain({
          id: 14,
          name: 'old-site.example.com',
          status: { id: 50, name: 'Deleted' },
          keys: [gone],
        }),
      ],
    });
    await screen.findByLabelText('P2P share');
    const ue = user();
    await ue.click(screen.getByRole('button', { name: 'Add list' }));
    await ue.click(screen.getByRole('button', { name: /Deleted/ }));
    await ue.click(screen.getByRole('button', { name: /old-site\.example\.com/ }));
    const before = statsCalls().length;
    await ue.click(screen.getByRole('checkbox', { name: 'Retired player' }));
    await waitFor(() => expect(statsCalls().length).toBe(before + 1));
    expect((statsCalls().at(-1)?.body as { apiKeys: string[] } | undefined)?.apiKeys).toEqual([gone.keyHash]);
  });

  it('lists deleted keys for all domains under Deleted, in an "All domains" row', async () => {
    const gone = buildKey({ id: 9, name: 'Retired everywhere', status: 50, domainId: null });
    await open({ deletedAllDomains: [gone] });
    await screen.findByLabelText('P2P share');
    const ue = user();
    await ue.click(screen.getByRole('button', { name: 'Add list' }));
    await ue.click(screen.getByRole('button', { name: /Deleted/ }));
    await ue.click(screen.getByRole('button', { name: /All domains/ }));
    const before = statsCalls().length;
    await ue.click(screen.getByRole('checkbox', { name: 'Retired everywhere' }));
    await waitFor(() => expect(statsCalls().length).toBe(before + 1));
    expect((statsCalls().at(-1)?.body as { apiKeys: string[] } | undefined)?.apiKeys).toEqual([gone.keyHash]);
  });

  it('loads saved lists and allows at most 8 in all', async () => {
    await open({ tabs: [{ nameTab: 'Saved one', activeKeys: [k1.keyHash] }] });
    await screen.findByRole('tab', { name: 'Saved one' });
    const ue = user();
    await ue.click(screen.getByRole('tab', { name: 'Saved one' }));
    await waitFor(() =>
      expect((statsCalls().at(-1)?.body as { apiKeys: string[] } | undefined)?.apiKeys).toEqual([k1.keyHash]),
    );
    for (let i = 0; i < 6; i += 1) await ue.click(screen.getByRole('button', { name: 'Add list' }));
    // Each new list has a name of its own (spec §7: "New list").
    expect(screen.getAllByRole('tab', { name: /^New list( \d)?$/ }).map((b) => b.textContent)).toEqual([
      'New list',
      'New list 2',
      'New list 3',
      'New list 4',
      'New list 5',
      'New list 6',
    ]);
    expect(screen.getByRole('button', { name: 'Add list' })).toBeDisabled();
  });

  it('falls back to labelled sample data on an error or an empty response', async () => {
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: { status: 500, body: { message: 'boom' } } } });
    expect(await screen.findByText(MSG_STATS.loadError)).toBeInTheDocument();
    expect(screen.getByText('Sample data')).toBeInTheDocument();
    expect(screen.getByTestId('stats-chart')).toHaveAttribute('data-sample', 'true');
    const series = charts.options.at(-1)?.series as Array<{ data: unknown[] }>;
    expect(series[0]?.data).toHaveLength(990);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('treats an empty response as an error', async () => {
    await open({
      routes: {
        [on(ENDPOINTS.statistics.day)]: (r) => statsReply(r, 0),
      },
    });
    expect(await screen.findByText(MSG_STATS.loadError)).toBeInTheDocument();
    expect(screen.getByText('Sample data')).toBeInTheDocument();
  });

  it('sends no request without a key', async () => {
    await open({ domains: [buildDomain({ keys: [kOff] })] });
    expect(await screen.findByText(MSG_STATS.noKey)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 100));
    expect(statsCalls()).toHaveLength(0);
  });

  it('shows NODR for version-1 teams', async () => {
    await open({ version: 1 });
    await screen.findByLabelText('P2P share');
    expect((charts.options.at(-1)?.series as unknown[] | undefined)?.length).toBe(7);
  });

  it('polls every 3 seconds in Live only', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldAdvanceTime: true });
    await open({ range: 0 });
    await screen.findByLabelText('P2P share');
    const live = () => statsCalls().filter((r) => r.url === PATHS.statistics.live(5)).length;
    expect(live()).toBe(1);
    await act(async () => vi.advanceTimersByTime(3000));
    await waitFor(() => expect(live()).toBe(2));
    await act(async () => vi.advanceTimersByTime(3000));
    await waitFor(() => expect(live()).toBe(3));
    await user().click(screen.getByLabelText('Day'));
    await waitFor(() => expect(statsCalls().at(-1)?.url).toBe(PATHS.statistics.day));
    const total = statsCalls().length;
    await act(async () => vi.advanceTimersByTime(9000));
    await new Promise((r) => setTimeout(r, 50));
    expect(statsCalls().length).toBe(total);
  });

  it('keeps the zoom (and an open tooltip: merged, not replaced) while live points arrive; resets for another range', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldAdvanceTime: true });
    let n = 5;
    await open({ range: 0, routes: { [on(ENDPOINTS.statistics.live, 5)]: (r) => statsReply(r, n++) } });
    await screen.findByLabelText('P2P share');
    const zoomOf = () =>
      (charts.options.at(-1)?.dataZoom as Array<{ start: number; end: number }> | undefined)?.[0];
    expect(zoomOf()).toMatchObject({ start: 0, end: 100 });
    act(() => charts.zoom(20, 60));
    const shown = charts.options.length;
    await act(async () => vi.advanceTimersByTime(3000));
    await waitFor(() => expect(charts.options.length).toBeGreaterThan(shown));
    expect(zoomOf()).toMatchObject({ start: 20, end: 60 });
    expect(charts.replaced.at(-1)).toBe(false);
    await user().click(screen.getByLabelText('Day'));
    await waitFor(() => expect(statsCalls().at(-1)?.url).toBe(PATHS.statistics.day));
    await waitFor(() => expect(zoomOf()).toMatchObject({ start: 0, end: 100 }));
    expect(charts.replaced.at(-1)).toBe(true);
  });

  it("exports the points on screen as CSV: the chart's values, in the team's time zone (UTC+2)", async () => {
    // The export asks for every series of the visible window: its answer holds only that window.
    const exports: Array<{ startTimestamp: number; endTimestamp: number; points?: string }> = [];
    const varied = (r: Recorded) => {
      const reply = statsReply(r, 9);
      const asked = r.body as (typeof exports)[number];
      const exported = asked.points === undefined;
      if (exported) exports.push(asked);
      reply.body.data = reply.body.data
        .map((p, i) => ({
          ...p,
          cdnDwSize: 1000 * (i + 1),
          p2pDwSize: 300 * i,
          usersCount: i + 2,
          verifyDwSize: 10 * i,
        }))
        .filter(
          (p) => !exported || (p.datePoint >= asked.startTimestamp && p.datePoint <= asked.endTimestamp),
        );
      return reply;
    };
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: varied } });
    await screen.findByLabelText('P2P share');
    expect(screen.getByTestId('stats-updated')).toHaveTextContent(/^Last updated \d\d:\d\d:\d\d$/);
    let blob: Blob | null = null;
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blob = b as Blob;
      return 'blob:csv';
    });
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    // The right half of the chart: points 4..8.
    act(() => charts.zoom(50, 100));
    await user().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect(exports.map((e) => [e.startTimestamp, e.endTimestamp])).toEqual([
      [1_700_000_000 + 240, 1_700_000_000 + 480],
    ]);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob as unknown as Blob);
    });
    const [head, ...rows] = text.trimEnd().split('\r\n');
    // The API's field names, the same columns as the breakdown CSV after its name.
    expect(head).toBe(
      ['time', 'timestamp', ...POINT_FIELDS.filter((f) => !f.version1Only).map((f) => f.field)].join(','),
    );
    const columns = (head as string).split(',');
    const picked = ['time', 'timestamp', 'cdnDwSize', 'p2pDwSize', 'usersCount', 'verifyDwSize'].map((c) =>
      columns.indexOf(c),
    );
    const cells = rows.map((r) => {
      const all = r.split(',');
      return picked.map((i) => all[i]).join(',');
    });
    const series = charts.options.at(-1)?.series as Array<{ name: string; type: string; data: number[][] }>;
    const line = (name: string, type: string) =>
      series.find((x) => x.name === name && x.type === type)?.data ?? [];
    const chartRows = line('CDN', 'line')
      .slice(4)
      .map(([axisMs, cdnBits], i) => {
        const unix = (axisMs as number) / 1000 - 2 * 3600;
        const local = new Date(axisMs as number).toISOString().slice(0, 19);
        const p2pBits = line('P2P', 'line')[i + 4]?.[1] as number;
        const viewers = line('Viewers', 'line')[i + 4]?.[1];
        // Not drawn: the answer's points carry it.
        const verified = 10 * (i + 4);
        return `${local}+02:00,${unix},${Math.round(((cdnBits as number) * 60) / 8)},${Math.round((p2pBits * 60) / 8)},${viewers},${verified}`;
      });
    expect(cells).toEqual(chartRows);
    expect(cells[0]).toBe(`2023-11-15T00:17:20+02:00,${1_700_000_000 + 240},5000,1200,6,40`);
    create.mockRestore();
    revoke.mockRestore();
    click.mockRestore();
  });

  it('replaces the option when a live refresh adds or drops the refused series (a merge would keep it)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldAdvanceTime: true });
    let refused = 0;
    // One more point each time: every refresh is new data.
    let n = 5;
    await open({
      range: 0,
      routes: { [on(ENDPOINTS.statistics.live, 5)]: (r) => statsReply(r, n++, () => refused) },
    });
    await screen.findByLabelText('P2P share');
    const names = () => ((charts.options.at(-1)?.series ?? []) as Array<{ name: string }>).map((s) => s.name);
    const refresh = async (bytes: number, shown: boolean) => {
      refused = bytes;
      const before = charts.options.length;
      await act(async () => vi.advanceTimersByTime(3000));
      await waitFor(() => expect(charts.options.length).toBeGreaterThan(before));
      expect(names().includes(MSG_STATS.refusedSeries)).toBe(shown);
    };
    await refresh(0, false);
    expect(charts.replaced.at(-1)).toBe(false);
    await refresh(600, true);
    expect(charts.replaced.at(-1)).toBe(true);
    expect(screen.getByTestId('figure-refused-peer-bytes')).toBeInTheDocument();
    await refresh(600, true);
    expect(charts.replaced.at(-1)).toBe(false);
    await refresh(0, false);
    expect(charts.replaced.at(-1)).toBe(true);
    expect(screen.queryByTestId('figure-refused-peer-bytes')).toBeNull();
  });

  it('without a verified domain shows the notice for the role', async () => {
    await open({ domains: [] });
    expect(await screen.findByText("You haven't added any domain yet")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to add domains' })).toHaveAttribute('href', '/addDomains');
    expect(statsCalls()).toHaveLength(0);
  });

  it('tells a viewer (40) the team has no domain', async () => {
    await open({ domains: [], role: 40 });
    expect(await screen.findByText("Your team haven't added any domain yet")).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to add domains' })).toBeNull();
  });
});

describe('viewer experience panel', () => {
  // The five points chart 15 kB from the CDN and 5 kB from peers; the window's totals say more.
  const played: Totals = {
    ...totalsOf(points(5)),
    cdnDwSize: 5250,
    p2pDwSize: 4750,
    p2pCeilingSize: 5000,
    playMs: 990_000,
    stallMs: 10_000,
    plays: 200,
    failures: 3,
    startupP50Ms: 850,
    startupP95Ms: 2400,
  };
  const figure = (name: string) => screen.getByRole('group', { name });
  const value = (name: string) => within(figure(name)).getByTestId('experience-value').textContent;

  it("shows the window's startup, rebuffering, failures, plays and P2P share against its ceiling from the totals", async () => {
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: (r) => statsReply(r, 5, undefined, played) } });
    const panel = await screen.findByRole('region', { name: EXPERIENCE_TEXT.title });
    await within(panel).findByRole('group', { name: 'Startup p50' });
    expect(value('Startup p50')).toBe('850 ms');
    expect(value('Startup p95')).toBe('2.4 s');
    // 10 s stalled of 1000 s played and stalled.
    expect(value('Rebuffering')).toBe('1.0%');
    expect(value('Failures per 100 plays')).toBe('1.5');
    expect(value('Plays')).toBe('200');
    const p2p = figure('P2P share and ceiling');
    expect(value('P2P share and ceiling')).toBe('47.5%');
    expect(within(p2p).getByTestId('experience-detail')).toHaveTextContent(/^of a possible 50\.0%$/);
    expect(p2p).toHaveAccessibleDescription(expect.stringContaining('P2P 47.5% of a possible 50.0%'));
    // The glossary of the contract is each figure's help, read with it and shown on hover.
    expect(figure('Startup p50')).toHaveAccessibleDescription(
      expect.stringContaining(SERIES.startup.description),
    );
    expect(figure('Rebuffering')).toHaveAccessibleDescription(
      expect.stringContaining(SERIES.stallMs.description),
    );
    await user().hover(within(figure('Plays')).getByRole('button', { name: 'About Plays' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      `${SERIES.plays.label}: ${SERIES.plays.description}`,
    );
    // The chart's own figures are those of its points, untouched by the totals.
    expect(screen.getByLabelText('P2P share')).toHaveTextContent('25.0%');
    expect(screen.getByTestId('figure-total-traffic')).toHaveTextContent('20 kB');
  });

  it('says so when no player reported playing in the range', async () => {
    await open();
    const panel = await screen.findByRole('region', { name: EXPERIENCE_TEXT.title });
    expect(await within(panel).findByText(EXPERIENCE_TEXT.empty)).toBeInTheDocument();
    expect(within(panel).queryAllByRole('group')).toHaveLength(0);
  });

  it('shows "—" for what cannot be computed: plays that all failed before playing', async () => {
    const failedOnly: Totals = {
      ...played,
      playMs: 0,
      stallMs: 0,
      plays: 4,
      failures: 4,
      startupP50Ms: 0,
      startupP95Ms: 0,
    };
    await open({
      routes: { [on(ENDPOINTS.statistics.day)]: (r) => statsReply(r, 5, undefined, failedOnly) },
    });
    await screen.findByRole('group', { name: 'Rebuffering' });
    expect(value('Rebuffering')).toBe('—');
    expect(value('Startup p50')).toBe('—');
    expect(value('Failures per 100 plays')).toBe('100.0');
    expect(value('Plays')).toBe('4');
  });

  it('never shows figures for sample data', async () => {
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: { status: 500, body: { message: 'boom' } } } });
    expect(await screen.findByText(MSG_STATS.loadError)).toBeInTheDocument();
    const panel = screen.getByRole('region', { name: EXPERIENCE_TEXT.title });
    expect(within(panel).getByText(EXPERIENCE_TEXT.sample)).toBeInTheDocument();
    expect(within(panel).queryAllByRole('group')).toHaveLength(0);
    expect(within(panel).queryByText(/%|ms\b/)).toBeNull();
  });

  it('explains an answer without totals instead of inventing them', async () => {
    await open({ routes: { [on(ENDPOINTS.statistics.day)]: (r) => statsReply(r, 5, undefined, null) } });
    const panel = await screen.findByRole('region', { name: EXPERIENCE_TEXT.title });
    expect(await within(panel).findByText(EXPERIENCE_TEXT.missing)).toBeInTheDocument();
    expect(within(panel).queryAllByRole('group')).toHaveLength(0);
  });

  it('is not shown without a key, and loads as a skeleton', async () => {
    await open({ domains: [buildDomain({ keys: [kOff] })] });
    expect(await screen.findByText(MSG_STATS.noKey)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: EXPERIENCE_TEXT.title })).toBeNull();
    renderScreen(<ExperiencePanel state={{ kind: 'loading' }} />);
    expect(screen.getByLabelText(EXPERIENCE_TEXT.loading)).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryAllByRole('group')).toHaveLength(0);
  });
});

describe('breakdown table', () => {
  const row = (name: string, cdn: number, p2p: number, over: Partial<TBreakdownRow> = {}): TBreakdownRow => ({
    ...NO_PLAYS,
    name,
    cdnDwSize: cdn,
    p2pDwSize: p2p,
    cdnUsersCount: 1,
    p2pUsersCount: 1,
    usersCount: 1,
    ...over,
  });
  // Answered out of traffic order, so the table's own order shows.
  const streams = [
    row('Unknown', 500, 0, { usersCount: 12 }),
    row('cdn.example.com/live/a.m3u8', 1000, 3000, {
      usersCount: 7,
      startupP50Ms: 850,
      playMs: 90_000,
      stallMs: 10_000,
    }),
    row('cdn.example.com/vod/b.m3u8', 9000, 1000, { usersCount: 3 }),
  ];
  const countries = [row('US', 5000, 5000), row('Other', 100, 0), row('DE', 3000, 0), row('Unknown', 50, 0)];
  const rowsBy: Record<string, TBreakdownRow[]> = { stream: streams, country: countries };
  const byRoute = (r: Recorded) => breakdownReply(r, rowsBy[(r.body as { by: string }).by] ?? []);

  const table = (name: string) => screen.findByRole('table', { name });
  const names = (t: HTMLElement) =>
    within(t)
      .getAllByTestId('breakdown-row')
      .map((tr) => within(tr).getAllByRole('cell')[0]?.textContent);
  const cells = (t: HTMLElement, i: number) =>
    Array.from(
      within(t).getAllByTestId('breakdown-row')[i]?.querySelectorAll('td') ?? [],
      (td) => td.textContent,
    );
  const COLUMNS = MSG_STATS.breakdownColumns;
  const header = (t: HTMLElement, name: string) =>
    within(t).getByRole('button', { name }).closest('th') as HTMLElement;

  it("asks for the chart's range and keys by stream, shows the rows largest traffic first and sorts by a clicked column", async () => {
    await open({ routes: { [on(ENDPOINTS.statistics.breakdown)]: byRoute } });
    const t = await table('Traffic by stream');
    const [call] = breakdownCalls();
    expect(call?.url).toBe(BREAKDOWN_PATH);
    const body = call?.body as Record<string, unknown>;
    expect(body).toMatchObject({ apiKeys: [k1.keyHash, k2.keyHash], range: 'day', by: 'stream', team_id: 5 });
    expect(body.clientId).toBe(1);
    expect(Number(body.endTimestamp) - Number(body.startTimestamp)).toBe(86_400);
    expect(Math.abs(Number(body.endTimestamp) - Date.now() / 1000)).toBeLessThan(30);

    expect(names(t)).toEqual(['cdn.example.com/vod/b.m3u8', 'cdn.example.com/live/a.m3u8', 'Unknown']);
    // Startup and rebuffering cannot be computed without plays: "—".
    expect(cells(t, 0)).toEqual(['cdn.example.com/vod/b.m3u8', '9 kB', '1 kB', '10.0%', '3', '—', '—']);
    expect(cells(t, 1)).toEqual([
      'cdn.example.com/live/a.m3u8',
      '1 kB',
      '3 kB',
      '75.0%',
      '7',
      '850 ms',
      '10.0%',
    ]);
    expect(cells(t, 2)).toEqual(['Unknown', '500 B', '0 B', '0%', '12', '—', '—']);
    expect(
      within(t)
        .queryAllByRole('columnheader')
        .filter((h) => h.hasAttribute('aria-sort')),
    ).toHaveLength(0);
    expect(
      screen.getByText(/^Largest traffic first\. Rows are whole hours: .+ UTC\+2\.$/),
    ).toBeInTheDocument();

    const ue = user();
    await ue.click(within(t).getByRole('button', { name: COLUMNS.viewers.label }));
    expect(header(t, COLUMNS.viewers.label)).toHaveAttribute('aria-sort', 'descending');
    expect(names(t)).toEqual(['Unknown', 'cdn.example.com/live/a.m3u8', 'cdn.example.com/vod/b.m3u8']);
    await ue.click(within(t).getByRole('button', { name: COLUMNS.viewers.label }));
    expect(header(t, COLUMNS.viewers.label)).toHaveAttribute('aria-sort', 'ascending');
    expect(names(t)).toEqual(['cdn.example.com/vod/b.m3u8', 'cdn.example.com/live/a.m3u8', 'Unknown']);
    // Another column: its largest first, what it cannot show ("—") last, whatever the direction.
    await ue.click(within(t).getByRole('button', { name: COLUMNS.startup.label }));
    expect(header(t, COLUMNS.viewers.label)).not.toHaveAttribute('aria-sort');
    expect(header(t, COLUMNS.startup.label)).toHaveAttribute('aria-sort', 'descending');
    expect(names(t)).toEqual(['cdn.example.com/live/a.m3u8', 'cdn.example.com/vod/b.m3u8', 'Unknown']);
    await ue.click(within(t).getByRole('button', { name: COLUMNS.startup.label }));
    expect(names(t)).toEqual(['cdn.example.com/live/a.m3u8', 'cdn.example.com/vod/b.m3u8', 'Unknown']);
    // Sorting is the screen's own: no new request.
    expect(breakdownCalls()).toHaveLength(1);
  });

  it("asks for the tab's `by` on a click or the arrow keys and names countries with their code", async () => {
    await open({ routes: { [on(ENDPOINTS.statistics.breakdown)]: byRoute } });
    await table('Traffic by stream');
    const ue = user();
    await ue.click(screen.getByRole('tab', { name: 'Countries' }));
    expect(screen.getByRole('tab', { name: 'Countries' })).toHaveAttribute('aria-selected', 'true');
    const t = await table('Traffic by country');
    expect(askedOf(breakdownCalls().at(-1)).by).toBe('country');
    expect(names(t)).toEqual(['United States (US)', 'Germany (DE)', 'Other', 'Unknown']);
    await ue.click(within(t).getByRole('button', { name: MSG_STATS.breakdownNames.country.label }));
    expect(header(t, MSG_STATS.breakdownNames.country.label)).toHaveAttribute('aria-sort', 'ascending');
    expect(names(t)).toEqual(['Germany (DE)', 'Other', 'United States (US)', 'Unknown']);

    // Back on the selected tab (no new request), the arrow keys move to the next one.
    await ue.click(screen.getByRole('tab', { name: 'Countries' }));
    await ue.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Networks' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Networks' })).toHaveFocus();
    await waitFor(() => expect(askedOf(breakdownCalls().at(-1)).by).toBe('network'));
    for (const tab of ['Browsers', 'Systems']) {
      await ue.click(screen.getByRole('tab', { name: tab }));
      await screen.findByText(BREAKDOWN_TEXT.empty);
    }
    expect(breakdownCalls().map((c) => askedOf(c).by)).toEqual([
      'stream',
      'country',
      'network',
      'browser',
      'os',
    ]);
  });

  it('by network, shows the share of P2P within each network in place of the CDN bytes, and sorts by it', async () => {
    const networks = [
      row('AS7922 Comcast Cable Communications, LLC', 1000, 4000, { p2pCrossDwSize: 400 }),
      row('AS21928 T-Mobile USA, Inc.', 3000, 1000, { p2pCrossDwSize: 250 }),
      row('Unknown', 500, 0),
    ];
    const withNetworks = (r: Recorded) =>
      breakdownReply(r, (r.body as { by: string }).by === 'network' ? networks : streams);
    await open({ routes: { [on(ENDPOINTS.statistics.breakdown)]: withNetworks } });
    const ue = user();
    await ue.click(await screen.findByRole('tab', { name: 'Networks' }));
    const t = await table('Traffic by network');
    const heads = within(t)
      .getAllByRole('columnheader')
      .map((h) => within(h).getByRole('button').textContent);
    expect(heads).toEqual([
      MSG_STATS.breakdownNames.network.label,
      COLUMNS.ownNetwork.label,
      COLUMNS.p2p.label,
      COLUMNS.share.label,
      COLUMNS.viewers.label,
      COLUMNS.startup.label,
      COLUMNS.rebuffering.label,
    ]);
    expect(within(t).getByRole('button', { name: COLUMNS.ownNetwork.label })).toHaveAccessibleDescription(
      COLUMNS.ownNetwork.description,
    );
    expect(cells(t, 0).slice(0, 4)).toEqual([
      'AS7922 Comcast Cable Communications, LLC',
      '90.0%',
      '4 kB',
      '80.0%',
    ]);
    expect(cells(t, 1).slice(0, 4)).toEqual(['AS21928 T-Mobile USA, Inc.', '75.0%', '1 kB', '25.0%']);
    // No P2P bytes: no share of them.
    expect(cells(t, 2).slice(0, 2)).toEqual(['Unknown', '—']);
    await ue.click(within(t).getByRole('button', { name: COLUMNS.ownNetwork.label }));
    expect(header(t, COLUMNS.ownNetwork.label)).toHaveAttribute('aria-sort', 'descending');
    await ue.click(within(t).getByRole('button', { name: COLUMNS.ownNetwork.label }));
    expect(names(t)).toEqual([
      'AS21928 T-Mobile USA, Inc.',
      'AS7922 Comcast Cable Communications, LLC',
      'Unknown',
    ]);
    // The other tabs keep the CDN bytes.
    await ue.click(screen.getByRole('tab', { name: 'Streams' }));
    const streamTable = await table('Traffic by stream');
    expect(within(streamTable).queryByRole('button', { name: COLUMNS.ownNetwork.label })).toBeNull();
    expect(within(streamTable).getByRole('button', { name: COLUMNS.cdn.label })).toBeInTheDocument();
    // Sorted by a column it lacks: by traffic, as before any choice.
    expect(names(streamTable)).toEqual([
      'cdn.example.com/vod/b.m3u8',
      'cdn.example.com/live/a.m3u8',
      'Unknown',
    ]);
  });

  it('says so when the range has no traffic, with the whole UTC days it covers (week)', async () => {
    await open({ range: 2 });
    const panel = await screen.findByRole('region', { name: BREAKDOWN_TEXT.title });
    expect(await within(panel).findByText(BREAKDOWN_TEXT.empty)).toBeInTheDocument();
    expect(within(panel).getByText(/^Rows are whole UTC days: .+ – .+ \(UTC\)\.$/)).toBeInTheDocument();
    expect(within(panel).queryByRole('table')).toBeNull();
    expect(within(panel).queryByRole('button', { name: BREAKDOWN_TEXT.download })).toBeNull();
    expect(askedOf(breakdownCalls()[0]).range).toBe('week');
  });

  it('shows its error without a popup, and loads again on request', async () => {
    let fail = true;
    await open({
      routes: {
        [on(ENDPOINTS.statistics.breakdown)]: (r) =>
          fail ? { status: 500, body: { message: 'boom' } } : breakdownReply(r, streams),
      },
    });
    const panel = await screen.findByRole('region', { name: BREAKDOWN_TEXT.title });
    expect(await within(panel).findByText(MSG_STATS.loadError)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    // The chart is unaffected.
    expect(screen.queryByText('Sample data')).toBeNull();
    fail = false;
    await user().click(within(panel).getByRole('button', { name: BREAKDOWN_TEXT.retry }));
    expect(await within(panel).findAllByTestId('breakdown-row')).toHaveLength(3);
  });

  it('is not shown without a key, nor beside sample data', async () => {
    await open({ domains: [buildDomain({ keys: [kOff] })] });
    expect(await screen.findByText(MSG_STATS.noKey)).toBeInTheDocument();
    expect(screen.queryByTestId('breakdown-panel')).toBeNull();
    expect(breakdownCalls()).toHaveLength(0);

    await api?.close();
    await open({
      routes: {
        [on(ENDPOINTS.statistics.day)]: { status: 500, body: { message: 'boom' } },
        [on(ENDPOINTS.statistics.breakdown)]: byRoute,
      },
    });
    expect(await screen.findByText(MSG_STATS.loadError)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId('breakdown-panel')).toBeNull();
    expect(screen.queryByText('cdn.example.com/vod/b.m3u8')).toBeNull();
  });

  it("downloads the tab's CSV: the same call with ?format=csv", async () => {
    const csv = 'name,cdnDwSize\r\nUS,5000\r\n';
    await open({
      routes: {
        [on(ENDPOINTS.statistics.breakdown)]: (r) =>
          r.url.endsWith('?format=csv') ? { status: 200, body: csv } : byRoute(r),
      },
    });
    await table('Traffic by stream');
    const ue = user();
    await ue.click(screen.getByRole('tab', { name: 'Countries' }));
    await table('Traffic by country');
    const files: string[] = [];
    const create = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:csv');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      files.push(this.download);
    });
    await ue.click(screen.getByRole('button', { name: BREAKDOWN_TEXT.download }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    const [shown, asked] = breakdownCalls().slice(-2);
    expect(asked?.url).toBe(`${BREAKDOWN_PATH}?format=csv`);
    expect(asked?.authorization).toBe('Bearer tok');
    expect(asked?.body).toEqual(shown?.body);
    expect(files[0]).toMatch(/^breakdown-country-day-\d{4}-\d\d-\d\d\.csv$/);
    create.mockRestore();
    revoke.mockRestore();
    click.mockRestore();
  });

  it('refreshes in Live far less often than the chart', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldAdvanceTime: true });
    await open({ range: 0 });
    await screen.findByLabelText('P2P share');
    await waitFor(() => expect(breakdownCalls()).toHaveLength(1));
    expect(askedOf(breakdownCalls()[0]).range).toBe('live');
    for (let i = 0; i < 3; i += 1) await act(async () => vi.advanceTimersByTime(3000));
    await waitFor(() => expect(statsCalls().length).toBeGreaterThanOrEqual(4));
    expect(breakdownCalls()).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(21_000));
    await waitFor(() => expect(breakdownCalls()).toHaveLength(2));
  });
});

describe('custom dates and the previous period (issue 39)', () => {
  const DAY = 86_400;
  /** The team's offset in the tests (UTC+2): its calendar day `days` ago. */
  const dayAgo = (days: number) =>
    new Date(Date.now() + 2 * 3_600_000 - days * DAY * 1000).toISOString().slice(0, 10);
  /** Five points from the asked start: 25 % P2P in the current period, 1 in 7 in the one before. */
  const windowReply = (currentStart: () => number) => (req: Recorded) => {
    const b = req.body as { startTimestamp: number; endTimestamp: number };
    const before = b.startTimestamp < currentStart();
    const from = b.startTimestamp - (b.startTimestamp % 1200);
    const data = Array.from({ length: 5 }, (_, i) => ({
      ...NO_PLAYS,
      datePoint: from + i * 1200,
      cdnDwSize: 3000,
      cdnUsersCount: 3,
      p2pDwSize: before ? 500 : 1000,
      p2pUsersCount: 2,
      usersCount: 4,
    }));
    return {
      status: 200,
      body: {
        message: 'ok',
        data,
        step: 1200,
        startTimestamp: from,
        endTimestamp: b.endTimestamp,
        totals: totalsOf(data),
      },
    };
  };
  const bodyOf = (r: Recorded | undefined) => r?.body as { startTimestamp: number; endTimestamp: number };

  it('reads the custom days of the link by the finest range keeping them, with the previous period and deltas', async () => {
    const day = dayAgo(4);
    const start = Date.parse(`${day}T00:00:00Z`) / 1000 - 2 * 3600;
    await open({
      path: `/statistics?range=day&list=0&from=${day}&to=${day}&compare=1`,
      routes: { [on(ENDPOINTS.statistics.week)]: windowReply(() => start) },
    });
    await screen.findByLabelText('P2P share');
    await waitFor(() => expect(statsCalls()).toHaveLength(2));
    // Four days back the minutes are gone: 20-minute points; the day and the day before it.
    expect(statsCalls().map((r) => r.url)).toEqual([PATHS.statistics.week, PATHS.statistics.week]);
    const windows = statsCalls().map((r) => [bodyOf(r).startTimestamp, bodyOf(r).endTimestamp]);
    expect(windows).toContainEqual([start, start + DAY - 1]);
    expect(windows).toContainEqual([start - DAY, start - 1]);
    // 25 % against 1 in 7 (14.3 %); 20 kB against 17.5 kB; 4 viewers at peak both times.
    await waitFor(() =>
      expect(screen.getByTestId('delta-p2p-share')).toHaveTextContent('+10.7 pts vs previous'),
    );
    expect(screen.getByTestId('delta-p2p-share')).toHaveTextContent(
      'P2P share: up 10.7 percentage points on the previous period',
    );
    expect(screen.getByTestId('delta-total-traffic')).toHaveTextContent('+14% vs previous');
    expect(screen.getByTestId('delta-peak-viewers')).toHaveTextContent('±0% vs previous');
    // No P2P bytes crossed networks in either period.
    expect(screen.getByTestId('delta-p2p-within-viewers-own-networks')).toHaveTextContent(
      '±0 pts vs previous',
    );
    expect(screen.getByRole('switch', { name: MSG_STATS.compare })).toBeChecked();
    // Drawn faintly at the current points' places.
    const series = charts.options.at(-1)?.series as Array<{ name: string; data: unknown[][] }>;
    const faint = series.filter((x) => x.name === MSG_STATS.previousPeriod);
    expect(faint).toHaveLength(2);
    expect(faint[0]?.data[0]?.[1]).toBeCloseTo((3500 * 8) / 1200);
    // No range of the switch is the custom days'; the breakdown reads them too.
    expect(screen.getByLabelText('Day')).not.toBeChecked();
    await waitFor(() => expect(breakdownCalls().length).toBeGreaterThan(0));
    expect(bodyOf(breakdownCalls().at(-1))).toMatchObject({
      startTimestamp: start,
      endTimestamp: start + DAY - 1,
    });
    expect((breakdownCalls().at(-1)?.body as { range?: string } | undefined)?.range).toBe('week');

    // A range chosen: the rolling one again, compared still.
    const before = statsCalls().length;
    await user().click(screen.getByLabelText('Day'));
    await waitFor(() => expect(statsCalls().length).toBe(before + 2));
    const rolling = statsCalls()
      .slice(before)
      .map((r) => bodyOf(r).endTimestamp - bodyOf(r).startTimestamp);
    expect(rolling).toEqual([DAY, DAY]);
  });

  it('shows the rolling range for dates it cannot serve, and no comparison in Live', async () => {
    await open({ path: '/statistics?range=live&list=0&from=2026-02-30&to=soon&compare=1' });
    await screen.findByLabelText('P2P share');
    expect(statsCalls().map((r) => r.url)).toEqual([PATHS.statistics.live(5)]);
    expect(screen.getByRole('switch', { name: MSG_STATS.compare })).toBeDisabled();
    expect(screen.queryByTestId('delta-p2p-share')).toBeNull();
  });
});
