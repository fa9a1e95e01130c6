import { REPORT_COUNT_LIMITS, type TIngestReport, type TReportCountField } from '@tlprt/contract';
import type { ViewerFacts } from './viewer-facts.js';

/* The statistics journal's records (journal.ts holds their lines): what the ingest writes for each
 * report it counts, and what the server counts itself, read back by a replay (service.ts). */

/** A journal record's counts before its startup times: the fields reports had when the journal came
 *  (0021), in a fixed order. A count added since goes after the startup times (ADDED_COUNTS), so that a
 *  journal written by an earlier version and replayed by this one reads every field where it was. */
const COUNT_FIELDS = [
  'cdnBytes',
  'p2pBytes',
  'nodrBytes',
  'rejectedBytes',
  'playMs',
  'stallMs',
  'plays',
  'failures',
  'peers',
] as const satisfies readonly TReportCountField[];
const ADDED_COUNTS = (Object.keys(REPORT_COUNT_LIMITS) as TReportCountField[]).filter(
  (f) => !(COUNT_FIELDS as readonly string[]).includes(f),
);
/** A journal record: [0, key, ts, session, seq, stream, facts, ...counts, startupMs, ...added counts]
 *  for a report counted; [1, key, ts, series index, amount, stream] for bytes the server counted itself. */
export type ReportRecord = [
  0,
  number,
  number,
  string,
  number | null,
  string | null,
  ViewerFacts | null,
  ...unknown[],
];
export type CountRecord = [1, number, number, number, number, string | null];

/** The JSON of each viewer's facts, made once: the resolver answers one object per address and user
 *  agent, and a viewer reports every 10 s. */
const factsJson = new WeakMap<ViewerFacts, string>();
function jsonOfFacts(facts: ViewerFacts | null): string {
  if (facts === null) return 'null';
  let json = factsJson.get(facts);
  if (json === undefined) {
    json = JSON.stringify(facts);
    factsJson.set(facts, json);
  }
  return json;
}

/** A report's journal record (ReportRecord) as JSON text. Written out by hand: it runs for every report
 *  accepted, and the counts are whole numbers (checked by the ingest), whose JSON is their String. */
export function reportRecord(keyId: number, r: TIngestReport, facts: ViewerFacts | null): string {
  const stream = r.stream === undefined ? 'null' : JSON.stringify(r.stream);
  let text = `[0,${keyId},${r.ts},${JSON.stringify(r.sessionId)},${r.seq ?? 'null'},${stream},${jsonOfFacts(facts)}`;
  for (const f of COUNT_FIELDS) text += `,${r[f] ?? 0}`;
  text += `,${r.startupMs === undefined ? 'null' : JSON.stringify(r.startupMs)}`;
  for (const f of ADDED_COUNTS) text += `,${r[f] ?? 0}`;
  return `${text}]`;
}

export function reportOf(rec: ReportRecord): TIngestReport {
  const r: Record<string, unknown> = { apiKey: '', sessionId: rec[3], ts: rec[2] };
  if (rec[4] !== null) r.seq = rec[4];
  if (rec[5] !== null) r.stream = rec[5];
  COUNT_FIELDS.forEach((f, i) => {
    const v = rec[7 + i];
    if (typeof v === 'number' && (v !== 0 || f === 'cdnBytes' || f === 'p2pBytes')) r[f] = v;
  });
  const startups = rec[7 + COUNT_FIELDS.length];
  if (Array.isArray(startups)) r.startupMs = startups;
  ADDED_COUNTS.forEach((f, i) => {
    const v = rec[8 + COUNT_FIELDS.length + i];
    if (typeof v === 'number' && v !== 0) r[f] = v;
  });
  return r as unknown as TIngestReport;
}
