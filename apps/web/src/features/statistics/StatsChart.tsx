import { Badge, Box, useComputedColorScheme } from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import { CHART_TABLE_TEXT, ChartTextAlternative } from './ChartDataTable';
import { buildChartOption, CHART_HEIGHT, type ChartInput } from './chartOption';
import { withColorScheme } from './chartScheme';
import type { ChartHandle } from './echarts';

/**
 * The ECharts canvas: Bandwidth and Viewers panels with one zoom slider (option built purely). New
 * points of the same `view` (a live refresh) keep the zoom; another view (range, list, keys) resets it.
 * A refresh that adds or drops a series (refused peer bytes come and go) replaces the option: a merge
 * matches series by position and would keep a dropped one.
 */
export function StatsChart({
  input,
  view,
  sample,
  onZoom,
}: {
  input: ChartInput;
  view: string;
  sample: boolean;
  onZoom: (startPct: number, endPct: number) => void;
}) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartHandle | null>(null);
  const zoomRef = useRef(onZoom);
  zoomRef.current = onZoom;
  // The text alternative follows the zoom as the summary figures do (the canvas keeps its own).
  const [shownZoom, setShownZoom] = useState<readonly [number, number]>([0, 100]);
  const summaryId = useId();

  const inputRef = useRef(input);
  inputRef.current = input;
  const zoom = useRef<[number, number]>([0, 100]);
  const shownView = useRef<string | null>(null);
  const shownSeries = useRef<string | null>(null);
  // The canvas reads no CSS: the option is redrawn in the page's colour scheme (chartScheme.ts).
  const scheme = useComputedColorScheme('light');
  const schemeRef = useRef(scheme);
  schemeRef.current = scheme;

  // ECharts is loaded on demand (its own chunk): the rest of the app does not wait for it.
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    let disposed = false;
    let ro: ResizeObserver | null = null;
    void import('./echarts').then(({ createChart }) => {
      if (disposed) return;
      const c = createChart(node);
      chart.current = c;
      c.onZoom((s, e) => {
        zoom.current = [s, e];
        zoomRef.current(s, e);
        setShownZoom([s, e]);
      });
      c.setOption(withColorScheme(buildChartOption(inputRef.current, zoom.current), schemeRef.current), true);
      ro = new ResizeObserver(() => c.resize());
      ro.observe(node);
    });
    return () => {
      disposed = true;
      ro?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const newView = shownView.current !== view;
    if (newView) {
      shownView.current = view;
      zoom.current = [0, 100];
      zoomRef.current(0, 100);
      setShownZoom([0, 100]);
    }
    const option = withColorScheme(buildChartOption(input, zoom.current), scheme);
    const series = `${scheme}|${option.series.map((s) => `${s.type}:${s.name}`).join()}`;
    const newSeries = shownSeries.current !== series;
    shownSeries.current = series;
    chart.current?.setOption(option, newView || newSeries);
  }, [input, view, scheme]);

  return (
    <Box pos="relative">
      {sample && (
        <Badge
          pos="absolute"
          top={0}
          right={8}
          color="orange"
          variant="light"
          size="lg"
          style={{ zIndex: 1 }}
        >
          Sample data
        </Badge>
      )}
      <div
        ref={el}
        data-testid="stats-chart"
        data-sample={sample || undefined}
        // A canvas says nothing: the chart is one image described by its summary (and the table).
        role="img"
        aria-label={sample ? `${CHART_TABLE_TEXT.chartLabel} (sample data)` : CHART_TABLE_TEXT.chartLabel}
        aria-describedby={summaryId}
        style={{ width: '100%', height: CHART_HEIGHT }}
      />
      <ChartTextAlternative input={input} zoom={shownZoom} summaryId={summaryId} />
    </Box>
  );
}
