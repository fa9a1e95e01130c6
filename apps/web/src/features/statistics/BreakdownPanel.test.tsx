import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, emptySeries, MSG_STATS, PATHS, type TBreakdownRow } from '@tlprt/contract';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import type { Recorded } from '../../test/server';
import { on, renderSignedIn, startApi } from '../../test/session';
import { BreakdownPanel } from './BreakdownPanel';
import { ExperiencePanel } from './ExperiencePanel';
import { EXPERIENCE_TEXT } from './experience';
import { BreakdownFilterChip } from './FilterChip';
import { filterLabel, useBreakdownFilter } from './filter';
import { useFilteredStats } from './filtered';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  cleanup();
  await api?.close();
  api = null;
});

const KEY = 'a'.repeat(32);
const LONG = 'media.example.com/events/2026/conference-keynote-day-two/master.m3u8';
const row = (name: string, cdn: number, p2p: number, over: Partial<TBreakdownRow> = {}): TBreakdownRow => ({
  ...emptySeries(),
  name,
  cdnDwSize: cdn,
  p2pDwSize: p2p,
  usersCount: 2,
  ...over,
});
const ROWS: Record<string, TBreakdownRow[]> = {
  stream: [row(LONG, 9000, 1000), row('cdn.example.com/live/a.m3u8', 1000, 3000)],
  country: [row('US', 5000, 5000), row('DE', 3000, 0)],
};

const breakdownReply = (req: Recorded) => {
  const b = req.body as { startTimestamp: number; endTimestamp: number; by: string };
  return {
    status: 200,
    body: {
      message: 'ok',
      by: b.by,
      data: ROWS[b.by] ?? [],
      step: 3600,
      startTimestamp: b.startTimestamp - (b.startTimestamp % 3600),
      endTimestamp: b.endTimestamp - (b.endTimestamp % 3600) + 3599,
    },
  };
};
/** The row's points: two hours of its traffic. */
const seriesReply = (req: Recorded) => {
  const b = req.body as { endTimestamp: number };
  const hour = b.endTimestamp - (b.endTimestamp % 3600);
  const point = (datePoint: number) => ({ ...emptySeries(), datePoint, cdnDwSize: 500, usersCount: 1 });
  return {
    status: 200,
    body: {
      message: 'ok',
      data: [point(hour - 3600), point(hour)],
      step: 3600,
      startTimestamp: hour - 3600,
      endTimestamp: hour,
      totals: { ...emptySeries(), cdnDwSize: 1000, usersCount: 1 },
    },
  };
};

/** The panel with the drill-down as the statistics screen wires it. */
function Harness() {
  const { search } = useLocation();
  const drill = useBreakdownFilter();
  const filtered = useFilteredStats('day', [KEY], 5, 1, drill.filter);
  const result = filtered.data;
  return (
    <>
      <output data-testid="search">{search}</output>
      {drill.filter && (
        <BreakdownFilterChip
          filter={drill.filter}
          onRemove={drill.clear}
          step={result && !result.failed ? result.step : undefined}
        />
      )}
      <output data-testid="points">
        {drill.filter && result && !result.failed ? result.points.map((p) => p.cdnDwSize).join(',') : ''}
      </output>
      <BreakdownPanel
        range="day"
        keys={[KEY]}
        teamId={5}
        userId={1}
        utcOffset={0}
        filter={drill.filter}
        onFilter={drill.set}
      />
    </>
  );
}

async function open(path = '/statistics') {
  api = await startApi({
    routes: {
      [on(ENDPOINTS.statistics.breakdown)]: breakdownReply,
      [on(ENDPOINTS.statistics.breakdownSeries)]: seriesReply,
    },
  });
  renderSignedIn(<Harness />, path);
}
const seriesCalls = () => (api?.requests ?? []).filter((r) => r.url === PATHS.statistics.breakdownSeries);
const search = () => new URLSearchParams(screen.getByTestId('search').textContent ?? '');
const nameButton = (name: string) => screen.getByRole('button', { name });

describe('breakdown panel', () => {
  it('says what each column counts: the header, and its description from the contract', async () => {
    await open();
    const table = await screen.findByRole('table', { name: 'Traffic by stream' });
    const headers = within(table).getAllByRole('columnheader');
    // Their names (the descriptions are hidden text, read as the buttons' descriptions).
    expect(headers.map((h) => within(h).getByRole('button').textContent)).toEqual([
      'Stream',
      'CDN bytes',
      'P2P bytes',
      'P2P share of bytes',
      'Peak viewers',
      'Median startup',
      'Rebuffering',
    ]);
    const C = MSG_STATS.breakdownColumns;
    expect(within(table).getByRole('button', { name: 'Peak viewers' })).toHaveAccessibleDescription(
      C.viewers.description,
    );
    expect(within(table).getByRole('button', { name: 'P2P share of bytes' })).toHaveAccessibleDescription(
      C.share.description,
    );
    expect(within(table).getByRole('button', { name: 'Stream' })).toHaveAccessibleDescription(
      MSG_STATS.breakdownNames.stream.description,
    );
    // A long stream name: whole in its title and its text, the end of its path kept apart from the cut.
    const long = within(table).getByRole('button', { name: LONG });
    expect(long.closest('td')).toHaveAttribute('title', LONG);
    expect(long.lastElementChild?.textContent).toBe('/master.m3u8');
    expect(long).toHaveAttribute('aria-pressed', 'false');

    await userEvent.setup().click(screen.getByRole('tab', { name: 'Countries' }));
    const countries = await screen.findByRole('table', { name: 'Traffic by country' });
    expect(within(countries).getByRole('columnheader', { name: 'Country' })).toBeInTheDocument();
  });

  it('filters by a clicked row (URL, chip, points), and the chip, Escape or a second click remove it', async () => {
    await open('/statistics?range=day');
    const ue = userEvent.setup();
    await screen.findByRole('table', { name: 'Traffic by stream' });
    const rows = screen.getAllByTestId('breakdown-row');
    // A click anywhere on the row.
    await ue.click(within(rows[1] as HTMLElement).getAllByRole('cell')[3] as HTMLElement);
    expect(search().get('by')).toBe('stream');
    expect(search().get('value')).toBe('cdn.example.com/live/a.m3u8');
    expect(search().get('range')).toBe('day');
    expect(nameButton('cdn.example.com/live/a.m3u8')).toHaveAttribute('aria-pressed', 'true');
    expect(rows[1]).toHaveAttribute('data-selected', 'true');
    const chip = await screen.findByTestId('breakdown-filter');
    expect(chip).toHaveTextContent('Stream: cdn.example.com/live/a.m3u8');
    expect(await screen.findByText(MSG_STATS.filterPerHour)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('points')).toHaveTextContent('500,500'));
    expect(seriesCalls()[0]?.body).toMatchObject({
      apiKeys: [KEY],
      team_id: 5,
      range: 'day',
      by: 'stream',
      value: 'cdn.example.com/live/a.m3u8',
    });

    // The chip's ×.
    await ue.click(
      within(chip).getByRole('button', {
        name: MSG_STATS.filterRemove('Stream', 'cdn.example.com/live/a.m3u8'),
      }),
    );
    expect(search().get('by')).toBeNull();
    expect(search().get('value')).toBeNull();
    expect(screen.queryByTestId('breakdown-filter')).toBeNull();
    expect(nameButton('cdn.example.com/live/a.m3u8')).toHaveAttribute('aria-pressed', 'false');

    // The keyboard: Enter on a row's name, then Escape.
    nameButton(LONG).focus();
    await ue.keyboard('{Enter}');
    expect(search().get('value')).toBe(LONG);
    expect(nameButton(LONG)).toHaveAttribute('aria-pressed', 'true');
    await ue.keyboard('{Escape}');
    expect(search().get('value')).toBeNull();

    // Space sets it; a second press on the selected row removes it.
    await ue.keyboard(' ');
    expect(search().get('value')).toBe(LONG);
    await ue.keyboard(' ');
    expect(search().get('value')).toBeNull();
  });

  it("opens on the URL's filter (a shared link, a reload): its tab, its row marked, its points asked", async () => {
    await open('/statistics?range=day&by=country&value=DE');
    const table = await screen.findByRole('table', { name: 'Traffic by country' });
    expect(screen.getByRole('tab', { name: 'Countries' })).toHaveAttribute('aria-selected', 'true');
    expect(within(table).getByRole('button', { name: 'Germany (DE)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByTestId('breakdown-filter')).toHaveTextContent('Country: Germany (DE)');
    await waitFor(() => expect(seriesCalls()[0]?.body).toMatchObject({ by: 'country', value: 'DE' }));
  });

  it('ignores a URL filter that is not one (unknown dimension, empty value)', async () => {
    await open('/statistics?by=planet&value=Mars');
    await screen.findByRole('table', { name: 'Traffic by stream' });
    expect(screen.queryByTestId('breakdown-filter')).toBeNull();
    expect(seriesCalls()).toHaveLength(0);
  });
});

describe('viewer experience, filtered', () => {
  it('names the row its figures are of', () => {
    const label = filterLabel({ by: 'stream', value: 'cdn.example.com/live/a.m3u8' });
    renderScreen(<ExperiencePanel state={{ kind: 'loading' }} filterLabel={label} />);
    expect(screen.getByText(EXPERIENCE_TEXT.scopeFiltered(label))).toBeInTheDocument();
  });
});
