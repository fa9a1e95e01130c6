import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface PreviewHandle {
  setOption: (option: echarts.EChartsCoreOption) => void;
  resize: () => void;
  dispose: () => void;
}

/** The only place of this feature that touches the canvas renderer (component tests replace it). */
export function createPreviewChart(el: HTMLElement): PreviewHandle {
  const chart = echarts.init(el, undefined, { renderer: 'canvas' });
  return {
    setOption: (option) => chart.setOption(option, { notMerge: true }),
    resize: () => chart.resize(),
    dispose: () => chart.dispose(),
  };
}
