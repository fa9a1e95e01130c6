import { statsCsv, type TStatsRange } from '@tlprt/contract';
import { chartPointsAll } from './api';
import type { ChartInput } from './chartOption';
import { visiblePoints } from './chartSummary';

/** The CSV of the points on screen as the screen holds them, in the team's offset (the contract's
 *  statsCsv, which the API's `?format=csv` answers with too: its columns are the series table's point
 *  fields, named as the API names them, so a series added to the table is a column here without a
 *  change). The chart loads the drawn series only, so the experience columns are empty here: sample
 *  data, or a fallback; visibleCsvText has them. */
export function visibleCsv(input: ChartInput, zoom: readonly [number, number]): string {
  return statsCsv(visiblePoints(input, zoom), { utcOffset: input.utcOffset, nodr: input.nodr });
}

/** Where the chart's points came from, to ask the server for the same window with every series. */
export interface ChartSource {
  range: TStatsRange;
  teamId: number;
  keys: readonly string[];
  userId: number;
}

/**
 * The CSV of the points on screen with every column of the API's file (the experience series too):
 * the server's points of every series for the zoom window, from its first visible point to its last,
 * written in the view's time zone (the person's own when they chose one; the server's `?format=csv`
 * writes the team's). Without a source (sample data, a filtered view) the points held are written.
 */
export async function visibleCsvText(
  input: ChartInput,
  zoom: readonly [number, number],
  source: ChartSource | null,
): Promise<string> {
  const points = visiblePoints(input, zoom);
  const first = points[0];
  const last = points[points.length - 1];
  if (!source || !first || !last) return visibleCsv(input, zoom);
  const answer = await chartPointsAll(source.range, {
    apiKeys: [...source.keys],
    startTimestamp: first.datePoint,
    endTimestamp: last.datePoint,
    clientId: source.userId,
    team_id: source.teamId,
  });
  return statsCsv(answer.data, { utcOffset: input.utcOffset, nodr: input.nodr });
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
