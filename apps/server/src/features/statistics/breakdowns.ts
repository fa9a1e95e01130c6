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
  /** Its bytes of the hour so far (an upper bound once it took an evicted name's place): the rank. */
  traffic: number;
  /** Written under its own name at least once (its sessions are in that row already). */
  written: boolean;
}

/** The breakdown by stream's index among the dimensions. */
const STREAM_DIM = BREAKDOWN_DIMENSIONS.indexOf('stream');

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

/** Names followed per key, hour and dimension: twice those written, so that a name that comes late
 *  with more traffic still finds a place (below). */
const TRACKED_NAMES = 2 * BREAKDOWN_NAMES_PER_BUCKET;

function addInto(target: Float64Array, source: Float64Array): void {
  for (let i = 0; i < target.length; i++) target[i] = (target[i] as number) + (source[i] ?? 0);
}

/** The "Other" row of the key, hour and dimension `like` belongs to, made when first needed. */
function otherOf(byName: Map<string, Gathered>, like: Gathered): Gathered {
  let other = byName.get(BREAKDOWN_OTHER);
  if (!other) {
    other = newRow(like.keyId, like.bucket, like.dim, BREAKDOWN_OTHER);
    byName.set(BREAKDOWN_OTHER, other);
  }
  return other;
}

/** Makes room in a full set of names: the one with the least traffic leaves, its unwritten sums (and,
 *  never written under its name, its sessions) going to "Other". Answers its traffic. */
function evictLeast(byName: Map<string, Gathered>): number {
  let least: Gathered | undefined;
  for (const row of byName.values())
    if (row.name !== BREAKDOWN_OTHER && (!least || row.traffic < least.traffic)) least = row;
  if (!least) return 0;
  byName.delete(least.name);
  const other = otherOf(byName, least);
  addInto(other.values, least.values);
  if (!least.written) addInto(other.viewers, least.viewers);
  if (least.dirty) other.dirty = true;
  return least.traffic;
}

/** A name's row of a key's hour and dimension; a new name beyond TRACKED_NAMES takes the place of the
 *  one with the least traffic, and its rank starts from that one's. */
function rowOf(hour: KeyHour, keyId: number, bucket: number, dim: number, name: string): Gathered {
  const byName = hour.rows[dim] as Map<string, Gathered>;
  let row = byName.get(name);
  if (!row) {
    row = newRow(keyId, bucket, dim, name);
    if (byName.size - (byName.has(BREAKDOWN_OTHER) ? 1 : 0) >= TRACKED_NAMES)
      row.traffic = evictLeast(byName);
    byName.set(name, row);
  }
  return row;
}

const newRow = (keyId: number, bucket: number, dim: number, name: string): Gathered => ({
  keyId,
  bucket,
  dim,
  name,
  values: new Float64Array(POINT_VALUES),
  viewers: new Float64Array(PEAK_COLUMNS.length),
  dirty: false,
  traffic: 0,
  written: false,
});

/**
 * The breakdowns of this node's reports (docs/DESIGN.md §7), per key, hour, dimension and name. Cardinality is
 * bounded where it is born, and by traffic, not by arrival: the key hashes are public, so anyone can
 * report 50 made-up streams at the start of an hour, and the first 50 names would then push every real
 * stream into "Other". Each key, hour and dimension follows at most TRACKED_NAMES names; a new name
 * beyond that takes the place of the one with the least traffic, and its rank starts from that one's
 * (the Space-Saving scheme of Metwally et al.: a name with more than 1/TRACKED_NAMES of the traffic is
 * never lost), the evicted name's unwritten sums going to "Other". Each write names the
 * BREAKDOWN_NAMES_PER_BUCKET names of the most traffic so far; the others' sums go to "Other". An hour's
 * rows stay in memory until reports for it can no longer come (10 minutes late at most), for their
 * viewers. On the ingest's hot path: a report's values are computed once for its five rows, and rows
 * are found by number, not by strings built per report.
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
    const hour = this.hourOf(keyId, bucket);
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
    const traffic = report.cdnBytes + report.p2pBytes + (report.nodrBytes ?? 0);
    for (let dim = 0; dim < names.length; dim++) {
      const row = rowOf(hour, keyId, bucket, dim, names[dim] as string);
      row.traffic += traffic;
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

  /**
   * Adds `amount` to the sum at `index` (a series the server counts itself, the verification bytes) of
   * a key's hour in the breakdown by stream, under `stream`'s name (Unknown without one). The other
   * dimensions tell of a viewer, which the server's own fetches have none of. The bytes rank the name
   * as a viewer's do: a stream known to this node by its verification alone keeps its own row.
   */
  addCount(keyId: number, tsSec: number, stream: string | undefined, index: number, amount: number): void {
    const bucket = tsSec - (tsSec % BREAKDOWN_HOUR);
    const row = rowOf(this.hourOf(keyId, bucket), keyId, bucket, STREAM_DIM, cachedStreamName(stream));
    row.traffic += amount;
    row.values[index] = (row.values[index] ?? 0) + amount;
    row.dirty = true;
  }

  /** A key's hour being gathered, made when first needed. */
  private hourOf(keyId: number, bucket: number): KeyHour {
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
    return hour;
  }

  /** The rows with something new, to write: their sums since the last write and their viewers so far,
   *  under their names for the BREAKDOWN_NAMES_PER_BUCKET names of the most traffic, as "Other" for the
   *  rest. The sums start over; `restore` gives them back if the write fails. */
  take(): BreakdownRow[] {
    const out: BreakdownRow[] = [];
    const startOver = (row: Gathered) => {
      row.values = new Float64Array(POINT_VALUES);
      row.dirty = false;
    };
    /** Its sums since the last write, with `viewers` (the hour's so far) as its peak series. */
    const write = (row: Gathered, viewers: ArrayLike<number>) => {
      const values = row.values;
      PEAK_COLUMNS.forEach((p, j) => {
        values[p.index] = viewers[j] ?? 0;
      });
      out.push({ keyId: row.keyId, bucket: row.bucket, dim: row.dim, name: row.name, values });
      startOver(row);
    };
    for (const hours of this.keys.values())
      for (const hour of hours.values())
        for (const byName of hour.rows) {
          const other = byName.get(BREAKDOWN_OTHER);
          const names = byName.size - (other ? 1 : 0);
          if (names <= BREAKDOWN_NAMES_PER_BUCKET) {
            // The usual case: every name is written under its own.
            for (const row of byName.values()) {
              if (!row.dirty) continue;
              write(row, row.viewers);
              if (row !== other) row.written = true;
            }
            continue;
          }
          const ranked = [...byName.values()].filter((r) => r !== other);
          ranked.sort((a, b) => b.traffic - a.traffic);
          // "Other": its own sums and sessions, and those of every name below the written ones.
          const otherRow = otherOf(byName, ranked[0] as Gathered);
          const otherViewers = Float64Array.from(otherRow.viewers);
          ranked.forEach((row, rank) => {
            if (rank < BREAKDOWN_NAMES_PER_BUCKET) {
              if (!row.dirty) return;
              write(row, row.viewers);
              row.written = true;
              return;
            }
            if (!row.written) addInto(otherViewers, row.viewers);
            if (!row.dirty) return;
            addInto(otherRow.values, row.values);
            otherRow.dirty = true;
            startOver(row);
          });
          if (otherRow.dirty) write(otherRow, otherViewers);
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
