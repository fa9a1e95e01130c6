import {
  INGEST_ERRORS,
  INGEST_MAX_ERRORS,
  INGEST_MAX_SKEW_S,
  KEY_HASH_PATTERN,
  REPORT_COUNT_LIMITS,
  REPORT_MAX_STARTUPS,
  REPORT_STREAM_MAX,
  STARTUP_MAX_MS,
  type TIngestReport,
  type TIngestResponse,
  ZIngestReport,
} from '@tlprt/contract';
import type { UsableKeys } from '../../access/usable-keys.js';
import type { OriginGate } from '../../http/origin-gate.js';
import type { SlidingWindowCounter } from '../../lib/sliding-window.js';
import type { IngestRefusal, Metrics } from '../../metrics/index.js';
import type { StatsAggregator } from './aggregator.js';
import type { BreakdownAggregator } from './breakdowns.js';
import type { SeenReports } from './seen-reports.js';
import type { ViewerFacts } from './viewer-facts.js';

/**
 * Where a batch came from: `origin` is the browser's Origin (undefined for server-side reporters);
 * `teamId` the team of the API token that signed it (its reports may name only that team's keys);
 * `perKey`, for anonymous batches, the per-key budget of this node.
 */
export interface IngestSource {
  origin: string | undefined;
  gate: OriginGate;
  seen: SeenReports;
  teamId?: number;
  perKey?: SlidingWindowCounter;
  breakdowns: BreakdownAggregator;
  /** A report's viewer: its country, network, browser and system; null when the sender is not the
   *  viewer (a server-side reporter). */
  viewerOf: (r: TIngestReport) => ViewerFacts | null;
  /** The operators' count of reports accepted and refused (why). */
  metrics: Metrics;
}

const isWhole = (v: unknown, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
const isText = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 200;
const COUNTS = Object.entries(REPORT_COUNT_LIMITS);

/** The common case checked by hand (fast): the contract's schema, field for field; anything else goes
 *  through the schema itself for its message. */
function quickValid(r: unknown): r is TIngestReport {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as Record<string, unknown>;
  if (
    !(typeof o.apiKey === 'string' && KEY_HASH_PATTERN.test(o.apiKey)) ||
    !isText(o.sessionId) ||
    !(typeof o.ts === 'number' && Number.isSafeInteger(o.ts)) ||
    o.cdnBytes === undefined ||
    o.p2pBytes === undefined ||
    (o.seq !== undefined && !isWhole(o.seq, Number.MAX_SAFE_INTEGER)) ||
    (o.stream !== undefined && !(typeof o.stream === 'string' && o.stream.length <= REPORT_STREAM_MAX))
  )
    return false;
  for (const [field, max] of COUNTS) {
    const v = o[field];
    if (v !== undefined && !isWhole(v, max)) return false;
  }
  // Bytes from peers of other networks are part of the P2P bytes (the schema's refinement).
  if (o.p2pCrossBytes !== undefined && (o.p2pCrossBytes as number) > (o.p2pBytes as number)) return false;
  const startups = o.startupMs;
  if (startups === undefined) return true;
  return (
    Array.isArray(startups) &&
    startups.length <= REPORT_MAX_STARTUPS &&
    startups.every((t) => isWhole(t, STARTUP_MAX_MS))
  );
}

function schemaMessage(r: unknown): string {
  const parsed = ZIngestReport.safeParse(r);
  if (parsed.success) return 'Invalid report';
  const issue = parsed.error.issues[0];
  if (!issue) return 'Invalid report';
  return issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}

/** docs/DESIGN.md §7: each report validated and accepted or rejected on its own. */
export async function ingestReports(
  reports: unknown[],
  keys: UsableKeys,
  agg: StatsAggregator,
  nowMs: number,
  source: IngestSource,
): Promise<TIngestResponse> {
  const now = Math.floor(nowMs / 1000);
  const errors: TIngestResponse['errors'] = [];
  let rejected = 0;
  const reject = (index: number, message: string, reason: IngestRefusal) => {
    rejected++;
    source.metrics.ingestRefused[reason].inc();
    if (errors.length < INGEST_MAX_ERRORS) errors.push({ index, message });
  };
  const valid: Array<[number, TIngestReport]> = [];
  const hashes = new Set<string>();
  for (let i = 0; i < reports.length; i++) {
    const r = reports[i];
    if (!quickValid(r)) {
      reject(i, schemaMessage(r), 'invalid');
      continue;
    }
    if (Math.abs(r.ts - now) > INGEST_MAX_SKEW_S) {
      reject(i, INGEST_ERRORS.skew, 'clock');
      continue;
    }
    valid.push([i, r]);
    hashes.add(r.apiKey);
  }
  const verdicts = await keys.resolve(hashes);
  // docs/DESIGN.md §7: a browser's report counts only from a page of one of the key's domains.
  const fromElsewhere = new Set<string>();
  if (source.origin !== undefined) {
    for (const h of hashes) {
      if (verdicts.get(h)?.ok && !(await source.gate.forUsableKey(h, source.origin))) fromElsewhere.add(h);
    }
  }
  let accepted = 0;
  for (const [i, r] of valid) {
    const v = verdicts.get(r.apiKey);
    if (!v?.ok) {
      reject(i, v ? v.message : INGEST_ERRORS.unknownKey, 'key');
      continue;
    }
    if (fromElsewhere.has(r.apiKey)) {
      reject(i, INGEST_ERRORS.origin, 'origin');
      continue;
    }
    if (source.teamId !== undefined && v.key.teamId !== source.teamId) {
      reject(i, INGEST_ERRORS.notTokenTeam, 'other_team');
      continue;
    }
    if (source.perKey !== undefined && source.perKey.hit(r.apiKey) > 0) {
      reject(i, INGEST_ERRORS.keyBudget, 'key_budget');
      continue;
    }
    if (r.seq !== undefined) {
      const seen = source.seen.check(v.key.id, r.sessionId, r.seq, nowMs);
      if (seen === 'forgotten') {
        reject(i, INGEST_ERRORS.sessionForgotten, 'session_forgotten');
        continue;
      }
      accepted++;
      if (seen === 'seen') continue;
    } else accepted++;
    agg.add(v.key.id, r.ts, r.sessionId, r);
    source.breakdowns.add(v.key.id, r.ts, r.sessionId, r, source.viewerOf(r));
  }
  errors.sort((a, b) => a.index - b.index);
  if (accepted > 0) source.metrics.ingestAccepted.inc(accepted);
  return { accepted, rejected, errors };
}
