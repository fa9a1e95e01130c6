import { type buildChartOption, VIEWERS } from './chartOption';

type ChartOption = ReturnType<typeof buildChartOption>;
type Obj = Record<string, unknown>;

/** The chart's colours on the dark scheme (the canvas reads no CSS): text at AA on Mantine's dark.7. */
export const DARK_CHART = {
  text: '#c9c9c9',
  dimmed: '#a0a0a0',
  grid: '#373a40',
  axis: '#5c5f66',
  viewers: '#e9ecef',
  tooltipBg: '#2e2e2e',
  tooltipBorder: '#424242',
} as const;

const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});

function darkAxis(axis: Obj): Obj {
  return {
    ...axis,
    axisLabel: { ...obj(axis.axisLabel), color: DARK_CHART.dimmed },
    axisLine: { ...obj(axis.axisLine), lineStyle: { color: DARK_CHART.axis } },
    splitLine: { ...obj(axis.splitLine), lineStyle: { color: DARK_CHART.grid } },
    ...(axis.nameTextStyle ? { nameTextStyle: { ...obj(axis.nameTextStyle), color: DARK_CHART.text } } : {}),
  };
}

/**
 * The statistics chart's option in the page's colour scheme: on the dark one, its axes, grid lines,
 * legend, tooltip, zoom slider and the audience line (dark on light) are redrawn light. The series'
 * colours read on both. Pure; the light option is returned as built.
 */
export function withColorScheme(option: ChartOption, scheme: 'light' | 'dark'): ChartOption {
  if (scheme === 'light') return option;
  const palette = option.color.slice();
  palette[palette.length - 1] = DARK_CHART.viewers;
  const dark = {
    ...option,
    color: palette,
    legend: { ...option.legend, textStyle: { color: DARK_CHART.text }, inactiveColor: DARK_CHART.axis },
    tooltip: {
      ...option.tooltip,
      backgroundColor: DARK_CHART.tooltipBg,
      borderColor: DARK_CHART.tooltipBorder,
      textStyle: { color: DARK_CHART.text },
    },
    xAxis: option.xAxis.map((a) => darkAxis(a as Obj)),
    yAxis: option.yAxis.map((a) => darkAxis(a as Obj)),
    dataZoom: option.dataZoom.map((z, i) =>
      i === 0
        ? {
            ...z,
            textStyle: { color: DARK_CHART.dimmed },
            borderColor: DARK_CHART.axis,
            backgroundColor: 'transparent',
            dataBackground: { lineStyle: { color: DARK_CHART.axis }, areaStyle: { color: DARK_CHART.grid } },
          }
        : z,
    ),
    // By name: the audience has a dashed overlay for the minute still being counted, and the legend's
    // marker takes the first series of the name.
    series: option.series.map((s) =>
      s.name === VIEWERS
        ? {
            ...s,
            lineStyle: { ...obj((s as Obj).lineStyle), color: DARK_CHART.viewers },
            itemStyle: { ...obj((s as Obj).itemStyle), color: DARK_CHART.viewers },
          }
        : s,
    ),
  };
  return dark as unknown as ChartOption;
}
