import { Box, Skeleton, Text, useComputedColorScheme } from '@mantine/core';
import { ALERT_METRIC_INFO, MSG_ALERTS, type TAlertMetric, type TAlertPreview } from '@tlprt/contract';
import { useEffect, useMemo, useRef } from 'react';
import type { PreviewHandle } from './echarts';
import { buildPreviewOption, hasPreviewData, PREVIEW_HEIGHT } from './previewOption';

/** The ECharts line of the form's preview, or its loading and empty states. */
export function PreviewChart({
  metric,
  threshold,
  points,
  loading,
}: {
  metric: TAlertMetric;
  threshold: number | null;
  points: TAlertPreview['points'] | undefined;
  loading: boolean;
}) {
  if (loading && !points)
    return (
      <Skeleton h={PREVIEW_HEIGHT} radius="md" aria-busy="true" aria-label={MSG_ALERTS.previewLoading} />
    );
  if (!points || !hasPreviewData(points))
    return (
      <Text
        size="sm"
        c="dimmed"
        ta="center"
        py="xl"
        data-testid="alert-preview-empty"
        style={{ border: '1px dashed var(--app-border)', borderRadius: 8 }}
      >
        {MSG_ALERTS.previewEmpty}
      </Text>
    );
  return <PreviewCanvas metric={metric} threshold={threshold} points={points} />;
}

function PreviewCanvas({
  metric,
  threshold,
  points,
}: {
  metric: TAlertMetric;
  threshold: number | null;
  points: TAlertPreview['points'];
}) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<PreviewHandle | null>(null);
  const scheme = useComputedColorScheme('light');
  const option = useMemo(
    () => buildPreviewOption(metric, threshold, points, scheme),
    [metric, threshold, points, scheme],
  );
  const optionRef = useRef(option);
  optionRef.current = option;

  // ECharts is loaded on demand (its own chunk), as the statistics screen's.
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    let disposed = false;
    let ro: ResizeObserver | null = null;
    void import('./echarts').then(({ createPreviewChart }) => {
      if (disposed) return;
      const c = createPreviewChart(node);
      chart.current = c;
      c.setOption(optionRef.current);
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
    chart.current?.setOption(option);
  }, [option]);

  return (
    <Box
      ref={el}
      role="img"
      aria-label={MSG_ALERTS.previewLabel(ALERT_METRIC_INFO[metric].label)}
      data-testid="alert-preview"
      style={{ width: '100%', height: PREVIEW_HEIGHT }}
    />
  );
}
