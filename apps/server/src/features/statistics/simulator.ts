import { addReportValues, columnIndex, POINT_VALUES, type TIngestReport } from '@tlprt/contract';

/**
 * The traffic simulator: viewer sessions with a daily pattern, joins and leaves, and a P2P
 * share that grows with the audience. Pure (no I/O): `npm run simulate` sends its reports over HTTP,
 * the demo feeds them to the in-process ingest, and `backfill` aggregates history per minute.
 */

/** Share of the traffic peers serve for an audience of `viewers` (grows with the swarm). */
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

/** 0.15 at night … 1 at the evening peak (20:00 UTC): a sine over the day. */
function dailyFactor(tsSec: number, peakHourUtc = 20): number {
  const hour = (tsSec % 86_400) / 3600;
  return 0.575 + 0.425 * Math.cos((2 * Math.PI * (hour - peakHourUtc)) / 24);
}

/** Mean video bitrate of a session in bytes per second (about 3 Mbit/s). */
export const MEAN_BYTES_PER_S = 375_000;

/** A believable startup time (ms): most plays start in 0.5–1.5 s, a few take seconds. */
const startupMs = (rnd: () => number): number => Math.round(350 + 900 * rnd() ** 2 * (rnd() < 0.05 ? 6 : 1));

/**
 * One minute of one key's audience, aggregated (backfill): POINT_VALUES values (the series table's
 * columns): sizes, distinct viewers per series and in all, and the viewers' experience (playing time,
 * about 0.5% rebuffering, a play per viewer every 20 minutes or so, a failure in 300 plays, startup
 * times in the histogram's buckets).
 */
function minuteTraffic(viewers: number, rnd: () => number, nodr = true): Float64Array {
  const values = new Float64Array(POINT_VALUES);
  if (viewers <= 0) return values;
  const total = viewers * 60 * MEAN_BYTES_PER_S * (0.85 + 0.3 * rnd());
  const share = p2pShare(viewers) * (0.95 + 0.1 * rnd());
  const nodrBytes = nodr ? Math.round(total * 0.03) : 0;
  const p2p = Math.round((total - nodrBytes) * share);
  const cdn = Math.round(total - nodrBytes - p2p);
  const playMs = Math.round(viewers * 60_000 * (0.97 + 0.025 * rnd()));
  const plays = Math.round(viewers / 20 + rnd());
  // The swarm a viewer meets: the key's audience, up to the peers a viewer connects to.
  const peers = Math.min(viewers - 1, 20);
  addReportValues(values, {
    cdnBytes: cdn,
    p2pBytes: p2p,
    nodrBytes,
    playMs,
    stallMs: Math.round(playMs * 0.01 * rnd() ** 2),
    plays,
    failures: rnd() < plays / 300 ? 1 : 0,
    peers,
    startupMs: Array.from({ length: plays }, () => startupMs(rnd)),
  });
  values[columnIndex('cdnUsers')] = viewers;
  values[columnIndex('p2pUsers')] = Math.min(viewers, Math.round(viewers * Math.min(1, share + 0.1)));
  values[columnIndex('nodrUsers')] = nodr ? Math.max(1, Math.round(viewers * 0.05)) : 0;
  values[columnIndex('users')] = viewers;
  return values;
}

/** Viewers of a key at a time: the daily pattern around `peak`, with some noise. */
const audienceAt = (peak: number, tsSec: number, rnd: () => number): number =>
  Math.max(0, Math.round(peak * dailyFactor(tsSec) * (0.92 + 0.16 * rnd())));

/** Every minute of [fromSec, toSec) for each key, aggregated (the backfill of history). */
export function* historyMinutes(
  keys: ReadonlyArray<{ id: number; peak: number }>,
  fromSec: number,
  toSec: number,
  seed = 1,
): Generator<{ keyId: number; minute: number; values: Float64Array }> {
  const rnd = rng(seed);
  const start = fromSec - (fromSec % 60);
  for (let m = start; m < toSec; m += 60) {
    for (const k of keys) {
      const viewers = audienceAt(k.peak, m, rnd);
      if (viewers > 0) yield { keyId: k.id, minute: m, values: minuteTraffic(viewers, rnd) };
    }
  }
}

type SimReport = TIngestReport & { nodrBytes: number };

type Weighted = ReadonlyArray<readonly [name: string, weight: number]>;
/** Where the demo's simulated viewers watch from, with what, and what (weights; example.com streams). */
const NETWORKS: Record<string, Weighted> = {
  US: [
    ['AS7922 Comcast Cable Communications, LLC', 5],
    ['AS7018 AT&T Enterprises, LLC', 3],
    ['AS701 Verizon Business', 2],
  ],
  DE: [
    ['AS3320 Deutsche Telekom AG', 6],
    ['AS3209 Vodafone GmbH', 4],
  ],
  GB: [
    ['AS2856 British Telecommunications PLC', 5],
    ['AS5089 Virgin Media Limited', 3],
  ],
  FR: [
    ['AS3215 Orange S.A.', 5],
    ['AS12322 Free SAS', 4],
  ],
  BR: [
    ['AS28573 Claro NXT Telecomunicacoes Ltda', 5],
    ['AS18881 TELEFONICA BRASIL S.A', 4],
  ],
  IN: [
    ['AS55836 Reliance Jio Infocomm Limited', 6],
    ['AS24560 Bharti Airtel Ltd.', 4],
  ],
  JP: [
    ['AS4713 NTT Communications Corporation', 5],
    ['AS2516 KDDI CORPORATION', 4],
  ],
};
export const DEMO_AUDIENCE = {
  stream: [
    ['media.example.com/live/main.m3u8', 40],
    ['media.example.com/vod/episode-1.m3u8', 25],
    ['media.example.com/vod/episode-2.m3u8', 20],
    ['media.example.com/vod/trailer.m3u8', 10],
    ['media.example.com/live/backup.m3u8', 5],
  ],
  country: [
    ['US', 32],
    ['DE', 16],
    ['GB', 14],
    ['FR', 11],
    ['BR', 11],
    ['IN', 10],
    ['JP', 6],
  ],
  browser: [
    ['Chrome', 62],
    ['Safari', 20],
    ['Microsoft Edge', 8],
    ['Firefox', 6],
    ['Samsung Internet for Android', 4],
  ],
  os: [
    ['Android', 38],
    ['Windows', 27],
    ['iOS', 20],
    ['macOS', 10],
    ['Linux', 5],
  ],
} as const satisfies Record<string, Weighted>;
/** Each network's weight in all: its country's weight shared by its own. */
export const DEMO_NETWORKS: Weighted = DEMO_AUDIENCE.country.flatMap(([country, weight]) => {
  const own = NETWORKS[country] ?? [];
  const total = own.reduce((n, [, w]) => n + w, 0);
  return own.map(([name, w]) => [name, (weight * w) / total] as const);
});

function pick(list: Weighted, r: number): string {
  const total = list.reduce((n, [, w]) => n + w, 0);
  let x = r * total;
  for (const [name, w] of list) {
    x -= w;
    if (x < 0) return name;
  }
  return list[list.length - 1]?.[0] ?? '';
}

/** A simulated viewer: its stream and what the breakdowns would tell of its address and browser. */
export interface SimViewer {
  stream: string;
  country: string;
  network: string;
  browser: string;
  os: string;
}
function simViewer(rnd: () => number): SimViewer {
  const country = pick(DEMO_AUDIENCE.country, rnd());
  return {
    stream: `https://${pick(DEMO_AUDIENCE.stream, rnd())}`,
    country,
    network: pick(NETWORKS[country] ?? [], rnd()),
    browser: pick(DEMO_AUDIENCE.browser, rnd()),
    os: pick(DEMO_AUDIENCE.os, rnd()),
  };
}

interface Session {
  id: string;
  key: string;
  bytesPerS: number;
  last: number;
  next: number;
  /** Whether its first report (the play and its startup time) went. */
  started: boolean;
  viewer: SimViewer;
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

  constructor(
    private readonly keys: string[],
    private readonly peakViewers: number,
    seed = Date.now() % 1_000_000,
  ) {
    this.rnd = rng(seed);
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
      const target = audienceAt(this.peakViewers, ts, () => 0.5);
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
      // The audience follows the daily curve without per-tick noise: noise every second would make
      // sessions leave and join in waves and inflate the distinct viewers of each minute.
      const target = audienceAt(this.peakViewers, ts, () => 0.5);
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
    const session = {
      id: `sim-${ts}-${this.seq++}-${Math.floor(this.rnd() * 1e9).toString(36)}`,
      key,
      bytesPerS: MEAN_BYTES_PER_S * (0.5 + this.rnd()),
      last: sinceMs,
      next: firstReportMs,
      started: false,
      viewer: simViewer(this.rnd),
    };
    this.byId.set(session.id, session.viewer);
    return session;
  }

  private report(s: Session, nowMs: number, audience: number): SimReport {
    const playMs = Math.max(0, nowMs - s.last);
    const bytes = Math.round((s.bytesPerS * playMs) / 1000);
    s.last = nowMs;
    // Some sessions find no peers in an interval: their bytes all come from the CDN.
    const share = this.rnd() < 0.1 ? 0 : p2pShare(audience) * (0.9 + 0.2 * this.rnd());
    const nodr = Math.round(bytes * 0.03);
    const p2p = Math.min(bytes - nodr, Math.round((bytes - nodr) * share));
    const first = !s.started;
    s.started = true;
    return {
      apiKey: s.key,
      sessionId: s.id,
      ts: Math.floor(nowMs / 1000),
      cdnBytes: bytes - nodr - p2p,
      p2pBytes: p2p,
      nodrBytes: nodr,
      stream: s.viewer.stream,
      playMs: Math.min(playMs, 600_000),
      // Now and then a viewer waits for data a second or two.
      stallMs: this.rnd() < 0.02 ? Math.round(1000 + 2000 * this.rnd()) : 0,
      peers: Math.min(Math.max(0, audience - 1), 20),
      ...(first ? { plays: 1, startupMs: [startupMs(this.rnd)], failures: this.rnd() < 0.003 ? 1 : 0 } : {}),
    };
  }
}
