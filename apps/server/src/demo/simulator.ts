import {
  addReportValues,
  BREAKDOWN_DIMENSIONS,
  columnIndex,
  PEAK_SERIES,
  POINT_VALUES,
  STARTUP_BUCKETS_MS,
  type TIngestReport,
} from '@tlprt/contract';
import {
  audienceModel,
  type DrawnViewer,
  drawViewer,
  NAMES,
  REFUSED_ROW,
  type SimViewer,
  startupBucket,
  startupMs,
  viewerShare,
} from './audience.js';

export type { SimViewer } from './audience.js';

/**
 * The traffic simulator: viewer sessions with a daily and weekly pattern, joins and leaves, a P2P
 * share that grows with the audience, and an audience whose parts differ (audience.ts). Pure (no
 * I/O): `npm run simulate` sends its reports over HTTP, the demo feeds them to the in-process ingest,
 * and `backfill` aggregates history per minute, with its breakdowns per hour (DemoBreakdowns).
 */

/** Share of the traffic peers serve a typical viewer in an audience of `viewers` (grows with the
 *  swarm); a viewer's own is viewerShare of it and its sharing strength. */
export const p2pShare = (viewers: number): number => Math.min(0.85, 0.2 + 0.12 * Math.log(1 + viewers / 10));

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function rng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A number in [0, 1) fixed for `n` (the same day or hour gets the same, in the history and live). */
const fixedRandom = (n: number): number => rng(Math.imul(n | 0, 0x9e3779b1) ^ 0x5bd1e995)();

/** Viewers at each local hour, 0–23, of the peak's part: few at night, the evening peak at 21:00. */
const HOURLY = [
  0.55, 0.38, 0.25, 0.18, 0.15, 0.16, 0.22, 0.32, 0.38, 0.4, 0.42, 0.45, 0.5, 0.5, 0.48, 0.5, 0.55, 0.63,
  0.74, 0.87, 0.97, 1, 0.92, 0.75,
];

/** A day's audience: weekends more, and each day a little more or less than the one before. */
function dayLevel(day: number): number {
  const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 is Sunday
  return (weekday === 0 || weekday === 6 ? 1.15 : 1) * (0.9 + 0.2 * fixedRandom(day));
}

/** The audience's part of its peak at a time, in the team's time zone (`utcOffsetMin` east of UTC):
 *  the hour's level, smoothly between hours and days. */
function dailyFactor(tsSec: number, utcOffsetMin: number): number {
  const local = tsSec + utcOffsetMin * 60;
  const hour = ((((local % 86_400) + 86_400) % 86_400) / 3600) % 24;
  const h = Math.floor(hour);
  const a = HOURLY[h] ?? 0;
  const b = HOURLY[(h + 1) % 24] ?? 0;
  // Days change at noon, halfway between two evenings.
  const days = local / 86_400 - 0.5;
  const d = Math.floor(days);
  const level = dayLevel(d) + (dayLevel(d + 1) - dayLevel(d)) * (days - d);
  return (a + (b - a) * (hour - h)) * level;
}

/** Whether a peer sends altered segments of the refused stream during the hour of `tsSec` (about three
 *  hours a day): its viewers refuse some bytes then, in the history and live alike. */
const peerRefused = (tsSec: number): boolean => fixedRandom(Math.floor(tsSec / 3600) * 7919) < 0.12;
/** Of the refused stream's viewers while a peer sends altered segments: those who met it, and the part
 *  of their P2P bytes refused. */
const REFUSING_VIEWERS = 0.3;
const REFUSED_PART = 0.05;

/** Reports in which a viewer found no peers (its bytes all from the CDN). */
const NO_PEERS = 0.1;

/** Mean video bitrate of a typical session in bytes per second (about 3 Mbit/s). */
export const MEAN_BYTES_PER_S = 375_000;

const I = {
  cdn: columnIndex('cdnBytes'),
  p2p: columnIndex('p2pBytes'),
  nodr: columnIndex('nodrBytes'),
  rejected: columnIndex('rejectedBytes'),
  cross: columnIndex('crossBytes'),
  play: columnIndex('playMs'),
  stall: columnIndex('stallMs'),
  plays: columnIndex('plays'),
  failures: columnIndex('failures'),
  ceiling: columnIndex('ceilingBytes'),
  startup: columnIndex('startup'),
  cdnUsers: columnIndex('cdnUsers'),
  p2pUsers: columnIndex('p2pUsers'),
  nodrUsers: columnIndex('nodrUsers'),
  users: columnIndex('users'),
};
const PEAKS = new Set(PEAK_SERIES.map((p) => p.index));
const BUCKETS = STARTUP_BUCKETS_MS.length + 1;

/** A key's hour of history as its breakdowns need it: the hour's values (sums, peak minutes), and per
 *  breakdown row (audience.ts NAMES) its P2P bytes, plays, failures and startup times. */
interface HourParts {
  keyId: number;
  bucket: number;
  totals: Float64Array;
  p2p: Float64Array;
  /** Of p2p, the bytes from peers of other networks. */
  cross: Float64Array;
  plays: Float64Array;
  failures: Float64Array;
  startup: Float64Array;
}

/** One row of a key's hour of a breakdown, as breakdown-queries writes it. */
export interface DemoBreakdownRow {
  keyId: number;
  bucket: number;
  dim: number;
  name: string;
  values: Float64Array;
}

/**
 * The breakdowns of simulated history, per key and hour: what historyMinutes gave each row while it
 * drew the minutes (P2P bytes from the audience's tables, plays and their startup times one by one),
 * the rest shared among the rows by their part of the viewers, bytes or rebuffering.
 */
export class DemoBreakdowns {
  private open = new Map<number, HourParts>();
  private done: HourParts[] = [];

  /** The parts of a key's hour; the key's previous hour is done. */
  hour(keyId: number, tsSec: number): HourParts {
    const bucket = tsSec - (tsSec % 3600);
    const cur = this.open.get(keyId);
    if (cur?.bucket === bucket) return cur;
    if (cur) this.done.push(cur);
    const rows = NAMES.length;
    const next = {
      keyId,
      bucket,
      totals: new Float64Array(POINT_VALUES),
      p2p: new Float64Array(rows),
      cross: new Float64Array(rows),
      plays: new Float64Array(rows),
      failures: new Float64Array(rows),
      startup: new Float64Array(rows * BUCKETS),
    };
    this.open.set(keyId, next);
    return next;
  }

  /** Every hour so far as breakdown rows (hours cut by the end of the history are completed by the rows
   *  of the next take: the writes add them up); starts over. */
  take(): DemoBreakdownRow[] {
    const hours = [...this.done, ...this.open.values()];
    this.done = [];
    this.open.clear();
    return hours.flatMap(hourRows);
  }
}

/** Adds a minute's values to its hour's: sums added, peak series the larger. */
function addMinute(parts: HourParts, values: Float64Array): void {
  const t = parts.totals;
  for (let i = 0; i < POINT_VALUES; i++) {
    const v = values[i] ?? 0;
    t[i] = PEAKS.has(i) ? Math.max(t[i] ?? 0, v) : (t[i] ?? 0) + v;
  }
}

function hourRows(parts: HourParts): DemoBreakdownRow[] {
  const m = audienceModel();
  const t = parts.totals;
  const at = (i: number) => t[i] ?? 0;
  const received = at(I.cdn) + at(I.p2p);
  // The refused bytes follow the P2P bytes among the rows of the other dimensions.
  const p2pOfDim = new Float64Array(BREAKDOWN_DIMENSIONS.length);
  NAMES.forEach((n, r) => {
    p2pOfDim[n.dim] = (p2pOfDim[n.dim] ?? 0) + (parts.p2p[r] ?? 0);
  });
  const streamDim = BREAKDOWN_DIMENSIONS.indexOf('stream');
  return NAMES.map(({ dim, name }, r) => {
    const v = new Float64Array(POINT_VALUES);
    const bytes = received * (m.bytes[r] ?? 0);
    const p2p = Math.min(bytes, parts.p2p[r] ?? 0);
    v[I.cdn] = Math.round(bytes - p2p);
    v[I.p2p] = Math.round(p2p);
    // Scaled as the row's P2P bytes were (capped by its bytes), so it never exceeds them.
    const rowP2p = parts.p2p[r] ?? 0;
    v[I.cross] = rowP2p > 0 ? Math.round(((parts.cross[r] ?? 0) * p2p) / rowP2p) : 0;
    v[I.nodr] = Math.round(at(I.nodr) * (m.bytes[r] ?? 0));
    const dimP2p = p2pOfDim[dim] ?? 0;
    v[I.rejected] =
      dim === streamDim
        ? r === REFUSED_ROW
          ? at(I.rejected)
          : 0
        : dimP2p > 0
          ? Math.round((at(I.rejected) * (parts.p2p[r] ?? 0)) / dimP2p)
          : 0;
    v[I.play] = Math.round(at(I.play) * (m.viewers[r] ?? 0));
    v[I.stall] = Math.round(at(I.stall) * (m.stall[r] ?? 0));
    v[I.ceiling] = Math.round(at(I.ceiling) * (m.bytes[r] ?? 0));
    v[I.plays] = parts.plays[r] ?? 0;
    v[I.failures] = parts.failures[r] ?? 0;
    for (let b = 0; b < BUCKETS; b++) v[I.startup + b] = parts.startup[r * BUCKETS + b] ?? 0;
    for (const i of [I.users, I.cdnUsers, I.nodrUsers]) v[i] = Math.round(at(i) * (m.viewers[r] ?? 0));
    v[I.p2pUsers] = Math.round(at(I.p2pUsers) * (m.sharing[r] ?? 0));
    return { keyId: parts.keyId, bucket: parts.bucket, dim, name, values: v };
  });
}

/**
 * One minute of one key's audience, aggregated (backfill): POINT_VALUES values (the series table's
 * columns): sizes, distinct viewers per series and in all, and the viewers' experience (playing time,
 * about 0.3 % rebuffering, a play per viewer every 20 minutes or so, startup times in the histogram's
 * buckets, a failure in a few hundred plays), each play by a viewer drawn from the audience. With
 * `parts`, what each breakdown row had of it.
 */
function minuteTraffic(viewers: number, tsSec: number, rnd: () => number, parts?: HourParts): Float64Array {
  const values = new Float64Array(POINT_VALUES);
  if (viewers <= 0) return values;
  const m = audienceModel();
  const total = viewers * 60 * MEAN_BYTES_PER_S * m.bitrate * (0.85 + 0.3 * rnd());
  const nodrBytes = Math.round(total * 0.03);
  const typical = p2pShare(viewers);
  // The bytes the viewers would get from peers, before some reports find none.
  const peerable = (total - nodrBytes) * (1 - NO_PEERS) * (0.95 + 0.1 * rnd());
  const p2p = Math.round(peerable * m.share(typical));
  const cross = Math.min(p2p, Math.round(peerable * m.crossShare(typical)));
  const cdn = Math.round(total - nodrBytes - p2p);
  const refused = peerRefused(tsSec)
    ? Math.round(peerable * m.rowShare(REFUSED_ROW, typical) * REFUSING_VIEWERS * REFUSED_PART)
    : 0;
  const playMs = Math.round(viewers * 60_000 * (0.97 + 0.025 * rnd()));
  const plays = Math.round(viewers / 20 + rnd());
  const startups: number[] = [];
  let failures = 0;
  for (let i = 0; i < plays; i++) {
    const v = drawViewer(rnd);
    const ms = startupMs(rnd, v.startup);
    const failed = rnd() < v.failures / 300 ? 1 : 0;
    startups.push(ms);
    failures += failed;
    if (parts) {
      const bucket = startupBucket(ms);
      for (const r of v.rows) {
        parts.plays[r] = (parts.plays[r] ?? 0) + 1;
        parts.failures[r] = (parts.failures[r] ?? 0) + failed;
        parts.startup[r * BUCKETS + bucket] = (parts.startup[r * BUCKETS + bucket] ?? 0) + 1;
      }
    }
  }
  // The swarm a viewer meets: the key's audience, up to the peers a viewer connects to.
  const peers = Math.min(viewers - 1, 20);
  addReportValues(values, {
    cdnBytes: cdn,
    p2pBytes: p2p,
    p2pCrossBytes: cross,
    nodrBytes,
    rejectedBytes: refused,
    playMs,
    stallMs: Math.round(playMs * 0.01 * rnd() ** 2),
    plays,
    failures,
    peers,
    startupMs: startups,
  });
  values[I.cdnUsers] = viewers;
  values[I.p2pUsers] = Math.min(viewers, Math.round(viewers * m.capable * (0.88 + 0.1 * rnd())));
  values[I.nodrUsers] = Math.max(1, Math.round(viewers * 0.05));
  values[I.users] = viewers;
  if (parts) {
    m.addRowShares(parts.p2p, typical, peerable);
    m.addRowCrossShares(parts.cross, typical, peerable);
    addMinute(parts, values);
  }
  return values;
}

/** Viewers of a key at a time: the daily pattern around `peak`, with some noise. */
const audienceAt = (peak: number, tsSec: number, rnd: () => number, utcOffsetMin: number): number =>
  Math.max(0, Math.round(peak * dailyFactor(tsSec, utcOffsetMin) * (0.92 + 0.16 * rnd())));

/** Where the simulated audience lives: its evening is the team's. */
export interface AudienceOptions {
  /** The team's time zone, in minutes east of UTC. */
  utcOffsetMin?: number;
}

/** Every minute of [fromSec, toSec) for each key, aggregated (the backfill of history); with
 *  `breakdowns`, each key's hours are gathered there too. */
export function* historyMinutes(
  keys: ReadonlyArray<{ id: number; peak: number }>,
  fromSec: number,
  toSec: number,
  seed = 1,
  options: AudienceOptions & { breakdowns?: DemoBreakdowns } = {},
): Generator<{ keyId: number; minute: number; values: Float64Array }> {
  const rnd = rng(seed);
  const offset = options.utcOffsetMin ?? 0;
  const start = fromSec - (fromSec % 60);
  for (let m = start; m < toSec; m += 60) {
    for (const k of keys) {
      const viewers = audienceAt(k.peak, m, rnd, offset);
      if (viewers > 0)
        yield {
          keyId: k.id,
          minute: m,
          values: minuteTraffic(viewers, m, rnd, options.breakdowns?.hour(k.id, m)),
        };
    }
  }
}

type SimReport = TIngestReport & { nodrBytes: number };

interface Session {
  id: string;
  key: string;
  bytesPerS: number;
  last: number;
  next: number;
  /** Whether its first report (the play and its startup time) went. */
  started: boolean;
  viewer: DrawnViewer;
}

/**
 * Live viewer sessions: each reports every 10–20 s the bytes received since its previous report; the
 * audience of each key follows the daily pattern, viewers joining and leaving every tick.
 */
export class LiveSimulation {
  private sessions = new Map<string, Session[]>();
  /** Each session's viewer, for viewerOf; a session that left stays until the next tick (its last
   *  report is still to be counted). */
  private byId = new Map<string, SimViewer>();
  private left: string[] = [];
  private rnd: () => number;
  private seq = 0;
  private readonly offset: number;
  private readonly stallMean = audienceModel().stallMean;

  constructor(
    private readonly keys: string[],
    private readonly peakViewers: number,
    seed = Date.now() % 1_000_000,
    options: AudienceOptions = {},
  ) {
    this.rnd = rng(seed);
    this.offset = options.utcOffsetMin ?? 0;
    for (const k of keys) this.sessions.set(k, []);
  }

  /** What the breakdowns tell of a session's viewer (the demo's in-process ingest). */
  viewerOf(sessionId: string): SimViewer | undefined {
    return this.byId.get(sessionId);
  }

  get viewers(): number {
    let n = 0;
    for (const s of this.sessions.values()) n += s.length;
    return n;
  }

  /** The audience a key aims at now: the daily curve without noise (noise every second would make
   *  sessions leave and join in waves and inflate the distinct viewers of each minute). */
  private target(ts: number): number {
    return audienceAt(this.peakViewers, ts, () => 0.5, this.offset);
  }

  /**
   * Starts with each key's whole audience already watching since the current minute began, each
   * session reporting within 10 s: the minute a server starts is then counted like the ones the
   * history ends with, not left empty while new sessions wait for their first report.
   */
  warmStart(nowMs: number): void {
    const ts = Math.floor(nowMs / 1000);
    const minuteStartMs = (ts - (ts % 60)) * 1000;
    for (const key of this.keys) {
      const list = this.sessions.get(key) ?? [];
      const target = this.target(ts);
      while (list.length < target)
        list.push(this.newSession(key, ts, minuteStartMs, nowMs + this.rnd() * 10_000));
      this.sessions.set(key, list);
    }
  }

  /** Advances to `nowMs`: joins, leaves, and the reports due. */
  tick(nowMs: number): SimReport[] {
    for (const id of this.left) this.byId.delete(id);
    this.left = [];
    const out: SimReport[] = [];
    const ts = Math.floor(nowMs / 1000);
    for (const key of this.keys) {
      const list = this.sessions.get(key) ?? [];
      const target = this.target(ts);
      // Leaves: a little churn plus the gap above the target; a leaving session sends its last report.
      const churn = Math.round(list.length * 0.002 * this.rnd());
      const leaving = Math.max(0, list.length - target) + churn;
      for (let i = 0; i < leaving && list.length > 0; i++) {
        const s = list.splice(Math.floor(this.rnd() * list.length), 1)[0];
        if (s) this.left.push(s.id);
        if (s) out.push(this.report(s, nowMs, list.length));
      }
      // Joins up to the target, spread over ticks.
      const joining = Math.max(0, Math.ceil((target - list.length) * 0.3));
      for (let i = 0; i < joining; i++) {
        list.push(this.newSession(key, ts, nowMs, nowMs + 10_000 + this.rnd() * 10_000));
      }
      for (const s of list) {
        if (s.next > nowMs) continue;
        out.push(this.report(s, nowMs, list.length));
        s.next = nowMs + 10_000 + this.rnd() * 10_000;
      }
      this.sessions.set(key, list);
    }
    return out;
  }

  private newSession(key: string, ts: number, sinceMs: number, firstReportMs: number): Session {
    const viewer = drawViewer(this.rnd);
    const session = {
      id: `sim-${ts}-${this.seq++}-${Math.floor(this.rnd() * 1e9).toString(36)}`,
      key,
      bytesPerS: MEAN_BYTES_PER_S * viewer.bitrate * (0.5 + this.rnd()),
      last: sinceMs,
      next: firstReportMs,
      started: false,
      viewer,
    };
    this.byId.set(session.id, viewer.facts);
    return session;
  }

  private report(s: Session, nowMs: number, audience: number): SimReport {
    const v = s.viewer;
    const playMs = Math.max(0, nowMs - s.last);
    const bytes = Math.round((s.bytesPerS * playMs) / 1000);
    s.last = nowMs;
    const ts = Math.floor(nowMs / 1000);
    // Some reports find no peers in their interval: their bytes all come from the CDN.
    const share =
      this.rnd() < NO_PEERS ? 0 : viewerShare(p2pShare(audience), v.p2p) * (0.9 + 0.2 * this.rnd());
    const nodr = Math.round(bytes * 0.03);
    const p2p = Math.min(bytes - nodr, Math.round((bytes - nodr) * share));
    const cross = Math.min(p2p, Math.round(p2p * v.cross * (0.6 + 0.8 * this.rnd())));
    const refused =
      v.refused && p2p > 0 && peerRefused(ts) && this.rnd() < REFUSING_VIEWERS
        ? Math.round(p2p * REFUSED_PART)
        : 0;
    const first = !s.started;
    s.started = true;
    return {
      apiKey: s.key,
      sessionId: s.id,
      ts,
      cdnBytes: bytes - nodr - p2p,
      p2pBytes: p2p,
      ...(cross > 0 ? { p2pCrossBytes: cross } : {}),
      nodrBytes: nodr,
      ...(refused > 0 ? { rejectedBytes: refused } : {}),
      stream: v.facts.stream,
      playMs: Math.min(playMs, 600_000),
      // Now and then a viewer waits for data a second or two (more often on a mobile network).
      stallMs: this.rnd() < (0.02 * v.stall) / this.stallMean ? Math.round(1000 + 2000 * this.rnd()) : 0,
      peers: Math.min(Math.max(0, audience - 1), 20),
      ...(first
        ? {
            plays: 1,
            startupMs: [startupMs(this.rnd, v.startup)],
            failures: this.rnd() < 0.003 * v.failures ? 1 : 0,
          }
        : {}),
    };
  }
}
