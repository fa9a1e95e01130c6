import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import { POINT_FIELDS, SERIES, SERIES_NAMES, type SeriesDef, type TStatsPoint } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { theme } from '../../app/theme';
import { formatBytes } from '../../platform/units';
import { ChartDataTable } from './ChartDataTable';
import type { ChartInput } from './chartOption';
import { chartSummary } from './chartSummary';
import { visibleCsv } from './exportCsv';

afterEach(() => cleanup());

/**
 * A counted series is declared once, in the series table: the chart's text alternative (its summary and
 * data table) and the screen's CSV read it from there. The sources of traffic are read here from the
 * table itself, not from the web's TRAFFIC: the byte series the audience counts a viewer by (users'
 * `when`). A source the table gains and the data table, the summary or the CSV leaves out fails here.
 */
const audience: readonly string[] = SERIES.users.when;
const sources = SERIES_NAMES.filter((name) => {
  const s: SeriesDef = SERIES[name];
  return (
    s.merge === 'sum' && s.unit === 'bytes' && typeof s.report === 'string' && audience.includes(s.report)
  );
});
const pointOf = (name: (typeof sources)[number]) => (SERIES[name] as { point: keyof TStatsPoint }).point;

// Every field of the answer a value of its own (1 kB, 2 kB…), so each column shows which field it read.
const point = {
  datePoint: 1_700_000_000,
  ...Object.fromEntries(POINT_FIELDS.map((f, i) => [f.field, 1000 * (i + 1)])),
} as TStatsPoint;
// A version-1 team: every source of the table is drawn, NODR too.
const input: ChartInput = { points: [point], step: 60, nodr: true, utcOffset: 0 };

describe('every source of traffic of the series table', () => {
  it('is found in the table (the check below reads something)', () => {
    expect(sources).toEqual(expect.arrayContaining(['cdnBytes', 'p2pBytes', 'nodrBytes']));
  });

  it('has a column of the chart data table, with its label and its bytes', () => {
    render(
      <MantineProvider theme={theme}>
        <ChartDataTable input={input} zoom={[0, 100]} />
      </MantineProvider>,
    );
    const table = screen.getByRole('table', { name: /Chart data/ });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((c) => c.textContent);
    expect(headers).toEqual(['Time', ...sources.map((n) => SERIES[n].label), SERIES.users.label]);
    const [, row] = within(table).getAllByRole('row');
    const cells = [...(row as HTMLElement).querySelectorAll('td')].map((c) => c.textContent);
    expect(cells).toEqual([
      ...sources.map((n) => formatBytes(point[pointOf(n)] as number)),
      (point.usersCount as number).toLocaleString('en-US'),
    ]);
  });

  it('is named in the chart summary with its bytes', () => {
    const text = chartSummary(input, [0, 100]);
    // "CDN delivered 1 kB, P2P 2 kB, NODR 3 kB": the first source says what the figures are.
    const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const n of sources) {
      const bytes = formatBytes(point[pointOf(n)] as number);
      expect(text).toMatch(new RegExp(`${literal(SERIES[n].label)}( delivered)? ${literal(bytes)}[,. (]`));
    }
  });

  it("is a column of the screen's CSV under the API's field name, as is every series of the table", () => {
    const [head, line] = visibleCsv(input, [0, 100]).split('\r\n');
    const columns = (head as string).split(',');
    const cells = (line as string).split(',');
    for (const n of sources) {
      const field = pointOf(n);
      expect(columns).toContain(field);
      expect(cells[columns.indexOf(field)]).toBe(String(point[field]));
    }
    // Every series of the table has its column(s): a histogram one per quantile.
    for (const name of SERIES_NAMES) {
      const s: SeriesDef = SERIES[name];
      const fields = s.merge === 'histogram' ? Object.keys(s.quantiles) : [s.point];
      for (const f of fields) expect(columns).toContain(f);
    }
  });
});
