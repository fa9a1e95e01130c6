import { describe, expect, it } from 'vitest';
import { STARTUP_BUCKETS_MS } from './report.js';
import {
  addReportValues,
  columnIndex,
  histogramQuantile,
  PEAK_SERIES,
  POINT_FIELDS,
  POINT_VALUES,
  reportSessionBits,
  SERIES,
  STORED_COLUMNS,
} from './series.js';
import { ZStatsPoint } from './statistics.js';

describe('the series table', () => {
  it('gives every stored value its own column and every series a field of the answer', () => {
    expect(new Set(STORED_COLUMNS.map((c) => c.column)).size).toBe(POINT_VALUES);
    // The startup histogram: one column per bucket and one above the last.
    expect(STORED_COLUMNS.filter((c) => c.series === 'startup')).toHaveLength(STARTUP_BUCKETS_MS.length + 1);
    for (const name of Object.keys(SERIES)) expect(POINT_FIELDS.some((f) => f.series === name)).toBe(true);
    expect(Object.keys(ZStatsPoint.shape).sort()).toEqual(
      ['datePoint', ...POINT_FIELDS.map((f) => f.field)].sort(),
    );
    // The bits of the sessions stored before the table: CDN 1, P2P 2, NODR 4; the viewers count every row.
    expect(PEAK_SERIES.map((p) => [p.column, p.bit])).toEqual([
      ['cdn_users', 1],
      ['p2p_users', 2],
      ['nodr_users', 4],
      ['users', 0],
    ]);
  });

  it('adds a report to a point: sums, startup buckets, the P2P ceiling of its peers', () => {
    const v = new Float64Array(POINT_VALUES);
    addReportValues(v, {
      cdnBytes: 300,
      p2pBytes: 100,
      playMs: 9000,
      stallMs: 20,
      plays: 2,
      peers: 3,
      startupMs: [90, 800, 60_000],
    });
    expect(v[columnIndex('cdnBytes')]).toBe(300);
    expect(v[columnIndex('playMs')]).toBe(9000);
    expect(v[columnIndex('plays')]).toBe(2);
    // 3 peers: at most 3 of every 4 copies from them.
    expect(v[columnIndex('ceilingBytes')]).toBe(300);
    const first = columnIndex('startup');
    expect(v[first]).toBe(1);
    expect(v[first + 4]).toBe(1);
    expect(v[first + STARTUP_BUCKETS_MS.length]).toBe(1);
  });

  it('makes a viewer of a session that received bytes or played, not of refused bytes alone', () => {
    expect(reportSessionBits({ cdnBytes: 1, p2pBytes: 2 })).toBe(1 | 2);
    expect(reportSessionBits({ cdnBytes: 0, p2pBytes: 0, playMs: 500 })).toBe(0);
    expect(reportSessionBits({ cdnBytes: 0, p2pBytes: 0, rejectedBytes: 9 })).toBe(-1);
  });

  it('lets no report add to a series the server counts itself (the verification bytes), whatever it names', () => {
    const v = new Float64Array(POINT_VALUES);
    const forged = { cdnBytes: 5, p2pBytes: 0, verifyBytes: 999, verifyDwSize: 999, verify_bytes: 999 };
    addReportValues(v, forged);
    expect(v[columnIndex('verifyBytes')]).toBe(0);
    expect(v[columnIndex('cdnBytes')]).toBe(5);
    // Nor does it make a viewer of anything.
    expect(SERIES.verifyBytes.report).toBeNull();
    expect(POINT_FIELDS.find((f) => f.series === 'verifyBytes')).toMatchObject({
      field: 'verifyDwSize',
      unit: 'bytes',
      drawn: true,
    });
  });

  it('adds the P2P bytes from other networks as reported, making no viewer of its own', () => {
    const v = new Float64Array(POINT_VALUES);
    addReportValues(v, { cdnBytes: 0, p2pBytes: 800, p2pCrossBytes: 300 });
    addReportValues(v, { cdnBytes: 0, p2pBytes: 100 });
    expect(v[columnIndex('crossBytes')]).toBe(300);
    expect(v[columnIndex('p2pBytes')]).toBe(900);
    expect(reportSessionBits({ cdnBytes: 0, p2pBytes: 0, p2pCrossBytes: 5 })).toBe(-1);
    expect(POINT_FIELDS.find((f) => f.series === 'crossBytes')).toMatchObject({
      field: 'p2pCrossDwSize',
      unit: 'bytes',
      drawn: true,
      version1Only: false,
    });
  });

  it('reads quantiles from bucket counts, linear inside a bucket, the open bucket at its lower bound', () => {
    const bounds = [100, 200];
    expect(histogramQuantile([0, 0, 0], bounds, 0.5)).toBe(0);
    expect(histogramQuantile([2, 0, 0], bounds, 0.5)).toBe(50);
    expect(histogramQuantile([1, 1, 0], bounds, 0.5)).toBe(100);
    expect(histogramQuantile([1, 2, 0], bounds, 0.95)).toBe(193);
    expect(histogramQuantile([0, 0, 4], bounds, 0.5)).toBe(200);
  });
});
