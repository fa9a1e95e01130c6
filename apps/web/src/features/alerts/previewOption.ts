import { ALERT_METRIC_INFO, MSG_ALERTS, type TAlertMetric, type TAlertPreview } from '@tlprt/contract';
import { formatTime } from '../../platform/dates';
import { formatValue } from './format';

export const PREVIEW_HEIGHT = 180;

/** The canvas reads no CSS: the axes' and tooltip's colours of each scheme (AA on its surface). */
const SCHEME = {
  light: { text: '#495057', grid: '#e9ecef', axis: '#adb5bd', line: '#1c7ed6', threshold: '#e03131' },
  dark: { text: '#c9c9c9', grid: '#373a40', axis: '#5c5f66', line: '#4dabf7', threshold: '#ff8787' },
} as const;

/** Whether the preview has anything to draw. */
export const hasPreviewData = (points: TAlertPreview['points']) => points.some((p) => p.value !== null);

/**
 * The form's preview (pure): the metric's value of each window over the last 24 hours, and the
 * threshold as a dashed line, so one sees how often the rule would have fired. A window without data
 * (or with too few viewers) leaves a gap.
 */
export function buildPreviewOption(
  metric: TAlertMetric,
  threshold: number | null,
  points: TAlertPreview['points'],
  scheme: 'light' | 'dark',
) {
  const c = SCHEME[scheme];
  const label = ALERT_METRIC_INFO[metric].label;
  const data = points.map((p) => [p.t * 1000, p.value] as [number, number | null]);
  const first = points[0]?.t ?? 0;
  const last = points[points.length - 1]?.t ?? 0;
  const series: Record<string, unknown>[] = [
    {
      type: 'line',
      name: label,
      data,
      showSymbol: false,
      connectNulls: false,
      lineStyle: { width: 2, color: c.line },
      itemStyle: { color: c.line },
      areaStyle: { opacity: 0.08, color: c.line },
    },
  ];
  if (threshold !== null)
    series.push({
      type: 'line',
      name: MSG_ALERTS.thresholdSeries,
      data: [
        [first * 1000, threshold],
        [last * 1000, threshold],
      ],
      showSymbol: false,
      silent: true,
      lineStyle: { width: 1.5, type: 'dashed', color: c.threshold },
      itemStyle: { color: c.threshold },
    });
  const unit = ALERT_METRIC_INFO[metric].unit;
  return {
    animation: false,
    grid: { left: 8, right: 12, top: 12, bottom: 4, containLabel: true },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => (typeof v === 'number' ? formatValue(metric, v) : MSG_ALERTS.noData),
    },
    xAxis: {
      type: 'time',
      axisLabel: { color: c.text, formatter: (v: number) => formatTime(v), hideOverlap: true },
      axisLine: { lineStyle: { color: c.axis } },
      splitLine: { show: false },
    },
    yAxis: {
      type: 'value',
      // A saving can fall below 0 (verification read more than peers gave).
      min: (extent: { min: number }) => Math.min(0, extent.min),
      ...(unit === 'percent' ? { max: 100 } : {}),
      axisLabel: { color: c.text, formatter: (v: number) => formatValue(metric, v) },
      splitLine: { lineStyle: { color: c.grid } },
    },
    series,
  };
}
