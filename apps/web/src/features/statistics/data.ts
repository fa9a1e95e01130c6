import { useLocalStorage } from '@mantine/hooks';
import {
  emptySeries,
  STATS_RANGES,
  STORAGE_KEYS,
  TimeRange,
  type TStatsPoint,
  type TStatsQuery,
  type TStatsRange,
} from '@tlprt/contract';

/** Range names in the order of TimeRange (Live 0, Day 1, Week 2, Month 3). */
export const RANGE_ORDER: readonly TStatsRange[] = ['live', 'day', 'week', 'month'];
export const RANGE_LABEL: Record<TStatsRange, string> = {
  live: 'Live',
  day: 'Day',
  week: 'Week',
  month: 'Month',
};

/** The range kept in localStorage as its TimeRange number (0..3); Day when nothing valid is stored. */
export function useStoredRange(): [TStatsRange, (range: TStatsRange) => void] {
  const [range, setRange] = useLocalStorage<TStatsRange>({
    key: STORAGE_KEYS.timeRange,
    defaultValue: 'day',
    getInitialValueInEffect: false,
    serialize: (range) => String(RANGE_ORDER.indexOf(range)),
    deserialize: (raw) => {
      const n = raw === undefined || raw === '' ? Number.NaN : Number(raw);
      return RANGE_ORDER[Number.isInteger(n) ? n : TimeRange.Day] ?? 'day';
    },
  });
  return [range, setRange];
}

/** The request body of one statistics call: the range's window ending at `nowS`. */
export function buildStatsQuery(
  range: TStatsRange,
  nowS: number,
  apiKeys: readonly string[],
  teamId: number,
  userId: number,
): TStatsQuery {
  const end = Math.floor(nowS);
  return {
    apiKeys: [...apiKeys],
    startTimestamp: end - STATS_RANGES[range].window,
    endTimestamp: end,
    clientId: userId,
    team_id: teamId,
  };
}

export interface StatsSummary {
  /** p2p bytes / all bytes of the range (0..1); null when nothing was served. */
  p2pShare: number | null;
  totalBytes: number;
  cdnBytes: number;
  p2pBytes: number;
  nodrBytes: number;
  /** The most viewers at one point: its distinct audience (usersCount). A session served by both the
   *  CDN and peers counts in both series, so neither their sum nor the largest of them is the audience. */
  peakViewers: number;
  /** Peer bytes refused by verification: not traffic (not in the total nor the share), a warning. */
  rejectedBytes: number;
  /** Bytes the integrity service fetched from the origin to verify peers' segments (not traffic). */
  verifyBytes: number;
  /** What the origin really saved: the P2P share less the verification bytes over all bytes, that is
   *  1 − (CDN + verification) / (CDN + P2P) without NODR; below 0 when verifying cost more than peers
   *  saved; null when nothing was served. */
  originSaving: number | null;
  /** Of p2pBytes, those from peers of other networks than their viewers' (p2pCrossDwSize). */
  crossBytes: number;
  /** The share of the P2P bytes from peers of the viewers' own networks, 1 − cross ÷ P2P (0..1); null
   *  when peers served nothing. */
  ownNetworkShare: number | null;
}

/** Totals over points [from, to] (inclusive indexes; clamped). */
export function summarize(points: readonly TStatsPoint[], from = 0, to = points.length - 1): StatsSummary {
  let cdn = 0;
  let p2p = 0;
  let nodr = 0;
  let rejected = 0;
  let verify = 0;
  let cross = 0;
  let peak = 0;
  const lo = Math.max(0, Math.floor(from));
  const hi = Math.min(points.length - 1, Math.ceil(to));
  for (let i = lo; i <= hi; i += 1) {
    const p = points[i];
    if (!p) continue;
    cdn += p.cdnDwSize;
    p2p += p.p2pDwSize;
    nodr += p.nodrDwSize ?? 0;
    rejected += p.rejectedDwSize;
    verify += p.verifyDwSize;
    cross += p.p2pCrossDwSize;
    peak = Math.max(peak, p.usersCount);
  }
  const total = cdn + p2p + nodr;
  return {
    p2pShare: total > 0 ? p2p / total : null,
    totalBytes: total,
    cdnBytes: cdn,
    p2pBytes: p2p,
    nodrBytes: nodr,
    peakViewers: peak,
    rejectedBytes: rejected,
    verifyBytes: verify,
    originSaving: total > 0 ? (p2p - verify) / total : null,
    crossBytes: cross,
    ownNetworkShare: p2p > 0 ? Math.max(0, p2p - cross) / p2p : null,
  };
}

/** Deterministic pseudo-random in [0, 1) from an integer seed (no global state). */
function noise(i: number): number {
  const x = Math.sin(i * 12.9898 + 78.233) * 43_758.5453;
  return x - Math.floor(x);
}

export const SAMPLE_POINTS = 990;
export const SAMPLE_STEP = 60;

/**
 * The sample statistics of spec §9, shown (labelled) when a response fails or is empty: 990 per-minute
 * points (~16.5 h) ending at `endS`, cdnDwSize 1e9..9e10, network counts 5,000..20,000, peer counts
 * 7,000..26,000 with one dip to about 2,500. Pure: the same `endS` gives the same points.
 */
export function sampleStats(endS: number, withNodr = false): TStatsPoint[] {
  const last = Math.floor(endS / SAMPLE_STEP) * SAMPLE_STEP;
  const first = last - (SAMPLE_POINTS - 1) * SAMPLE_STEP;
  const out: TStatsPoint[] = [];
  for (let i = 0; i < SAMPLE_POINTS; i += 1) {
    const t = i / (SAMPLE_POINTS - 1);
    // One evening-shaped wave over the span, with a little deterministic jitter.
    const wave = 0.5 - 0.5 * Math.cos(t * 2 * Math.PI * 1.25);
    const jitter = noise(i) * 0.08;
    const level = Math.min(1, Math.max(0, wave * 0.92 + jitter));
    const cdnUsers = Math.round(5_000 + level * 15_000);
    // The peer audience follows, with one outage-like dip near the middle (low ~2,500).
    const dip = Math.exp(-(((i - 430) / 12) ** 2));
    const p2pUsers = Math.round((7_000 + level * 19_000) * (1 - dip) + 2_500 * dip);
    const cdnBytes = Math.round(1e9 + level * 8.9e10);
    const p2pBytes = Math.round(cdnBytes * (0.6 + 0.9 * level) * (p2pUsers / (7_000 + level * 19_000)));
    const point: TStatsPoint = {
      // No made-up attack in the sample, nor made-up viewer experience: the panel says sample data
      // has none.
      ...emptySeries(),
      datePoint: first + i * SAMPLE_STEP,
      cdnDwSize: cdnBytes,
      cdnUsersCount: cdnUsers,
      p2pDwSize: p2pBytes,
      p2pUsersCount: p2pUsers,
      // Most peers also fetch from the CDN: the audience is about the larger series.
      usersCount: Math.max(cdnUsers, p2pUsers),
    };
    if (withNodr) {
      point.nodrDwSize = Math.round(cdnBytes * 0.1);
      point.nodrUsersCount = Math.round(cdnUsers * 0.1);
    }
    out.push(point);
  }
  return out;
}
