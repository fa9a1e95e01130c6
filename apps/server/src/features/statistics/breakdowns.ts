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
  /** The hour's sessions with their peak series as bits: the row's viewers are counted from all of
   *  them at every write. */
  sessions: Map<string, number>;
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

/**
 * The breakdowns of this node's reports (DESIGN §7), per key, hour, dimension and name. Cardinality is
 * bounded where it is born: the first BREAKDOWN_NAMES_PER_BUCKET names of a key, hour and dimension
 * get rows of their own on this node, the rest are counted as "Other". An hour's rows stay in memory
 * until reports for it can no longer come (10 minutes late at most), for their viewers.
 */
export class BreakdownAggregator {
  private rows = new Map<string, Gathered>();
  private names = new Map<string, Set<string>>();

  add(
    keyId: number,
    tsSec: number,
    sessionId: string,
    report: TReportValues,
    facts: ViewerFacts | null,
  ): void {
    const bucket = tsSec - (tsSec % BREAKDOWN_HOUR);
    const bits = reportSessionBits(report);
    const unknown = facts === null;
    const names = [
      streamName((report as { stream?: string }).stream),
      unknown ? BREAKDOWN_UNKNOWN : facts.country,
      unknown ? BREAKDOWN_UNKNOWN : facts.network,
      unknown ? BREAKDOWN_UNKNOWN : facts.browser,
      unknown ? BREAKDOWN_UNKNOWN : facts.os,
    ];
    for (let dim = 0; dim < BREAKDOWN_DIMENSIONS.length; dim++) {
      const bucketKey = `${keyId}|${bucket}|${dim}`;
      let admitted = this.names.get(bucketKey);
      if (!admitted) {
        admitted = new Set();
        this.names.set(bucketKey, admitted);
      }
      let name = names[dim] as string;
      if (!admitted.has(name)) {
        if (admitted.size >= BREAKDOWN_NAMES_PER_BUCKET) name = BREAKDOWN_OTHER;
        else admitted.add(name);
      }
      const rowKey = `${bucketKey}|${name}`;
      let row = this.rows.get(rowKey);
      if (!row) {
        row = {
          keyId,
          bucket,
          dim,
          name,
          values: new Float64Array(POINT_VALUES),
          sessions: new Map(),
          dirty: false,
        };
        this.rows.set(rowKey, row);
      }
      addReportValues(row.values, report);
      row.dirty = true;
      if (bits >= 0) row.sessions.set(sessionId, (row.sessions.get(sessionId) ?? 0) | bits);
    }
  }

  /** The rows with something new, to write: their sums since the last write and their viewers so far.
   *  The sums start over; `restore` gives them back if the write fails. */
  take(): BreakdownRow[] {
    const out: BreakdownRow[] = [];
    for (const row of this.rows.values()) {
      if (!row.dirty) continue;
      const values = row.values;
      for (const p of PEAK_COLUMNS) {
        let n = 0;
        if (p.bit === 0) n = row.sessions.size;
        else for (const bits of row.sessions.values()) if (bits & p.bit) n++;
        values[p.index] = n;
      }
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
      const row = this.rows.get(`${r.keyId}|${r.bucket}|${r.dim}|${r.name}`);
      if (!row) continue;
      for (let i = 0; i < POINT_VALUES; i++)
        if (!peaks.has(i)) row.values[i] = (row.values[i] ?? 0) + (r.values[i] ?? 0);
      row.dirty = true;
    }
  }

  /** Forgets the hours no report can come for any more (written already). */
  prune(nowSec: number): void {
    const oldest = nowSec - (nowSec % BREAKDOWN_HOUR) - BREAKDOWN_HOUR;
    for (const [k, row] of this.rows) if (row.bucket < oldest && !row.dirty) this.rows.delete(k);
    for (const k of this.names.keys()) if (Number(k.split('|')[1]) < oldest) this.names.delete(k);
  }
}
