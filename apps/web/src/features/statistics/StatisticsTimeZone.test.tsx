import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, emptySeries, TIME_ZONES, type TStatsPoint } from '@tlprt/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import StatisticsRoute from '../../routes/statistics';
import { buildDomain, buildKey, buildTeam, buildUser, domainList } from '../../test/fixtures';
import type { Recorded } from '../../test/server';
import { on, renderSignedIn, startApi } from '../../test/session';

// Only the canvas renderer is replaced: the option the page hands to ECharts is recorded.
const charts = vi.hoisted(() => ({ options: [] as Array<Record<string, unknown>> }));
vi.mock('./echarts', () => ({
  createChart: () => ({
    setOption: (o: Record<string, unknown>) => charts.options.push(o),
    onZoom: () => {},
    resize: () => {},
    dispose: () => {},
  }),
}));

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  cleanup();
  charts.options.length = 0;
  await api?.close();
  api = null;
});

const FIRST = 1_700_000_000; // 2023-11-14T22:13:20Z
const points = (): TStatsPoint[] =>
  Array.from({ length: 5 }, (_, i) => ({
    ...emptySeries(),
    datePoint: FIRST + i * 60,
    cdnDwSize: 3000,
    cdnUsersCount: 3,
    p2pDwSize: 1000,
    p2pUsersCount: 2,
    usersCount: 4,
  }));
const statsReply = (req: Recorded) => {
  const b = req.body as { startTimestamp: number; endTimestamp: number };
  return {
    status: 200,
    body: {
      message: 'ok',
      data: points(),
      step: 60,
      startTimestamp: b.startTimestamp,
      endTimestamp: b.endTimestamp,
    },
  };
};
const kolkata = TIME_ZONES.find((z) => z.name === 'Asia/Kolkata')?.id ?? 0;

async function open(timezoneId: number | null) {
  const team = buildTeam({ utcOffset: 2 });
  const key = buildKey({ id: 1, name: 'Main player' });
  api = await startApi({
    user: buildUser({ TeamsRender: [team], timezoneId }),
    routes: {
      [on(ENDPOINTS.domains.list, 5)]: () => ({
        status: 200,
        body: domainList([buildDomain({ id: 11, name: 'video.example.com', keys: [key] })], [], [], []),
      }),
      [on(ENDPOINTS.statistics.readLists, 1, 5)]: {
        status: 200,
        body: { message: 'ok', data: { tabs: [] } },
      },
      [on(ENDPOINTS.statistics.saveLists, 1, 5)]: (r) => ({
        status: 200,
        body: { message: 'ok', data: JSON.parse((r.body as { save_json: string }).save_json) as unknown },
      }),
      [on(ENDPOINTS.statistics.day)]: statsReply,
      [on(ENDPOINTS.statistics.week)]: statsReply,
      [on(ENDPOINTS.statistics.month)]: statsReply,
      [on(ENDPOINTS.statistics.live, 5)]: statsReply,
      [on(ENDPOINTS.statistics.breakdown)]: (r) => {
        const b = r.body as { startTimestamp: number; endTimestamp: number; by: string };
        const body = { message: 'ok', data: [], step: 3600, ...b };
        return { status: 200, body };
      },
    },
  });
  renderSignedIn(<StatisticsRoute />, '/statistics');
  await screen.findByLabelText('P2P share', undefined, { timeout: 8000 });
}

/** The first data line's time of the screen's CSV export. */
async function exportedFirstTime(): Promise<string> {
  let blob: Blob | null = null;
  const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    blob = b as Blob;
    return 'blob:csv';
  });
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
  await waitFor(() => expect(blob).not.toBeNull());
  const text = await (blob as unknown as Blob).text();
  create.mockRestore();
  revoke.mockRestore();
  click.mockRestore();
  return text.split('\r\n')[1]?.split(',')[0] ?? '';
}

describe("statistics in the person's own time zone", () => {
  it('label, chart axis and CSV follow the person’s zone over the team’s', async () => {
    await open(kolkata);
    expect(screen.getAllByText(/UTC\+5:30/).length).toBeGreaterThan(0);
    expect(screen.queryAllByText(/UTC\+2\b/)).toEqual([]);
    // The chart draws each point at its time in that zone (axis milliseconds shifted by +5:30).
    const series = charts.options.at(-1)?.series as Array<{ data: number[][] }>;
    expect(series[0]?.data[0]?.[0]).toBe((FIRST + 5.5 * 3600) * 1000);
    expect(await exportedFirstTime()).toBe('2023-11-15T03:43:20+05:30');
  });

  it("without a zone of their own, the team's (UTC+2)", async () => {
    await open(null);
    expect(screen.getAllByText(/UTC\+2\b/).length).toBeGreaterThan(0);
    expect(screen.queryAllByText(/UTC\+5:30/)).toEqual([]);
    expect(await exportedFirstTime()).toBe('2023-11-15T00:13:20+02:00');
  });
});
