import { describe, expect, it } from 'vitest';
import { emptySeries } from './series.js';
import { INGEST_MAX_BYTES, MSG_REPORT_FIELDS, ZIngestReport, ZStatsPoint } from './statistics.js';

const report = { apiKey: 'k1', sessionId: 's', ts: 1_800_000_000, cdnBytes: 1, p2pBytes: 0 };
const point = { datePoint: 0, ...emptySeries() };

describe('refused peer bytes', () => {
  it('are optional in a report, a whole count up to the per-report ceiling', () => {
    expect(ZIngestReport.safeParse(report).success).toBe(true);
    expect(ZIngestReport.safeParse({ ...report, rejectedBytes: INGEST_MAX_BYTES }).success).toBe(true);
    for (const bad of [-1, 0.5, INGEST_MAX_BYTES + 1, '3']) {
      const r = ZIngestReport.safeParse({ ...report, rejectedBytes: bad });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(['rejectedBytes']);
    }
  });
  it('are in every point of an answer', () => {
    expect(ZStatsPoint.strict().safeParse(point).success).toBe(true);
    const { rejectedDwSize: _, ...without } = point;
    expect(ZStatsPoint.safeParse(without).success).toBe(false);
  });
});

describe('P2P bytes from other networks', () => {
  it('are optional, at most the report’s P2P bytes, refused by name above them', () => {
    expect(ZIngestReport.safeParse({ ...report, p2pBytes: 10, p2pCrossBytes: 10 }).success).toBe(true);
    expect(ZIngestReport.safeParse({ ...report, p2pBytes: 10, p2pCrossBytes: 0 }).success).toBe(true);
    const r = ZIngestReport.safeParse({ ...report, p2pBytes: 10, p2pCrossBytes: 11 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({
      path: ['p2pCrossBytes'],
      message: MSG_REPORT_FIELDS.crossAboveP2p,
    });
  });
});
