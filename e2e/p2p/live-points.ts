import type { APIRequestContext } from '@playwright/test';
import { PATHS, type TStatsPoint, ZStatsResponse } from '@tlprt/contract';

/** The Live range's points (last 5 minutes) of one key, read through the statistics API as the chart does. */
export async function livePoints(
  request: APIRequestContext,
  team: { teamId: number; keyHash: string; auth: Record<string, string> },
): Promise<TStatsPoint[]> {
  const now = Math.floor(Date.now() / 1000);
  const res = await request.post(PATHS.statistics.live(team.teamId), {
    headers: team.auth,
    data: { apiKeys: [team.keyHash], startTimestamp: now - 300, endTimestamp: now, team_id: team.teamId },
  });
  return ZStatsResponse.parse(await res.json()).data;
}
