import { INGEST_MAX_ERRORS, PATHS, type TIngestResponse, ZIngestResponse } from '@tlprt/contract';
import type { Api, Res } from './http.js';

/**
 * Sends `reports` as browsers do (docs/DESIGN.md §7: without an API token, one request per session) and
 * answers as one batch would: accepted and rejected summed, errors by their index in `reports`. Tests of
 * aggregation send several sessions at once through it; tests of the batch rule post directly.
 */
export async function ingestAsBrowsers(
  api: Api,
  reports: unknown[],
  headers: Record<string, string> = {},
): Promise<Res<TIngestResponse>> {
  const groups = new Map<string, number[]>();
  reports.forEach((r, i) => {
    const id =
      typeof r === 'object' && r !== null
        ? `s:${JSON.stringify((r as { sessionId?: unknown }).sessionId)}`
        : `i:${i}`;
    groups.set(id, [...(groups.get(id) ?? []), i]);
  });
  const merged: TIngestResponse = { accepted: 0, rejected: 0, errors: [] };
  let last: Res<TIngestResponse> | undefined;
  for (const indexes of groups.values()) {
    const res = await api.post<TIngestResponse>(
      PATHS.statistics.ingest,
      { reports: indexes.map((i) => reports[i]) },
      headers,
    );
    if (res.status !== 202) return res;
    // The 202 is written as JSON text (ingestRoutes): held to the exact shape.
    ZIngestResponse.strict().parse(res.body);
    last = res;
    merged.accepted += res.body.accepted;
    merged.rejected += res.body.rejected;
    for (const e of res.body.errors)
      merged.errors.push({ index: indexes[e.index] as number, message: e.message });
  }
  merged.errors.sort((a, b) => a.index - b.index);
  merged.errors = merged.errors.slice(0, INGEST_MAX_ERRORS);
  return { status: 202, headers: last?.headers ?? new Headers(), body: merged };
}
