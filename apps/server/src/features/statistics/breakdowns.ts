import {
  addReportValues,
  BREAKDOWN_DIMENSIONS,
  BREAKDOWN_NAMES_PER_BUCKET,
  BREAKDOWN_OTHER,
  BREAKDOWN_UNKNOWN,
  POINT_VALUES,
  reportSessionBits,
  type TReportValues,
} from '@tlprt/contract';
import { BREAKDOWN_HOUR, type BreakdownRow } from './breakdown-queries.js';
import { PEAK_COLUMNS } from './tables.js';
import type { ViewerFacts } from './viewer-facts.js';

/** A row of one key, hour, dimension and name being gathered. */
interface Gathered {
  keyId: number;
  bucket: number;
  dim: number;
  name: string;
  /** Sums since the last write. */
  values: Float64Array;
  /** The hour's sessions of this row so far per peak series (PEAK_COLUMNS' order). */
  viewers: Float64Array;
  /** Something new since the last write. */
  dirty: boolean;
}

/** The longest a stream's name is kept (host and path). */
const STREAM_NAME_MAX = 300;

/** A report's stream as stored: the URL's host and path (no scheme, query, fragment or credentials). */
export function streamName(stream: string | undefined): string {
  if (!stream) return BREAKDOWN_UNKNOWN;
  try {
    const url = new URL(stream);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return BREAKDOWN_UNKNOWN;
    return `${url.host}${url.pathname}`.slice(0, STREAM_NAME_MAX);
  } catch {
    return BREAKDOWN_UNKNOWN;
  }
}

/** A session of a key's hour: per dimension, the row it was last counted in and its peak series there
 *  as bits. */
interface Seen {
  rows: Array<Gathered | undefined>;
  bits: number[];
}
/** A key's rows of one hour (per dimension, name → row) and its sessions. */
interface KeyHour {
  rows: Array<Map<string, Gathered>>;
  sessions: Map<string, Seen>;
}

/** Stream names of raw URLs, remembered (a viewer reports the same URL every 10 s). */
const streamNames = new Map<string, string>();
function cachedStreamName(stream: string | undefined): string {
  if (!stream) return BREAKDOWN_UNKNOWN;
  let name = streamNames.get(stream);
  if (name === undefined) {
    if (streamNames.size >= 10_000) streamNames.clear();
    name = streamName(stream);
    streamNames.set(stream, name);
  }
  return name;
}

const UNKNOWN_FACTS: ViewerFacts = {
  country: BREAKDOWN_UNKNOWN,
  network: BREAKDOWN_UNKNOWN,
  browser: BREAKDOWN_UNKNOWN,
  os: BREAKDOWN_UNKNOWN,
};

/**
 * The breakdowns of this node's reports (DESIGN §7), per key, hour, dimension and name. Cardinality is
 * bounded where it is born: the first BREAKDOWN_NAMES_PER_BUCKET names of a key, hour and dimension
 * get rows of their own on this node, the rest are counted as "Other". An hour's rows stay in memory
 * until reports for it can no longer come (10 minutes late at most), for their viewers. On the ingest's
 * hot path: a report's values are computed once for its five rows, and rows are found by number, not
 * by strings built per report.
 */
export class BreakdownAggregator {
  /** key id → hour → its rows. */
  private keys = new Map<number, Map<number, KeyHour>>();
  private readonly scratch = new Float64Array(POINT_VALUES);
  private readonly touched: number[] = [];

  add(
    keyId: number,
    tsSec: number,
    sessionId: string,
    report: TReportValues,
    facts: ViewerFacts | null,
  ): void {
    const bucket = tsSec - (tsSec % BREAKDOWN_HOUR);
    let hours = this.keys.get(keyId);
    if (!hours) {
      hours = new Map();
      this.keys.set(keyId, hours);
    }
    let hour = hours.get(bucket);
    if (!hour) {
      hour = { rows: BREAKDOWN_DIMENSIONS.map(() => new Map<string, Gathered>()), sessions: new Map() };
      hours.set(bucket, hour);
    }
    // The report's values once: the indexes it touches and their amounts.
    const scratch = this.scratch;
    scratch.fill(0);
    addReportValues(scratch, report);
    const touched = this.touched;
    touched.length = 0;
    for (let i = 0; i < POINT_VALUES; i++) if (scratch[i] !== 0) touched.push(i);
    const bits = reportSessionBits(report);
    let seen: Seen | undefined;
    if (bits >= 0) {
      seen = hour.sessions.get(sessionId);
      if (!seen) {
        seen = { rows: [], bits: [] };
        hour.sessions.set(sessionId, seen);
      }
    }
    const f = facts ?? UNKNOWN_FACTS;
    const names = [
      cachedStreamName((report as { stream?: string }).stream),
      f.country,
      f.network,
      f.browser,
      f.os,
    ];
    for (let dim = 0; dim < names.length; dim++) {
      const byName = hour.rows[dim] as Map<string, Gathered>;
      let name = names[dim] as string;
      let row = byName.get(name);
      if (!row) {
        const named = byName.size - (byName.has(BREAKDOWN_OTHER) ? 1 : 0);
        if (named >= BREAKDOWN_NAMES_PER_BUCKET) {
          name = BREAKDOWN_OTHER;
          row = byName.get(name);
        }
        if (!row) {
          row = {
            keyId,
            bucket,
            dim,
            name,
            values: new Float64Array(POINT_VALUES),
            viewers: new Float64Array(PEAK_COLUMNS.length),
            dirty: false,
          };
          byName.set(name, row);
        }
      }
      const values = row.values;
      for (const i of touched) values[i] = (values[i] ?? 0) + (scratch[i] ?? 0);
      row.dirty = true;
      if (seen) {
        // A session that moved to another row (another stream) counts in both.
        const fresh = seen.rows[dim] !== row;
        const had = fresh ? 0 : (seen.bits[dim] ?? 0);
        if (fresh || (had | bits) !== had) {
          PEAK_COLUMNS.forEach((p, j) => {
            if (p.bit === 0 ? fresh : bits & p.bit & ~had) row.viewers[j] = (row.viewers[j] ?? 0) + 1;
          });
          seen.rows[dim] = row;
          seen.bits[dim] = had | bits;
        }
      }
    }
  }

  private *allRows(): Generator<Gathered> {
    for (const hours of this.keys.values())
      for (const hour of hours.values()) for (const byName of hour.rows) yield* byName.values();
  }

  /** The rows with something new, to write: their sums since the last write and their viewers so far.
   *  The sums start over; `restore` gives them back if the write fails. */
  take(): BreakdownRow[] {
    const out: BreakdownRow[] = [];
    for (const row of this.allRows()) {
      if (!row.dirty) continue;
      const values = row.values;
      PEAK_COLUMNS.forEach((p, j) => {
        values[p.index] = row.viewers[j] ?? 0;
      });
      out.push({ keyId: row.keyId, bucket: row.bucket, dim: row.dim, name: row.name, values });
      row.values = new Float64Array(POINT_VALUES);
      row.dirty = false;
    }
    return out;
  }

  /** Gives back the sums of rows whose write failed (the database down): they go with the next write. */
  restore(rows: readonly BreakdownRow[]): void {
    const peaks = new Set(PEAK_COLUMNS.map((p) => p.index));
    for (const r of rows) {
      const row = this.keys.get(r.keyId)?.get(r.bucket)?.rows[r.dim]?.get(r.name);
      if (!row) continue;
      for (let i = 0; i < POINT_VALUES; i++)
        if (!peaks.has(i)) row.values[i] = (row.values[i] ?? 0) + (r.values[i] ?? 0);
      row.dirty = true;
    }
  }

  /** Forgets the hours no report can come for any more, once written. */
  prune(nowSec: number): void {
    const oldest = nowSec - (nowSec % BREAKDOWN_HOUR) - BREAKDOWN_HOUR;
    for (const [keyId, hours] of this.keys) {
      for (const [bucket, hour] of hours) {
        if (bucket < oldest && hour.rows.every((byName) => [...byName.values()].every((r) => !r.dirty)))
          hours.delete(bucket);
      }
      if (hours.size === 0) this.keys.delete(keyId);
    }
  }
}
