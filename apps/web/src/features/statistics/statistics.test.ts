import { MIN_ZOOM_SPAN_S, MSG_STATS, SERIES, STATS_RANGES, type TStatsPoint } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { utcLabel } from '../../platform/dates';
import {
  formatBits,
  formatBytes,
  formatCount,
  formatPercent,
  formatSignedPercent,
} from '../../platform/units';
import {
  axisDayLabel,
  bitsPerSecond,
  buildChartOption,
  minZoomSpanMs,
  tooltipHtml,
  tooltipLines,
  zoomIndexes,
} from './chartOption';
import { DARK_CHART, withColorScheme } from './chartScheme';
import { amountDelta, previousSummary, shareDelta, summaryDeltas } from './comparison';
import { buildStatsQuery, SAMPLE_POINTS, sampleStats, summarize } from './data';
import {
  dayAt,
  daysWindow,
  parsePeriod,
  periodLabel,
  previousWindow,
  rollingWindow,
  shortDay,
} from './period';
import { SERIES_COLORS, TRAFFIC } from './seriesStyle';
import { parseDay, patchParams } from './view';

/** A point; its audience (usersCount) is `u`, by default everyone in one series (the largest). */
const pt = (
  datePoint: number,
  cdn: number,
  p2p: number,
  cu: number,
  pu: number,
  nodr?: [number, number],
  u = Math.max(cu, pu, nodr?.[1] ?? 0),
) =>
  ({
    datePoint,
    cdnDwSize: cdn,
    p2pDwSize: p2p,
    cdnUsersCount: cu,
    p2pUsersCount: pu,
    ...(nodr ? { nodrDwSize: nodr[0], nodrUsersCount: nodr[1] } : {}),
    usersCount: u,
    rejectedDwSize: 0,
    verifyDwSize: 0,
  }) as TStatsPoint;
/** A point with `rejected` peer bytes refused. */
const refused = (p: TStatsPoint, rejected: number): TStatsPoint => ({ ...p, rejectedDwSize: rejected });
/** The tooltip's lines of a section ('Bandwidth', 'Viewers'). */
const section = (t: ReturnType<typeof tooltipLines>, title: string) =>
  t?.sections.find((s) => s.title === title)?.rows ?? [];

describe('units (spec §9)', () => {
  it('bytes and bit rates in decimal units (steps of 1000): kB MB GB TB, kbps Mbps Gbps', () => {
    expect(formatBits(0)).toBe('0 bps');
    expect(formatBits(512)).toBe('512 bps');
    expect(formatBits(1000)).toBe('1 kbps');
    expect(formatBits(1500)).toBe('1.5 kbps');
    expect(formatBits(1024)).toBe('1.02 kbps');
    expect(formatBits(3e6)).toBe('3 Mbps');
    expect(formatBits(2.25e9)).toBe('2.25 Gbps');
    expect(formatBits(1e12)).toBe('1 Tbps');
    expect(formatBits(12e15)).toBe('12 Pbps');
    expect(formatBits(999_999)).toBe('1 Mbps');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(19_500)).toBe('19.5 kB');
    expect(formatBytes(1.5e9)).toBe('1.5 GB');
    expect(formatBytes(2e12)).toBe('2 TB');
  });
  it('viewer counts K, B, T', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(12_500)).toBe('12.5K');
    expect(formatCount(2_000_000)).toBe('2M');
    expect(formatCount(3e9)).toBe('3B');
    expect(formatCount(4.5e12)).toBe('4.5T');
  });
  it('percent and UTC label', () => {
    expect(formatPercent(0.4231)).toBe('42.3%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(1)).toBe('100%');
    // A saving can fall below 0: shown with its sign, never as 0.
    expect(formatSignedPercent(0.125)).toBe('12.5%');
    expect(formatSignedPercent(-0.1)).toBe('−10.0%');
    expect(formatSignedPercent(-0.00001)).toBe('0%');
    expect(formatSignedPercent(Number.NaN)).toBe('0%');
    expect(utcLabel(2)).toBe('UTC+2');
    expect(utcLabel(-7)).toBe('UTC-7');
    expect(utcLabel(5.5)).toBe('UTC+5:30');
    expect(utcLabel(0)).toBe('UTC+0');
  });
  it('bytes per step → bits per second', () => {
    expect(bitsPerSecond(60, 60)).toBe(8);
    expect(bitsPerSecond(1200 * 1024, 1200)).toBe(8192);
  });
});

describe('offload (P2P share)', () => {
  const points = [pt(0, 300, 100, 3, 1), pt(60, 100, 500, 2, 8, undefined, 9), pt(120, 0, 0, 0, 0)];
  it('is p2p bytes over all bytes of the range, with total and peak viewers', () => {
    const s = summarize(points);
    expect(s.p2pShare).toBeCloseTo(600 / 1000);
    expect(s.totalBytes).toBe(1000);
    expect(s.peakViewers).toBe(9);
  });
  it('follows the zoomed range', () => {
    expect(summarize(points, 0, 0).p2pShare).toBeCloseTo(0.25);
    expect(summarize(points, 2, 2).p2pShare).toBeNull();
    expect(zoomIndexes(3, 0, 50)).toEqual([0, 1]);
    expect(zoomIndexes(101, 10, 20)).toEqual([10, 20]);
  });
  it('peak viewers are the distinct audience (usersCount): neither the largest series nor their sum', () => {
    // 4 viewers: 3 on the CDN, 2 from peers, 1 of them on both.
    expect(summarize([pt(0, 100, 100, 3, 2, undefined, 4), pt(60, 0, 0, 0, 0)]).peakViewers).toBe(4);
  });
  it('counts NODR bytes in the total', () => {
    const s = summarize([pt(0, 100, 100, 1, 1, [200, 5], 6)]);
    expect(s.p2pShare).toBeCloseTo(0.25);
    expect(s.peakViewers).toBe(6);
  });
  it('sums refused peer bytes over the range, apart from the traffic (not in the total nor the share)', () => {
    const [a, b, c] = points as [TStatsPoint, TStatsPoint, TStatsPoint];
    const s = summarize([refused(a, 70), refused(b, 5), c]);
    expect(s.rejectedBytes).toBe(75);
    expect(s.totalBytes).toBe(1000);
    expect(s.p2pShare).toBeCloseTo(0.6);
    expect(summarize(points).rejectedBytes).toBe(0);
    // Only the zoomed points count.
    expect(summarize([refused(a, 70), b], 1, 1).rejectedBytes).toBe(0);
  });
});

/** A point with `bytes` fetched from the origin to verify peers' segments. */
const verified = (p: TStatsPoint, bytes: number): TStatsPoint => ({ ...p, verifyDwSize: bytes });

describe("the origin's real saving", () => {
  it('is 1 − (CDN + verification) ÷ (CDN + P2P): the P2P share less what verifying fetched', () => {
    const s = summarize([verified(pt(0, 300, 100, 3, 1), 50), verified(pt(60, 100, 500, 2, 8), 150)]);
    expect(s.verifyBytes).toBe(200);
    expect(s.p2pShare).toBeCloseTo(0.6);
    expect(s.originSaving).toBeCloseTo(1 - (400 + 200) / 1000);
    // Verification is no traffic: the total stays the viewers'.
    expect(s.totalBytes).toBe(1000);
  });
  it('equals the share when nothing was fetched, falls below 0 when verifying cost more than peers saved', () => {
    const points = [pt(0, 300, 100, 3, 1), pt(60, 100, 500, 2, 8)];
    expect(summarize(points).originSaving).toBe(summarize(points).p2pShare);
    expect(summarize([verified(pt(0, 300, 100, 3, 1), 200)]).originSaving).toBeCloseTo(-0.25);
  });
  it('is null without traffic (a dash, not NaN), even with bytes fetched, and follows the zoom', () => {
    expect(summarize([pt(0, 0, 0, 0, 0)]).originSaving).toBeNull();
    expect(summarize([verified(pt(0, 0, 0, 0, 0), 500)]).originSaving).toBeNull();
    expect(summarize([]).originSaving).toBeNull();
    const points = [verified(pt(0, 300, 100, 3, 1), 100), pt(60, 100, 500, 2, 8)];
    expect(summarize(points, 1, 1).originSaving).toBeCloseTo(5 / 6);
    expect(summarize(points, 0, 0).originSaving).toBe(0);
  });
  it('the tooltip lists the verification bytes without a share, only at points that have some', () => {
    const input = {
      points: [verified(pt(0, 750, 250, 1, 1), 1500), pt(60, 750, 250, 1, 1)],
      step: 60,
      nodr: false,
      utcOffset: 0,
    };
    expect(section(tooltipLines(input, 0), 'Bandwidth')).toEqual([
      { name: 'CDN', color: expect.any(String), value: '100 bps', bytes: '750 B', share: '75.0%' },
      { name: 'P2P', color: expect.any(String), value: '33.3 bps', bytes: '250 B', share: '25.0%' },
      { name: SERIES.verifyBytes.label, color: expect.any(String), value: '200 bps', bytes: '1.5 kB' },
    ]);
    expect(section(tooltipLines(input, 1), 'Bandwidth').map((r) => r.name)).toEqual(['CDN', 'P2P']);
    // Not drawn: the chart's series are the traffic's.
    expect(buildChartOption(input).series.map((x) => x.name)).not.toContain(SERIES.verifyBytes.label);
  });
});

describe('sample statistics (spec §9)', () => {
  it('990 per-minute points over ~16.5 h within the stated ranges; deterministic', () => {
    const end = 1_800_000_000;
    const a = sampleStats(end);
    expect(a).toHaveLength(SAMPLE_POINTS);
    const times = a.map((p) => p.datePoint);
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBe(60);
    expect((Math.max(...times) - Math.min(...times)) / 3600).toBeCloseTo(16.47, 1);
    expect(a[a.length - 1]?.datePoint).toBeLessThanOrEqual(end);
    for (const p of a) {
      expect(p.cdnDwSize).toBeGreaterThanOrEqual(1e9);
      expect(p.cdnDwSize).toBeLessThanOrEqual(9e10);
      expect(p.cdnUsersCount).toBeGreaterThanOrEqual(5000);
      expect(p.cdnUsersCount).toBeLessThanOrEqual(20_000);
      expect(p.p2pUsersCount).toBeLessThanOrEqual(26_000);
      expect(p.nodrDwSize).toBeUndefined();
      expect(p.usersCount).toBeGreaterThanOrEqual(Math.max(p.cdnUsersCount, p.p2pUsersCount));
      expect(p.usersCount).toBeLessThanOrEqual(p.cdnUsersCount + p.p2pUsersCount);
    }
    const peers = a.map((p) => p.p2pUsersCount);
    expect(Math.min(...peers)).toBeGreaterThanOrEqual(2400);
    expect(Math.min(...peers)).toBeLessThanOrEqual(2600);
    expect(Math.max(...peers)).toBeGreaterThan(20_000);
    expect(sampleStats(end)).toEqual(a);
    expect(sampleStats(end, true)[0]?.nodrDwSize).toBeGreaterThan(0);
    // No made-up attack: the sample never shows refused bytes.
    expect(a.every((p) => p.rejectedDwSize === 0)).toBe(true);
  });
});

describe('request bodies', () => {
  it('uses the window of each range ending now', () => {
    for (const range of ['live', 'day', 'week', 'month'] as const) {
      const q = buildStatsQuery(range, 1_800_000_000.7, ['k1', 'k2'], 5, 1);
      expect(q).toEqual({
        apiKeys: ['k1', 'k2'],
        startTimestamp: 1_800_000_000 - STATS_RANGES[range].window,
        endTimestamp: 1_800_000_000,
        clientId: 1,
        team_id: 5,
      });
    }
  });
});

describe('chart option', () => {
  it('draws each source of traffic of the series table, with its label and a colour of its own', () => {
    // Derived from the table: each viewers series counting one report field, with that field's bytes.
    expect(TRAFFIC.map((s) => [s.series, s.label, s.version1Only])).toEqual([
      ['cdnBytes', SERIES.cdnBytes.label, false],
      ['p2pBytes', SERIES.p2pBytes.label, false],
      ['nodrBytes', SERIES.nodrBytes.label, true],
    ]);
    const point = pt(0, 1, 2, 3, 4, [5, 6]);
    expect(TRAFFIC.map((s) => [s.bytes(point), s.viewers(point)])).toEqual([
      [1, 3],
      [2, 4],
      [5, 6],
    ]);
    // Every source has its own colour in the map, apart from the alarm's and the audience's.
    const colors = TRAFFIC.map((s) => s.color);
    for (const s of TRAFFIC) expect(s.color).toBe(SERIES_COLORS[s.series as keyof typeof SERIES_COLORS]);
    expect(new Set([...colors, SERIES_COLORS.rejectedBytes, SERIES_COLORS.users]).size).toBe(
      colors.length + 2,
    );
  });
  // 35 viewers: 30 on the CDN, 10 from peers (5 of them on both).
  const points = [pt(3600, 750, 250, 30, 10, undefined, 35), pt(3660, 0, 0, 0, 0)];
  const input = { points, step: 60, nodr: false, utcOffset: 2 };
  it('has stacked bandwidth areas, unstacked viewer lines and the audience line, in the team offset', () => {
    const o = buildChartOption(input);
    expect(o.useUTC).toBe(true);
    expect(o.series.map((s) => `${s.type}:${s.name}`)).toEqual([
      'line:CDN',
      'line:P2P',
      'line:CDN',
      'line:P2P',
      'line:Viewers',
    ]);
    const [cdnSize, p2pSize, cdnUsers, p2pUsers, audience] = o.series;
    expect(cdnSize && 'stack' in cdnSize ? cdnSize.stack : null).toBe('bandwidth');
    expect(p2pSize && 'stack' in p2pSize ? p2pSize.stack : null).toBe('bandwidth');
    // A stack would count a viewer fed by both twice: 40 high for 35 viewers. The same in every range.
    const viewerPanel = o.series.filter((s) => s.yAxisIndex === 1);
    expect(viewerPanel).toHaveLength(3);
    for (const s of viewerPanel) expect('stack' in s ? s.stack : undefined).toBeUndefined();
    expect(cdnUsers && 'step' in cdnUsers ? cdnUsers.step : null).toBe('middle');
    expect(audience && 'step' in audience ? audience.step : null).toBe('middle');
    // 750 bytes in 60 s = 100 bits/s; x = (t + 2 h) ms.
    expect(cdnSize?.data[0]).toEqual([(3600 + 7200) * 1000, 100]);
    expect(cdnUsers?.data[0]).toEqual([(3600 + 7200) * 1000, 30]);
    expect(p2pUsers?.data[0]).toEqual([(3600 + 7200) * 1000, 10]);
    expect(audience?.data[0]).toEqual([(3600 + 7200) * 1000, 35]);
    expect(o.legend.data).toEqual(['CDN', 'P2P', 'Viewers']);
    expect(o.grid).toHaveLength(2);
  });
  it('draws refused peer bytes as a red line on the Bandwidth axis, outside the stack, only when there are some', () => {
    expect(buildChartOption(input).series.some((s) => s.name === MSG_STATS.refusedSeries)).toBe(false);
    const attacked = {
      ...input,
      points: [refused(points[0] as TStatsPoint, 1500), points[1] as TStatsPoint],
    };
    const o = buildChartOption(attacked);
    expect(o.series.map((s) => `${s.type}:${s.name}`)).toEqual([
      'line:CDN',
      'line:P2P',
      `line:${MSG_STATS.refusedSeries}`,
      'line:CDN',
      'line:P2P',
      'line:Viewers',
    ]);
    const line = o.series[2];
    expect(line?.yAxisIndex).toBe(0);
    expect(line && 'stack' in line ? line.stack : undefined).toBeUndefined();
    expect(line && 'lineStyle' in line ? line.lineStyle.color : null).toBe('#e03131');
    // 1500 bytes in 60 s = 200 bits/s.
    expect(line?.data).toEqual([
      [(3600 + 7200) * 1000, 200],
      [(3660 + 7200) * 1000, 0],
    ]);
    // The traffic drawn is the same with or without it.
    expect(o.series[0]?.data).toEqual(buildChartOption(input).series[0]?.data);
    expect(o.legend.data).toEqual(['CDN', 'P2P', MSG_STATS.refusedSeries, 'Viewers']);
    // The tooltip lists it, without a share, at the points that have some; shares stay those of traffic.
    expect(section(tooltipLines(attacked, 0), 'Bandwidth')).toEqual([
      { name: 'CDN', color: expect.any(String), value: '100 bps', bytes: '750 B', share: '75.0%' },
      { name: 'P2P', color: expect.any(String), value: '33.3 bps', bytes: '250 B', share: '25.0%' },
      { name: MSG_STATS.refusedSeries, color: '#e03131', value: '200 bps', bytes: '1.5 kB' },
    ]);
    expect(section(tooltipLines(attacked, 1), 'Bandwidth').map((r) => r.name)).toEqual(['CDN', 'P2P']);
    expect(tooltipHtml(attacked, 0)).toContain(
      `${MSG_STATS.refusedSeries}</span><span><b>200 bps</b> <span style="opacity:.75">1.5 kB</span></span>`,
    );
  });
  it('adds NODR for version-1 teams', () => {
    const o = buildChartOption({ ...input, nodr: true, points: [pt(0, 1, 1, 1, 1, [1, 1])] });
    expect(o.series.map((s) => s.name)).toEqual(['CDN', 'P2P', 'NODR', 'CDN', 'P2P', 'NODR', 'Viewers']);
  });
  it('draws the point still being counted as unfinished (dashed, lighter), its rate over the time passed, not as a drop at the right edge', () => {
    const points = [pt(0, 600, 200, 5, 3), pt(60, 600, 200, 5, 3), pt(120, 30, 10, 1, 1)];
    const dashed = (x: unknown) => (x as { lineStyle?: { type?: string } }).lineStyle?.type === 'dashed';
    const closed = buildChartOption({ ...input, points });
    expect(closed.series.some(dashed)).toBe(false);
    const o = buildChartOption({ ...input, points, openFor: 3 });
    const lines = o.series.filter((x) => x.type === 'line' && x.yAxisIndex === 0);
    // The stacked areas end at the last finished minute; each series' last segment is dashed over it.
    const solid = lines.filter((x) => !dashed(x));
    expect(solid.map((x) => (x.data as unknown[][]).at(-1)?.[1])).toEqual([null, null]);
    const overlay = lines.filter(dashed);
    expect(overlay.map((x) => x.name)).toEqual(['CDN', 'P2P']);
    // Stacked by hand: P2P's dashed line runs on top of CDN's.
    // 3 s passed of the open minute: its bytes so far are a rate over the 10 s floor (reports come every
    // 10 s), so 30 and 10 bytes draw level with the finished minute's 600 and 200 over 60 s.
    expect(overlay.map((x) => (x.data as number[][]).map((d) => d[1]))).toEqual([
      [80, 24],
      [106.66666666666667, 32],
    ]);
    const later = buildChartOption({ ...input, points, openFor: 30 }).series.filter(
      (x) => dashed(x) && x.yAxisIndex === 0,
    );
    expect(later.map((x) => (x.data as number[][])[1]?.[1])).toEqual([8, 32 / 3]);
    // The series' viewers of the open minute: dashed too, not a drop.
    const viewers = o.series.filter((x) => x.yAxisIndex === 1 && x.name !== 'Viewers');
    expect(viewers.filter((x) => !dashed(x)).map((x) => (x.data as unknown[][]).at(-1)?.[1])).toEqual([
      null,
      null,
    ]);
    expect(viewers.filter(dashed).map((x) => (x.data as number[][]).map((d) => d[1]))).toEqual([
      [5, 1],
      [3, 1],
    ]);
    expect(tooltipLines({ ...input, points, openFor: 3 }, 2)?.time).toMatch(/still being counted$/);
    expect(tooltipLines({ ...input, points, openFor: 3 }, 1)?.time).not.toMatch(/counted/);
  });
  it('on the dark scheme the audience line, its unfinished overlay and its legend marker are light', () => {
    const points = [pt(0, 600, 200, 5, 3), pt(60, 600, 200, 5, 3), pt(120, 30, 10, 1, 1)];
    const light = buildChartOption({ ...input, points, openFor: 20 });
    const dark = withColorScheme(light, 'dark');
    const audience = dark.series.filter((x) => x.name === 'Viewers');
    expect(audience).toHaveLength(2);
    for (const a of audience)
      expect((a as { lineStyle?: { color?: string } }).lineStyle?.color).toBe(DARK_CHART.viewers);
    expect(dark.color.at(-1)).toBe(DARK_CHART.viewers);
    expect(withColorScheme(light, 'light')).toBe(light);
    expect((dark.tooltip as { textStyle?: { color?: string } }).textStyle?.color).toBe(DARK_CHART.text);
  });

  it('limits zooming to the minimum spans of spec §9', () => {
    const day = Array.from({ length: 1440 }, (_, i) => pt(i * 60, 1, 1, 1, 1));
    expect(minZoomSpanMs(60, day)).toBe((MIN_ZOOM_SPAN_S[60] ?? 0) * 1000);
    const month = Array.from({ length: 720 }, (_, i) => pt(i * 3600, 1, 1, 1, 1));
    expect(minZoomSpanMs(3600, month)).toBe(60 * 3600 * 1000);
    const week = Array.from({ length: 504 }, (_, i) => pt(i * 1200, 1, 1, 1, 1));
    expect(minZoomSpanMs(1200, week)).toBe(20 * 3600 * 1000);
    const o = buildChartOption({ ...input, points: day });
    expect(o.dataZoom[0]?.minValueSpan).toBe(3_600_000);
    expect(o.dataZoom[0]?.xAxisIndex).toEqual([0, 1]);
  });
  it('tooltip: the time once, bandwidth with bytes and shares, viewers as counts without shares', () => {
    const t = tooltipLines(input, 0);
    if (!t) throw new Error('no tooltip');
    expect(t.time).toBe('1 January 1970, 03:00 UTC+2');
    expect(t.sections.map((s) => `${s.title} ${s.total}`)).toEqual(['Bandwidth 133 bps', 'Viewers 35']);
    expect(section(t, 'Bandwidth')).toEqual([
      { name: 'CDN', color: expect.any(String), value: '100 bps', bytes: '750 B', share: '75.0%' },
      { name: 'P2P', color: expect.any(String), value: '33.3 bps', bytes: '250 B', share: '25.0%' },
    ]);
    // One viewer may be in both series: counts only, no share of anything.
    expect(section(t, 'Viewers')).toEqual([
      { name: 'CDN', color: expect.any(String), value: '30' },
      { name: 'P2P', color: expect.any(String), value: '10' },
    ]);
    const html = buildChartOption(input).tooltip.formatter([{ dataIndex: 0 }]);
    expect(html).toBe(tooltipHtml(input, 0));
    // "Viewers" once: the heading of its part, with the audience.
    expect(html.match(/Viewers/g)).toHaveLength(1);
    expect(html).not.toContain('100%');
    expect(html).toContain('<b>100 bps</b> <span style="opacity:.75">750 B (75.0%)</span>');
    expect(section(tooltipLines(input, 1), 'Bandwidth')[0]?.share).toBe('0%');
  });
  it('draws the previous period faintly on the current axis, and shows it in the tooltip', () => {
    const day = 86_400;
    const previous = { points: [pt(3600 - day, 1500, 500, 50, 20, undefined, 60)], shift: day };
    const o = buildChartOption({ ...input, previous });
    const faint = o.series.filter((s) => s.name === 'Previous period');
    expect(faint.map((s) => s.yAxisIndex)).toEqual([0, 1]);
    for (const s of faint) expect((s as { lineStyle: { type?: string } }).lineStyle.type).toBe('dashed');
    // At the current point's place: 2000 bytes in 60 s; nothing where the previous period has no point.
    expect(faint[0]?.data).toEqual([
      [(3600 + 7200) * 1000, (2000 * 8) / 60],
      [(3660 + 7200) * 1000, null],
    ]);
    expect(faint[1]?.data[0]).toEqual([(3600 + 7200) * 1000, 60]);
    expect(o.legend.data).toEqual(['CDN', 'P2P', 'Previous period', 'Viewers']);
    expect(withColorScheme(o, 'dark').color.at(-1)).toBe(DARK_CHART.viewers);
    const t = tooltipLines({ ...input, previous }, 0);
    expect(t?.sections[2]?.title).toBe('Previous period · 31 December 1969, 03:00');
    expect(section(t, t?.sections[2]?.title ?? '').map((r) => `${r.name} ${r.value}`)).toEqual([
      'Bandwidth 267 bps',
      'Viewers 60',
    ]);
    expect(section(tooltipLines({ ...input, previous }, 1), t?.sections[2]?.title ?? '')).toEqual([]);
  });
  it('marks the day at midnight on the time axis, hours elsewhere, in the view offset', () => {
    // 24 November 2026 was a Tuesday.
    const midnight = Date.UTC(2026, 10, 24);
    expect(axisDayLabel(midnight)).toBe('{day|Tue 24 Nov}');
    expect(axisDayLabel(midnight + 14 * 3_600_000)).toBe('14:00');
    const o = buildChartOption(input);
    expect((o.xAxis[1]?.axisLabel as { formatter?: unknown } | undefined)?.formatter).toBe(axisDayLabel);
    // The axis values are shifted by the offset: the team's midnight, not UTC's, gets the date.
    const t = (datePoint: number) => (datePoint + input.utcOffset * 3600) * 1000;
    expect(axisDayLabel(t(Date.UTC(2026, 10, 23, 22) / 1000))).toBe('{day|Tue 24 Nov}');
  });
});

describe('custom dates (issue 39)', () => {
  // Saturday 28 November 2026, 13:00 UTC.
  const NOW_S = Date.UTC(2026, 10, 28, 13) / 1000;
  const DAY = 86_400;
  it('reads whole days in the view offset, `to` included', () => {
    const w = daysWindow('2026-11-24', '2026-11-24', 2);
    expect(w).toEqual({
      start: Date.UTC(2026, 10, 23, 22) / 1000,
      end: Date.UTC(2026, 10, 24, 22) / 1000 - 1,
      shift: DAY,
    });
    expect(daysWindow('2026-11-24', '2026-11-30', 0)?.shift).toBe(7 * DAY);
    expect(daysWindow('2026-11-30', '2026-11-24', 0)).toBeNull();
    expect(daysWindow('2026-02-30', '2026-03-01', 0)).toBeNull();
  });
  it('chooses the finest range whose step is kept that far back and whose longest window holds the days', () => {
    const range = (from: string, to: string, compare = false) =>
      parsePeriod(from, to, 0, NOW_S, compare)?.range ?? null;
    // Yesterday by the minute; with the day before it, which minutes no longer cover whole, by 20 minutes.
    expect(range('2026-11-27', '2026-11-27')).toBe('day');
    expect(range('2026-11-27', '2026-11-27', true)).toBe('week');
    // Today so far, and with the day before.
    expect(range('2026-11-28', '2026-11-28', true)).toBe('day');
    // Last Tuesday: minutes are gone, 20-minute points are kept.
    expect(range('2026-11-24', '2026-11-24')).toBe('week');
    expect(range('2026-11-20', '2026-11-26')).toBe('week');
    expect(range('2026-11-19', '2026-11-26')).toBe('month');
    // A calendar quarter of hours; longer is no range's.
    expect(range('2026-07-01', '2026-09-30')).toBe('month');
    expect(range('2026-07-01', '2026-10-01')).toBeNull();
    // Beyond the 20-minute points kept: hours.
    expect(range('2026-08-04', '2026-08-04')).toBe('month');
    // Beyond any data kept, in the future, or not dates: none (the rolling range is shown).
    expect(range('2024-08-04', '2024-08-04')).toBeNull();
    expect(range('2026-11-29', '2026-11-29')).toBeNull();
    expect(parsePeriod('soon', null, 0, NOW_S, false)).toBeNull();
    expect(parsePeriod(null, '2026-11-24', 0, NOW_S, false)).toBeNull();
    // `to` absent: the one day.
    expect(parsePeriod('2026-11-24', null, 0, NOW_S, false)).toMatchObject({
      to: '2026-11-24',
      range: 'week',
    });
  });
  it('the rolling window is what the screen always asked, and the previous period is just before', () => {
    expect(rollingWindow('day', NOW_S)).toEqual({ start: NOW_S - DAY, end: NOW_S, shift: DAY });
    const q = buildStatsQuery('day', NOW_S, ['k'], 1, 2);
    expect([q.startTimestamp, q.endTimestamp]).toEqual([NOW_S - DAY, NOW_S]);
    expect(previousWindow(rollingWindow('week', NOW_S))).toEqual({
      start: NOW_S - 14 * DAY,
      end: NOW_S - 7 * DAY,
      shift: 7 * DAY,
    });
    expect(dayAt(NOW_S, 12)).toBe('2026-11-29');
    expect(shortDay('2026-11-24')).toBe('Tue 24 Nov');
    expect(periodLabel({ from: '2026-11-24', to: '2026-11-30' })).toBe('Tue 24 Nov – Mon 30 Nov');
  });
  it('keeps the URL parameters of other parts when changing its own', () => {
    const prev = new URLSearchParams('range=day&list=0&by=country&value=DE');
    const next = patchParams(prev, { dates: { from: '2026-11-24', to: '2026-11-25' }, compare: true });
    expect(next.toString()).toBe(
      'range=day&list=0&by=country&value=DE&from=2026-11-24&to=2026-11-25&compare=1',
    );
    const back = patchParams(next, { range: 'week', dates: null, compare: false });
    expect(back.toString()).toBe('range=week&list=0&by=country&value=DE');
    expect(parseDay('2026-11-24')).toBe('2026-11-24');
    expect(parseDay('24.11.2026')).toBeNull();
  });
});

describe('compared with the previous period (issue 39)', () => {
  it('shares change by percentage points, amounts by percent, with words for screen readers', () => {
    expect(shareDelta(0.652, 0.61)).toEqual({
      text: '+4.2 pts',
      spoken: 'up 4.2 percentage points on the previous period',
      direction: 'up',
    });
    expect(shareDelta(0.5, 0.55)?.text).toBe('−5.0 pts');
    expect(shareDelta(0.5, 0.5)?.text).toBe('±0 pts');
    expect(shareDelta(null, 0.5)).toBeNull();
    expect(amountDelta(112, 100)).toEqual({
      text: '+12%',
      spoken: 'up 12 percent on the previous period',
      direction: 'up',
    });
    expect(amountDelta(95, 100)?.text).toBe('−5%');
    expect(amountDelta(96.5, 100)?.text).toBe('−3.5%');
    expect(amountDelta(10, 0)).toMatchObject({ text: 'new', direction: 'up' });
    expect(amountDelta(0, 0).text).toBe('±0%');
  });
  it('sums the previous period where it matches the visible part of the current one', () => {
    const cur = [pt(1000, 600, 400, 5, 3), pt(1060, 600, 400, 5, 3)];
    const previous = {
      points: [pt(100, 500, 100, 2, 1), pt(160, 900, 100, 9, 1), pt(220, 1, 1, 1, 1)],
      shift: 900,
    };
    const before = previousSummary(previous, 1000, 1000);
    expect(before.totalBytes).toBe(600);
    const d = summaryDeltas(summarize(cur, 0, 0), before);
    // 40 % P2P against 16.7 %: +23.3 pts; 1000 bytes against 600: +67 %; 5 viewers against 2: +150 %.
    expect(d.p2pShare?.text).toBe('+23.3 pts');
    expect(d.totalBytes.text).toBe('+67%');
    expect(d.peakViewers.text).toBe('+150%');
    expect(summaryDeltas(summarize(cur), previousSummary(previous, 1000, 1060)).totalBytes.text).toBe('+25%');
  });
});
