import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';
import { PATHS } from '@tlprt/contract';

/** Reports `sessions` viewers of a key for this minute, each with the given bytes, as browsers send
 *  them: one session per request (batches of many need an API token). */
export async function ingest(
  request: APIRequestContext,
  keyHash: string,
  sessions: number,
  cdnBytes: number,
  p2pBytes: number,
) {
  const ts = Math.floor(Date.now() / 1000);
  for (let i = 0; i < sessions; i += 1) {
    const report = {
      apiKey: keyHash,
      sessionId: `s${i}-${keyHash.slice(0, 6)}-${ts}`,
      ts,
      cdnBytes,
      p2pBytes,
    };
    const res = await request.post(PATHS.statistics.ingest, { data: { reports: [report] } });
    expect(res.status()).toBe(202);
    expect(((await res.json()) as { accepted: number }).accepted).toBe(1);
  }
}
