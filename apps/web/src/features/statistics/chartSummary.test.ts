import { emptySeries, type TStatsPoint } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import type { ChartInput } from './chartOption';
import { chartSummary, chartTableRows, stepLabel } from './chartSummary';

// 2023-11-14 22:13:20 UTC; shown at UTC+2.
const T0 = 1_700_000_000;
const point = (i: number, cdn: number, p2p: number, viewers: number): TStatsPoint => ({
  ...emptySeries(),
  datePoint: T0 + i * 60,
  cdnDwSize: cdn,
  p2pDwSize: p2p,
  usersCount: viewers,
});
const input: ChartInput = {
  points: [point(0, 1000, 3000, 2), point(1, 2000, 2000, 7), point(2, 1000, 1000, 3), point(3, 0, 0, 1)],
  step: 60,
  nodr: false,
  utcOffset: 2,
};

describe('the chart text alternative', () => {
  it('summarizes the visible points: span, traffic by source and share, peak viewers and when', () => {
    expect(chartSummary(input, [0, 100])).toBe(
      'From 15 November 2023, 00:13 to 15 November 2023, 00:16 UTC+2, 4 points of 1 minute. ' +
        'CDN delivered 4 kB, P2P 6 kB (60% from peers). Viewers peaked at 7 at 00:14.',
    );
    // The zoom's window only: the last two points.
    expect(chartSummary(input, [67, 100])).toMatch(
      /^From 15 November 2023, 00:15 to .*, 2 points of 1 minute\. CDN delivered 1 kB, P2P 1 kB \(50% from peers\)\. Viewers peaked at 3 at 00:15\.$/,
    );
  });

  it('says so when nothing was served, and names NODR for version-1 teams', () => {
    const quiet = { ...input, points: [point(0, 0, 0, 0)] };
    expect(chartSummary(quiet, [0, 100])).toMatch(
      /1 point of 1 minute\. Nothing was served and no one watched\.$/,
    );
    expect(chartSummary({ ...input, points: [] }, [0, 100])).toBe('The chart has no points to show.');
    const v1 = { ...input, nodr: true, points: [{ ...point(0, 1000, 1000, 1), nodrDwSize: 2000 }] };
    expect(chartSummary(v1, [0, 100])).toContain('CDN delivered 1 kB, P2P 1 kB, NODR 2 kB (25% from peers).');
  });

  it('lists the visible points as rows (time in the team offset, bytes, viewers)', () => {
    expect(chartTableRows(input, [67, 100])).toEqual([
      {
        datePoint: T0 + 120,
        time: '15 November 2023, 00:15',
        bytes: { cdnBytes: 1000, p2pBytes: 1000 },
        viewers: 3,
      },
      {
        datePoint: T0 + 180,
        time: '15 November 2023, 00:16',
        bytes: { cdnBytes: 0, p2pBytes: 0 },
        viewers: 1,
      },
    ]);
    // NODR for version-1 teams only (0 where a point lacks it).
    expect(chartTableRows({ ...input, nodr: true }, [67, 100]).map((r) => r.bytes)).toEqual([
      { cdnBytes: 1000, p2pBytes: 1000, nodrBytes: 0 },
      { cdnBytes: 0, p2pBytes: 0, nodrBytes: 0 },
    ]);
    expect(stepLabel(1200)).toBe('20 minutes');
    expect(stepLabel(3600)).toBe('1 hour');
  });
});
