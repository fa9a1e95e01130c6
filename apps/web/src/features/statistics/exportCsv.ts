import { statsCsv } from '@tlprt/contract';
import type { ChartInput } from './chartOption';
import { zoomIndexes } from './chartOption';

/** The CSV of the points on screen: the chart's zoom window of its summed points, in the team's
 *  offset (the contract's statsCsv, which the API's `?format=csv` answers with too). */
export function visibleCsv(input: ChartInput, zoom: readonly [number, number]): string {
  const [from, to] = zoomIndexes(input.points.length, zoom[0], zoom[1]);
  return statsCsv(input.points.slice(from, to + 1), { utcOffset: input.utcOffset, nodr: input.nodr });
}

/** Hands a text to the browser as a downloaded file. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
