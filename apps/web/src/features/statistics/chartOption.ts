import type { TStatsPoint } from '@tlprt/contract';
import { MIN_ZOOM_SPAN_S, SERIES } from '@tlprt/contract';
import { formatDateTime } from '../../platform/dates';
import { DIMMED_TEXT } from '../../platform/ui/colors';
import { formatBits, formatBytes, formatCount, formatPercent } from '../../platform/units';
import { indexByTime, type PreviousPeriod } from './comparison';
import { shortDay } from './period';
import { drawnTraffic, SERIES_COLORS, type TrafficSeries, trafficOf } from './seriesStyle';

const REFUSED_COLOR = SERIES_COLORS.rejectedBytes;
const REFUSED = SERIES.rejectedBytes.label;
const VERIFICATION_COLOR = SERIES_COLORS.verifyBytes;
const VERIFICATION = SERIES.verifyBytes.label;
const VIEWERS_COLOR = SERIES_COLORS.users;
export const VIEWERS = SERIES.users.label;
/** The previous period (compare): grey and dashed, behind the current one, on both schemes. */
export const PREVIOUS = 'Previous period';
const PREVIOUS_COLOR = '#868e96';
/** The open point's mark in the tooltip. */
export const STILL_COUNTING = 'still being counted';
export const CHART_HEIGHT = 550;

export interface ChartInput {
  points: readonly TStatsPoint[];
  /** Seconds between points. */
  step: number;
  /** Team version 1 also has the NODR series. */
  nodr: boolean;
  /** The team's UTC offset in hours (tlprt_utcoffset_team). */
  utcOffset: number;
  /** Seconds of the last point's span that had passed when it was read, when that span had not ended
   *  (the minute still being counted): it is drawn unfinished (dashed, lighter), its rate taken over the
   *  time that has passed, not as a drop at the right edge. */
  openFor?: number;
  /** The previous period (compare): drawn faintly on the current axis, and in the tooltip. */
  previous?: PreviousPeriod;
}

/** Whether the last point of `input` is drawn as still being counted (it needs one before it). */
export const lastIsOpen = (input: ChartInput) => input.openFor !== undefined && input.points.length >= 2;
/** The shortest time an open point's rate is taken over: players report every 10 s, so a shorter span
 *  holds too few reports to say anything of the rate. */
const MIN_OPEN_SECONDS = 10;

/** Epoch seconds → the axis value: milliseconds shifted by the team offset (the chart runs in UTC). */
const axisTime = (datePoint: number, utcOffset: number) => (datePoint + utcOffset * 3600) * 1000;
/** Bytes served during one step → bits per second. */
export const bitsPerSecond = (bytes: number, step: number) => (step > 0 ? (bytes * 8) / step : 0);
/** Whether any point has refused peer bytes: their series is drawn only then. */
export const hasRefused = (points: readonly TStatsPoint[]) => points.some((p) => p.rejectedDwSize > 0);

const pad = (n: number) => String(n).padStart(2, '0');
/** An axis value (shifted ms) as "2026-11-22 14:05". */
function formatAxisTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

interface Row {
  name: string;
  color: string;
  value: number;
}
const share = (v: number, total: number) => (total > 0 ? v / total : 0);

function rows(p: TStatsPoint, nodr: boolean, kind: 'bytes' | 'viewers'): Row[] {
  return drawnTraffic(nodr).map((s) => ({ name: s.label, color: s.color, value: s[kind](p) }));
}

/** One line of the tooltip: a rate with the bytes of the step and their share, or a count. */
export interface TooltipRow {
  name: string;
  color: string;
  value: string;
  /** The bytes served during the step (bandwidth lines). */
  bytes?: string;
  /** Of the traffic (bandwidth lines only: a viewer fed by both is in two viewer lines). */
  share?: string;
}
/** A part of the tooltip: its title with the part's total, and its lines. */
export interface TooltipSection {
  title: string;
  total: string;
  rows: TooltipRow[];
}

/**
 * The tooltip of one point, as plain data (tested; rendered to HTML below), the same in every range:
 * the time once; Bandwidth with its total rate, each series' rate, bytes and share of the traffic;
 * Viewers with the audience (usersCount) and each series' count, without shares (a session fed by both
 * the CDN and peers is in both series, so they add up to more than the audience). Refused peer bytes
 * and the bytes fetched to verify peers' segments are not traffic: lines of their own without a share,
 * at the points that have some. With a previous period, its time and values at the same place.
 */
export function tooltipLines(input: ChartInput, index: number) {
  const p = input.points[index];
  if (!p) return null;
  const size = rows(p, input.nodr, 'bytes');
  const sizeTotal = size.reduce((a, r) => a + r.value, 0);
  const rate = (bytes: number) => formatBits(bitsPerSecond(bytes, input.step));
  const notTraffic = (name: string, color: string, bytes: number): TooltipRow[] =>
    bytes > 0 ? [{ name, color, value: rate(bytes), bytes: formatBytes(bytes) }] : [];
  const sections: TooltipSection[] = [
    {
      title: 'Bandwidth',
      total: rate(sizeTotal),
      rows: [
        ...size.map((r) => ({
          name: r.name,
          color: r.color,
          value: rate(r.value),
          bytes: formatBytes(r.value),
          share: formatPercent(share(r.value, sizeTotal)),
        })),
        ...notTraffic(REFUSED, REFUSED_COLOR, p.rejectedDwSize),
        ...notTraffic(VERIFICATION, VERIFICATION_COLOR, p.verifyDwSize),
      ],
    },
    {
      title: VIEWERS,
      total: formatCount(p.usersCount),
      rows: rows(p, input.nodr, 'viewers').map((r) => ({
        name: r.name,
        color: r.color,
        value: formatCount(r.value),
      })),
    },
  ];
  if (input.previous) {
    const before = p.datePoint - input.previous.shift;
    const q = input.previous.points.find((x) => x.datePoint === before);
    sections.push({
      title: `${PREVIOUS} · ${formatDateTime(before * 1000, { utcOffset: input.utcOffset, label: false })}`,
      total: '',
      rows: [
        {
          name: 'Bandwidth',
          color: PREVIOUS_COLOR,
          value: q ? rate(trafficOf(q)) : '—',
          ...(q ? { bytes: formatBytes(trafficOf(q)) } : {}),
        },
        { name: VIEWERS, color: PREVIOUS_COLOR, value: q ? formatCount(q.usersCount) : '—' },
      ],
    });
  }
  return {
    time: `${formatDateTime(p.datePoint * 1000, { utcOffset: input.utcOffset })}${
      lastIsOpen(input) && index === input.points.length - 1 ? ` · ${STILL_COUNTING}` : ''
    }`,
    sections,
  };
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const SPREAD = 'display:flex;gap:12px;justify-content:space-between';

export function tooltipHtml(input: ChartInput, index: number): string {
  const t = tooltipLines(input, index);
  if (!t) return '';
  const line = (r: TooltipRow) => {
    const detail = `${r.bytes ?? ''}${r.share ? ` (${r.share})` : ''}`.trim();
    return `<div style="${SPREAD}"><span><span style="display:inline-block;width:8px;height:8px;border-radius:50%;background:${r.color};margin-right:6px"></span>${esc(r.name)}</span><span><b>${esc(r.value)}</b>${detail ? ` <span style="opacity:.75">${esc(detail)}</span>` : ''}</span></div>`;
  };
  const section = (s: TooltipSection) =>
    `<div style="${SPREAD};margin-top:6px;font-weight:600"><span>${esc(s.title)}</span><span>${esc(s.total)}</span></div>${s.rows.map(line).join('')}`;
  return `<div style="min-width:220px"><div>${esc(t.time)}</div>${t.sections.map(section).join('')}</div>`;
}

/** Minimum zoom span (ms) for the step (spec §9), never more than the data's own span. */
export function minZoomSpanMs(step: number, points: readonly TStatsPoint[]): number {
  const span = MIN_ZOOM_SPAN_S[step] ?? step * 60;
  const first = points[0]?.datePoint ?? 0;
  const last = points[points.length - 1]?.datePoint ?? 0;
  return Math.min(span, Math.max(step, last - first)) * 1000;
}

/**
 * The ECharts option of the statistics chart: Bandwidth (stacked areas, bits/s) above, Viewers below,
 * the same in every range: each series' viewers as a stepped line over a light area, never stacked (a
 * session fed by both the CDN and peers is in both, so a stack would count it twice), and the audience
 * (usersCount) as a bold stepped line over them. Refused peer bytes, when there are some, are a red
 * line on the Bandwidth axis outside the stack: they were not delivered, so they must not raise the
 * traffic drawn. The previous period (compare), when given, is a grey dashed line of its traffic and
 * one of its audience on the current axis. One zoom slider for both, the date at each midnight on the
 * time axis, tooltip with values and shares. Pure.
 */
/** The chart's option; `zoom` is the visible part in percent of the whole range (start, end). */
export function buildChartOption(input: ChartInput, zoom: readonly [number, number] = [0, 100]) {
  const { points, step, nodr, utcOffset } = input;
  const t = (p: TStatsPoint) => axisTime(p.datePoint, utcOffset);
  const traffic = drawnTraffic(nodr);
  const min = points[0] ? t(points[0]) : undefined;
  const max = points[points.length - 1] ? t(points[points.length - 1] as TStatsPoint) : undefined;
  const minSpan = minZoomSpanMs(step, points);
  const refused = hasRefused(points);
  const refusedNames = refused ? [REFUSED] : [];
  const previous = input.previous;
  const previousNames = previous ? [PREVIOUS] : [];

  return {
    useUTC: true,
    animation: false,
    // The audience's colour last: the dark scheme replaces it (chartScheme.ts).
    color: [
      ...traffic.map((s) => s.color),
      ...(refused ? [REFUSED_COLOR] : []),
      ...(previous ? [PREVIOUS_COLOR] : []),
      VIEWERS_COLOR,
    ],
    legend: {
      top: 0,
      left: 64,
      data: [...traffic.map((s) => s.label), ...refusedNames, ...previousNames, VIEWERS],
      icon: 'roundRect',
      itemWidth: 12,
      itemHeight: 8,
    },
    grid: [
      // Both panels share one x extent: the axis name/labels must not shrink one grid (ECharts 6).
      { left: 72, right: 24, top: 56, height: 216, outerBoundsMode: 'none' as const },
      { left: 72, right: 24, top: 330, height: 120, outerBoundsMode: 'none' as const },
    ],
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    tooltip: {
      trigger: 'axis',
      confine: true,
      textStyle: { color: VIEWERS_COLOR },
      axisPointer: { type: 'line' },
      formatter: (params: unknown) => {
        const list = Array.isArray(params) ? params : [params];
        // By the axis value: the open point's dashed overlay has indexes of its own.
        const first = list[0] as { axisValue?: number; dataIndex?: number } | undefined;
        const at = points.findIndex((p) => t(p) === first?.axisValue);
        return tooltipHtml(input, at >= 0 ? at : (first?.dataIndex ?? 0));
      },
    },
    ...chartAxes(min, max),
    dataZoom: [
      {
        type: 'slider',
        xAxisIndex: [0, 1],
        bottom: 12,
        height: 28,
        minValueSpan: minSpan,
        left: 72,
        right: 24,
        labelFormatter: (v: number) =>
          step >= 3600 ? formatAxisTime(v).slice(5, 10) : formatAxisTime(v).slice(11),
        filterMode: 'none',
        start: zoom[0],
        end: zoom[1],
      },
      {
        type: 'inside',
        xAxisIndex: [0, 1],
        minValueSpan: minSpan,
        filterMode: 'none',
        start: zoom[0],
        end: zoom[1],
      },
    ],
    series: chartSeries(input),
  };
}

/** The time axes of both panels and their value axes (Bandwidth in bits/s, Viewers as counts). */
function chartAxes(min: number | undefined, max: number | undefined) {
  const axisLabel = { color: DIMMED_TEXT, hideOverlap: true };
  const splitLine = { lineStyle: { color: '#f1f3f5' } };
  return {
    xAxis: [
      { type: 'time', gridIndex: 0, min, max, axisLabel: { ...axisLabel, show: false }, splitLine },
      {
        type: 'time',
        gridIndex: 1,
        min,
        max,
        axisLabel: {
          ...axisLabel,
          formatter: axisDayLabel,
          rich: { day: { fontWeight: 600 as const } },
        },
        // The offset is named once, above the chart (an axis name at the start was cut by the canvas).
        splitLine,
      },
    ],
    yAxis: [
      {
        type: 'value',
        gridIndex: 0,
        name: 'Bandwidth',
        nameTextStyle: { color: '#495057', fontWeight: 600, align: 'left', padding: [0, 0, 0, -60] },
        axisLabel: {
          ...axisLabel,
          formatter: formatBits,
        },
        splitLine,
      },
      {
        type: 'value',
        gridIndex: 1,
        name: 'Viewers',
        nameTextStyle: { color: '#495057', fontWeight: 600, align: 'left', padding: [0, 0, 0, -60] },
        axisLabel: { ...axisLabel, formatter: (v: number) => formatCount(v) },
        splitLine,
        minInterval: 1,
      },
    ],
  };
}

/** The chart's series, in drawing order: the Bandwidth stack (and its open minute), refused bytes,
 *  the series' viewers (and their open minute), the previous period, the audience (and its open
 *  minute). */
function chartSeries(input: ChartInput) {
  const { points, step, nodr, utcOffset } = input;
  const t = (p: TStatsPoint) => axisTime(p.datePoint, utcOffset);
  const traffic = drawnTraffic(nodr);
  const open = lastIsOpen(input);
  const openAt = open ? points.length - 1 : -1;
  const refusedNames = hasRefused(points) ? [REFUSED] : [];
  const previous = input.previous;
  const before = previous ? indexByTime(previous.points) : null;
  /** The previous period's point drawn at `p`'s place. */
  const previousOf = (p: TStatsPoint) => (previous && before?.get(p.datePoint - previous.shift)) || null;
  /** The audience line (usersCount), stepped over the series' viewers, over them. */
  const audience: LineSpec = { name: VIEWERS, color: VIEWERS_COLOR, panel: 1, width: 2, z: 3 };
  /** The minute still being counted, over the last segment of a line: the same line, dashed and
   *  lighter, drawn only (no tooltip), from the last finished point to the open one. */
  const openSegment = (
    of: LineSpec,
    value: (p: TStatsPoint, i: number) => number,
    extra: Partial<LineSpec>,
  ) =>
    line({
      ...of,
      stack: undefined,
      area: undefined,
      silent: true,
      data: [openAt - 1, openAt].map((i) => [
        t(points[i] as TStatsPoint),
        value(points[i] as TStatsPoint, i),
      ]),
      ...extra,
    });
  /** A traffic source's area of the Bandwidth stack and its viewers' line. */
  const bandwidthOf = (s: TrafficSeries): LineSpec => ({
    name: s.label,
    color: s.color,
    panel: 0,
    stack: 'bandwidth',
    area: 0.35,
  });
  const viewersOf = (s: TrafficSeries): LineSpec => ({ name: s.label, color: s.color, panel: 1, area: 0.12 });
  /** The previous period: grey and dashed, behind the current one. */
  const previousLine = (panel: 0 | 1, value: (q: TStatsPoint) => number) =>
    line({
      name: PREVIOUS,
      color: PREVIOUS_COLOR,
      panel,
      z: 1,
      dashed: 0.9,
      data: points.map((p) => {
        const q = previousOf(p);
        return [t(p), q ? value(q) : null];
      }),
    });

  return [
    ...traffic.map((s) =>
      line({
        ...bandwidthOf(s),
        data: points.map((p, i) => [t(p), i === openAt ? null : bitsPerSecond(s.bytes(p), step)]),
      }),
    ),
    // The minute still being counted: its last segment dashed over the stack's top of each series,
    // its rate over the time that has passed (stacked by hand).
    ...(open
      ? traffic.map((s, k) =>
          openSegment(
            bandwidthOf(s),
            (p, i) => {
              const below = traffic.slice(0, k).reduce((a, m) => a + m.bytes(p), 0);
              const over =
                i === openAt ? Math.min(step, Math.max(MIN_OPEN_SECONDS, input.openFor ?? step)) : step;
              return bitsPerSecond(below + s.bytes(p), over);
            },
            { z: 3, dashed: 0.8, area: 0.12 },
          ),
        )
      : []),
    // Over the stacked traffic, so a small amount still shows.
    ...refusedNames.map((n) =>
      line({
        name: n,
        color: REFUSED_COLOR,
        panel: 0,
        width: 2,
        z: 4,
        area: 0.2,
        data: points.map((p) => [t(p), bitsPerSecond(p.rejectedDwSize, step)]),
      }),
    ),
    ...traffic.map((s) =>
      line({ ...viewersOf(s), data: points.map((p, i) => [t(p), i === openAt ? null : s.viewers(p)]) }),
    ),
    // The minute still being counted: its viewers so far, dashed.
    ...(open ? traffic.map((s) => openSegment(viewersOf(s), (p) => s.viewers(p), { dashed: 0.8 })) : []),
    ...(previous
      ? [previousLine(0, (q) => bitsPerSecond(trafficOf(q), step)), previousLine(1, (q) => q.usersCount)]
      : []),
    line({ ...audience, data: points.map((p, i) => [t(p), i === openAt ? null : p.usersCount]) }),
    ...(open ? [openSegment(audience, (p) => p.usersCount, { dashed: 0.6 })] : []),
  ];
}

/** One line of the chart, as every series of it is drawn. */
interface LineSpec {
  name: string;
  color: string;
  /** 0: the Bandwidth panel; 1: the Viewers panel, its lines stepped. */
  panel: 0 | 1;
  /** 1.5 unless given. */
  width?: number | undefined;
  /** The opacity of the area under it, when it has one. */
  area?: number | undefined;
  stack?: string | undefined;
  z?: number | undefined;
  /** Dashed, at this opacity (the previous period, the minute still being counted). */
  dashed?: number | undefined;
  /** Drawn only: out of the tooltip and of the pointer (the minute still being counted). */
  silent?: boolean | undefined;
}

function line(s: LineSpec & { data: Array<[number, number | null]> }) {
  return {
    name: s.name,
    type: 'line' as const,
    xAxisIndex: s.panel,
    yAxisIndex: s.panel,
    ...(s.panel === 1 ? { step: 'middle' as const } : {}),
    showSymbol: false,
    ...(s.stack !== undefined ? { stack: s.stack } : {}),
    ...(s.z !== undefined ? { z: s.z } : {}),
    ...(s.silent ? { silent: true, tooltip: { show: false } } : {}),
    lineStyle: {
      width: s.width ?? 1.5,
      color: s.color,
      ...(s.dashed !== undefined ? { type: 'dashed' as const, opacity: s.dashed } : {}),
    },
    itemStyle: { color: s.color },
    ...(s.area !== undefined ? { areaStyle: { opacity: s.area, color: s.color } } : {}),
    data: s.data,
  };
}

/** A time axis label: the day ("Tue 24 Nov", bold) at midnight, the time ("14:00") elsewhere; the
 *  value is already shifted to the view's offset (the chart runs in UTC). */
export function axisDayLabel(value: number): string {
  const d = new Date(value);
  if (d.getUTCHours() === 0 && d.getUTCMinutes() === 0)
    return `{day|${shortDay(d.toISOString().slice(0, 10))}}`;
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** Index range of the points inside a zoom window given in percent of the whole axis. */
export function zoomIndexes(count: number, startPct: number, endPct: number): [number, number] {
  if (count <= 0) return [0, -1];
  const last = count - 1;
  return [Math.round((startPct / 100) * last), Math.round((endPct / 100) * last)];
}
