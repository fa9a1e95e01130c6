import {
  BREAKDOWN_DIMENSIONS,
  MSG,
  MSG_STATS_EXPORT,
  POINT_FIELDS,
  POINT_VALUES,
  STORED_COLUMNS,
  type TBreakdownBy,
  type TBreakdownResponse,
  type TBreakdownRow,
  type TStatsRange,
} from '@tlprt/contract';
import { authorizeTeam } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { BREAKDOWN_DAY, BREAKDOWN_HOUR } from './breakdown-queries.js';
import { findTeamFacts, listTeamKeys } from './queries.js';
import { fieldValue, servedWindow } from './series-answer.js';
import type { StatsService } from './service.js';

/** A breakdown as answered, with whether the team sees the nodr fields (version 1). */
export interface Breakdown {
  answer: TBreakdownResponse;
  nodr: boolean;
}

/**
 * A range's breakdown (docs/DESIGN.md §7): the day and live ranges from whole hours, week and month from whole
 * UTC days, so the window answered (startTimestamp, endTimestamp) is the buckets' and may start
 * earlier than the chart's. Keys of other teams are ignored as the charts ignore them.
 */
export async function queryBreakdown(
  svc: StatsService,
  actor: UserRow,
  q: {
    team_id: number;
    range: TStatsRange;
    by: TBreakdownBy;
    apiKeys: readonly string[];
    startTimestamp: number;
    endTimestamp: number;
  },
): Promise<Breakdown> {
  const { team } = await authorizeTeam(svc.ctx, actor, q.team_id, 'statistics.read');
  return teamBreakdown(svc, team, q.range, q.by, q.apiKeys, q.startTimestamp, q.endTimestamp, false);
}

/** The export API's breakdown: keys of another team are a 400 naming `keys`, as for its points. */
export async function exportBreakdown(
  svc: StatsService,
  teamId: number,
  q: {
    range: TStatsRange;
    by: TBreakdownBy;
    keys: readonly string[];
    from?: number | undefined;
    to?: number | undefined;
  },
): Promise<Breakdown> {
  const team = await findTeamFacts(svc.ctx.db, teamId);
  if (!team) throw badRequest(MSG_STATS_EXPORT.otherTeamKey, { keys: MSG_STATS_EXPORT.otherTeamKey });
  const nowSec = Math.floor(svc.ctx.now() / 1000);
  return teamBreakdown(svc, team, q.range, q.by, q.keys, q.from ?? 0, q.to ?? nowSec, true);
}

/** The buckets a breakdown sums, [from, to] their starts: the day and live ranges whole hours, week
 *  and month whole UTC days. The drill-down's series (breakdown-series.ts) covers the same window. */
export function breakdownBuckets(range: TStatsRange, start: number, end: number, nowSec: number) {
  const size = range === 'live' || range === 'day' ? BREAKDOWN_HOUR : BREAKDOWN_DAY;
  // The chart's window (a custom one too), widened to whole buckets.
  const { from: windowStart, to: windowEnd } = servedWindow(range, start, end, nowSec);
  return { size, from: windowStart - (windowStart % size), to: windowEnd - (windowEnd % size) };
}

async function teamBreakdown(
  svc: StatsService,
  team: { id: number; version: number },
  range: TStatsRange,
  by: TBreakdownBy,
  apiKeys: readonly string[],
  start: number,
  end: number,
  strictKeys: boolean,
): Promise<Breakdown> {
  const nowSec = Math.floor(svc.ctx.now() / 1000);
  const { size, from, to } = breakdownBuckets(range, start, end, nowSec);
  const asked = new Set(apiKeys);
  const keyIds: number[] = [];
  let leftOut = 0;
  const own = new Set<string>();
  for (const k of await listTeamKeys(svc.ctx.db, team.id)) {
    own.add(k.key_hash);
    if (asked.has(k.key_hash)) keyIds.push(k.id);
    else leftOut++;
  }
  if (strictKeys && apiKeys.some((h) => !own.has(h)))
    throw badRequest(MSG_STATS_EXPORT.otherTeamKey, { keys: MSG_STATS_EXPORT.otherTeamKey });
  const nodr = team.version === 1;
  const fields = POINT_FIELDS.filter((f) => nodr || !f.version1Only);
  const data: TBreakdownRow[] = [];
  if (keyIds.length > 0 && from <= to) {
    const rows = await svc.ctx.statsStore.readBreakdown(
      {
        teamId: team.id,
        keyIds,
        allKeys: leftOut === 0,
        size,
        dim: BREAKDOWN_DIMENSIONS.indexOf(by),
        from,
        to,
      },
      svc.blockCache,
    );
    const values = new Float64Array(POINT_VALUES);
    for (const r of rows) {
      STORED_COLUMNS.forEach((c, i) => {
        values[i] = Number(r[c.column] ?? 0);
      });
      const row: Record<string, number | string> = { name: r.name };
      for (const f of fields) row[f.field] = fieldValue(f, values, 0);
      data.push(row as TBreakdownRow);
    }
  }
  return {
    answer: { message: MSG.ok, by, data, step: size, startTimestamp: from, endTimestamp: to + size - 1 },
    nodr,
  };
}
