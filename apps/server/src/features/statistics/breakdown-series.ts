import {
  BREAKDOWN_DIMENSIONS,
  DEFAULT_TIME_ZONE_NAME,
  findTimeZone,
  POINT_VALUES,
  STORED_COLUMNS,
  type TBreakdownSeriesQuery,
} from '@tlprt/contract';
import { authorizeTeam } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';
import { breakdownBuckets } from './breakdown.js';
import { BREAKDOWN_DAY, BREAKDOWN_HOUR } from './breakdown-queries.js';
import { listTeamKeys } from './queries.js';
import type { StatsSeries } from './series-answer.js';
import type { StatsService } from './service.js';
import { RETENTION_S } from './tables.js';

/**
 * The drill-down (POST /stats/v3/dashboard/breakdown/series): the chart's points of one breakdown row,
 * over the breakdown's own window, so the points add up to the row the customer clicked. The breakdown
 * is stored per hour and per UTC day only, so the points are hours, or days when the window starts
 * before the hours kept (a custom month window). Keys of other teams are ignored, as the breakdown
 * ignores them.
 */
export async function queryBreakdownSeries(
  svc: StatsService,
  actor: UserRow,
  q: TBreakdownSeriesQuery,
): Promise<StatsSeries> {
  const { team } = await authorizeTeam(svc.ctx, actor, q.team_id, 'statistics.read');
  const nowSec = Math.floor(svc.ctx.now() / 1000);
  const { size, from, to } = breakdownBuckets(q.range, q.startTimestamp, q.endTimestamp, nowSec);
  const step = from >= nowSec - RETENTION_S.twenty ? BREAKDOWN_HOUR : BREAKDOWN_DAY;
  // The breakdown's last bucket, whole, but no point after the one being counted now.
  const last = Math.min(to + size - step, nowSec - (nowSec % step));
  const n = from <= last ? (last - from) / step + 1 : 0;
  const sums = new Float64Array(n * POINT_VALUES);

  const asked = new Set(q.apiKeys);
  const keyIds: number[] = [];
  let leftOut = 0;
  for (const k of await listTeamKeys(svc.ctx.db, team.id)) {
    if (asked.has(k.key_hash)) keyIds.push(k.id);
    else leftOut++;
  }
  if (keyIds.length > 0 && n > 0) {
    const rows = await svc.ctx.statsStore.readBreakdownSeries({
      teamId: team.id,
      keyIds,
      allKeys: leftOut === 0,
      size: step,
      dim: BREAKDOWN_DIMENSIONS.indexOf(q.by),
      name: q.value,
      from,
      to: last,
    });
    for (const r of rows) {
      const at = ((Number(r.bucket) - from) / step) * POINT_VALUES;
      STORED_COLUMNS.forEach((c, i) => {
        sums[at + i] = Number(r[c.column] ?? 0);
      });
    }
  }
  return {
    from,
    to: last,
    step,
    n,
    sums,
    summed: new Float64Array(POINT_VALUES),
    drawnOnly: false,
    nodr: team.version === 1,
    timeZone: findTimeZone(team.time_zone_id)?.name ?? DEFAULT_TIME_ZONE_NAME,
  };
}
