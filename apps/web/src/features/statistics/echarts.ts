import { BarChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  DataZoomComponent,
  LegendComponent,
  CanvasRenderer,
]);

export interface ChartHandle {
  /** `replace`: a new view (range, list, keys) starts over; otherwise new points are merged in, which
   *  keeps an open tooltip where it was. */
  setOption: (option: echarts.EChartsCoreOption, replace: boolean) => void;
  onZoom: (handler: (startPct: number, endPct: number) => void) => void;
  resize: () => void;
  dispose: () => void;
}

/** The only place that touches the canvas renderer (component tests replace this module). */
export function createChart(el: HTMLElement): ChartHandle {
  const chart = echarts.init(el, undefined, { renderer: 'canvas' });
  return {
    setOption: (option, replace) => chart.setOption(option, { notMerge: replace }),
    onZoom: (handler) => {
      chart.on('datazoom', () => {
        const dz = (chart.getOption() as { dataZoom?: { start?: number; end?: number }[] }).dataZoom?.[0];
        handler(dz?.start ?? 0, dz?.end ?? 100);
      });
    },
    resize: () => chart.resize(),
    dispose: () => chart.dispose(),
  };
}
