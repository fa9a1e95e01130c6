import { BREAKDOWN_DIMENSIONS, STARTUP_BUCKETS_MS } from '@tlprt/contract';

/**
 * The demo's audience (simulator.ts): who watches what from where with what, and how each part of it
 * differs, so that the breakdowns and the experience panel of the demo can be judged. Viewers of live
 * streams watch the same segments at once and share more than those of VOD; mobile networks share
 * less, at a lower bitrate, start slower and stall more; Safari plays HLS natively, from the CDN only;
 * the trailer starts slowly (a first segment far too large); a peer sends altered segments of episode
 * 2 now and then. Each viewer is a stream, a location (country and network) and a client (browser and
 * system), drawn independently by weight; a trait is a factor on the audience's typical viewer.
 */

interface Trait {
  name: string;
  weight: number;
  /** How strongly its viewers share: 1 a typical viewer, 0 none (CDN only). */
  p2p?: number;
  /** Factor on the bitrate. */
  bitrate?: number;
  /** Factor on startup times. */
  startup?: number;
  /** Factor on rebuffering. */
  stall?: number;
  /** Factor on failed plays. */
  failures?: number;
  /** Factor on the part of its P2P bytes from peers of other networks. */
  cross?: number;
}

/** The stream whose viewers meet, now and then, a peer sending altered segments (refused bytes). */
export const REFUSED_STREAM = 'media.example.com/vod/episode-2.m3u8';

const STREAMS: readonly Trait[] = [
  // A live stream's viewers watch the same segments at once: more of them in each network.
  { name: 'media.example.com/live/main.m3u8', weight: 40, p2p: 3.1, stall: 1.25, cross: 0.75 },
  { name: 'media.example.com/vod/episode-1.m3u8', weight: 25, p2p: 1.8, stall: 0.85, cross: 1.25 },
  { name: REFUSED_STREAM, weight: 20, p2p: 1.6, stall: 0.9, cross: 1.3 },
  // Short, watched once, with a first segment far too large: few peers and a slow start.
  {
    name: 'media.example.com/vod/trailer.m3u8',
    weight: 10,
    p2p: 0.95,
    bitrate: 1.2,
    startup: 1.7,
    failures: 3,
    cross: 1.5,
  },
  { name: 'media.example.com/live/backup.m3u8', weight: 5, p2p: 2.5, stall: 1.6, cross: 1.05 },
];

/** Mobile networks: lower bitrates, fewer peers that stay (carrier NAT, cellular uplinks), slower. */
const MOBILE = { p2p: 0.45, bitrate: 0.55, startup: 1.3, stall: 2.5 } as const;

/** Of a viewer's P2P bytes, the part from peers of other networks (the tracker matches by network,
 *  falling back to others when a viewer's own has too few): a fixed network's viewers find their own
 *  peers most of the time, a mobile network's (fewer peers that stay) less often, and a small network's
 *  less often than a large one's. */
const CROSS_FIXED = 0.07;
const CROSS_MOBILE = 0.24;

const COUNTRIES: ReadonlyArray<
  Omit<Trait, 'name'> & {
    code: string;
    networks: ReadonlyArray<Trait & { mobile?: true }>;
  }
> = [
  {
    code: 'US',
    weight: 32,
    networks: [
      { name: 'AS7922 Comcast Cable Communications, LLC', weight: 5 },
      { name: 'AS7018 AT&T Enterprises, LLC', weight: 3, stall: 1.2, p2p: 0.88 },
      { name: 'AS701 Verizon Business', weight: 2, startup: 0.95, p2p: 1.12 },
      { name: 'AS21928 T-Mobile USA, Inc.', weight: 3, mobile: true },
      { name: 'AS22394 Cellco Partnership DBA Verizon Wireless', weight: 2, mobile: true, p2p: 1.15 },
    ],
  },
  {
    code: 'DE',
    weight: 16,
    startup: 0.95,
    stall: 0.9,
    networks: [
      { name: 'AS3320 Deutsche Telekom AG', weight: 6, p2p: 1.04 },
      { name: 'AS3209 Vodafone GmbH', weight: 4, stall: 1.3, p2p: 0.92 },
      { name: 'AS6805 Telefonica Germany GmbH & Co.OHG', weight: 2, mobile: true, p2p: 0.95 },
    ],
  },
  {
    code: 'GB',
    weight: 14,
    networks: [
      { name: 'AS2856 British Telecommunications PLC', weight: 5, p2p: 0.97 },
      { name: 'AS5089 Virgin Media Limited', weight: 3, startup: 1.1, p2p: 0.85 },
      { name: 'AS12576 EE Limited', weight: 2, mobile: true, p2p: 1.05 },
    ],
  },
  {
    code: 'FR',
    weight: 11,
    p2p: 1.1,
    networks: [
      { name: 'AS3215 Orange S.A.', weight: 5 },
      { name: 'AS12322 Free SAS', weight: 4, p2p: 1.1 },
    ],
  },
  {
    code: 'BR',
    weight: 12,
    p2p: 0.9,
    startup: 1.25,
    stall: 1.5,
    networks: [
      { name: 'AS28573 Claro NXT Telecomunicacoes Ltda', weight: 5 },
      { name: 'AS26599 TELEFONICA BRASIL S.A', weight: 4, mobile: true },
    ],
  },
  {
    code: 'IN',
    weight: 9,
    p2p: 0.85,
    startup: 1.4,
    stall: 2,
    networks: [
      { name: 'AS55836 Reliance Jio Infocomm Limited', weight: 6, mobile: true },
      { name: 'AS24560 Bharti Airtel Ltd.', weight: 4, mobile: true, stall: 0.8, p2p: 1.15 },
    ],
  },
  {
    code: 'JP',
    weight: 6,
    p2p: 1.15,
    startup: 0.9,
    stall: 0.7,
    networks: [
      { name: 'AS4713 NTT Communications Corporation', weight: 5 },
      { name: 'AS2516 KDDI CORPORATION', weight: 3, p2p: 0.9 },
      { name: 'AS9605 NTT DOCOMO, INC.', weight: 2, mobile: true, p2p: 0.95 },
    ],
  },
];

/** Browser and system together: Safari is on Apple's systems only, Samsung Internet on Android. */
const CLIENTS: ReadonlyArray<Trait & { os: string }> = [
  { name: 'Chrome', os: 'Android', weight: 30, bitrate: 0.8, startup: 1.12, stall: 1.2 },
  { name: 'Chrome', os: 'Windows', weight: 22, bitrate: 1.1, stall: 0.9 },
  { name: 'Chrome', os: 'macOS', weight: 4, bitrate: 1.1 },
  { name: 'Chrome', os: 'Linux', weight: 3, bitrate: 1.1, p2p: 1.1 },
  // Native HLS: no P2P (CDN only); it starts a little faster.
  { name: 'Safari', os: 'iOS', weight: 16, p2p: 0, bitrate: 0.8, startup: 0.92, stall: 0.8 },
  { name: 'Safari', os: 'macOS', weight: 5, p2p: 0, bitrate: 1.1, startup: 0.9, stall: 0.7 },
  { name: 'Microsoft Edge', os: 'Windows', weight: 8, bitrate: 1.1, p2p: 1.05, stall: 0.9 },
  { name: 'Firefox', os: 'Windows', weight: 4, p2p: 0.95, startup: 1.08, stall: 1.15 },
  { name: 'Firefox', os: 'Linux', weight: 2, p2p: 0.95, startup: 1.08, stall: 1.15 },
  {
    name: 'Samsung Internet for Android',
    os: 'Android',
    weight: 6,
    p2p: 0.85,
    bitrate: 0.8,
    startup: 1.2,
    stall: 1.3,
    failures: 2,
  },
];

const LOCATIONS: ReadonlyArray<Trait & { country: string; cross: number }> = COUNTRIES.flatMap((c) => {
  const total = c.networks.reduce((n, t) => n + t.weight, 0);
  return c.networks.map((n) => {
    const m = n.mobile ? MOBILE : undefined;
    return {
      name: n.name,
      country: c.code,
      weight: (c.weight * n.weight) / total,
      p2p: (c.p2p ?? 1) * (n.p2p ?? 1) * (m?.p2p ?? 1),
      bitrate: (c.bitrate ?? 1) * (n.bitrate ?? 1) * (m?.bitrate ?? 1),
      startup: (c.startup ?? 1) * (n.startup ?? 1) * (m?.startup ?? 1),
      stall: (c.stall ?? 1) * (n.stall ?? 1) * (m?.stall ?? 1),
      failures: c.failures ?? 1,
      cross: (n.mobile ? CROSS_MOBILE : CROSS_FIXED) * (0.6 + 0.9 * (1 - n.weight / total)),
    };
  });
});

/** A share of bytes from peers for a viewer of sharing strength `strength` where the typical viewer
 *  gets `share`: 0 at 0, `share` at 1, approaching (never reaching) 1 above. */
export const viewerShare = (share: number, strength: number): number =>
  strength <= 0 ? 0 : 1 - (1 - Math.min(share, 0.999)) ** strength;

/** What the breakdowns tell of a simulated viewer (the demo's in-process ingest). */
export interface SimViewer {
  stream: string;
  country: string;
  network: string;
  browser: string;
  os: string;
}

/** A drawn viewer: its facts, the rows it counts in (NAMES' indexes, one per dimension) and its traits
 *  multiplied out. */
export interface DrawnViewer {
  facts: SimViewer;
  rows: readonly number[];
  p2p: number;
  bitrate: number;
  startup: number;
  stall: number;
  failures: number;
  refused: boolean;
  /** Of its P2P bytes, the part from peers of other networks. */
  cross: number;
}

/** Cumulative weights for drawing one of a list. */
function cumulative(list: ReadonlyArray<{ weight: number }>): Float64Array {
  const out = new Float64Array(list.length);
  let sum = 0;
  list.forEach((t, i) => {
    sum += t.weight;
    out[i] = sum;
  });
  return out;
}

/** The breakdowns' rows of the demo: every name of every dimension, once. */
export const NAMES: ReadonlyArray<{ dim: number; name: string }> = (
  [
    ['stream', STREAMS.map((s) => s.name)],
    ['country', LOCATIONS.map((l) => l.country)],
    ['network', LOCATIONS.map((l) => l.name)],
    ['browser', CLIENTS.map((c) => c.name)],
    ['os', CLIENTS.map((c) => c.os)],
  ] as const
).flatMap(([by, names]) =>
  [...new Set(names)].map((name) => ({ dim: BREAKDOWN_DIMENSIONS.indexOf(by), name })),
);
const rowOf = (by: (typeof BREAKDOWN_DIMENSIONS)[number], name: string): number => {
  const dim = BREAKDOWN_DIMENSIONS.indexOf(by);
  return NAMES.findIndex((n) => n.dim === dim && n.name === name);
};

const STREAM_ROWS = STREAMS.map((s) => rowOf('stream', s.name));
const LOCATION_ROWS = LOCATIONS.map((l) => [rowOf('country', l.country), rowOf('network', l.name)] as const);
const CLIENT_ROWS = CLIENTS.map((c) => [rowOf('browser', c.name), rowOf('os', c.os)] as const);

/** Every kind of viewer, stream × location × client (about 850), with its weight (all add up to 1). */
const COHORTS: ReadonlyArray<DrawnViewer & { weight: number }> = (() => {
  const sum = (list: readonly Trait[]) => list.reduce((n, t) => n + t.weight, 0);
  const [sw, lw, cw] = [sum(STREAMS), sum(LOCATIONS), sum(CLIENTS)];
  return STREAMS.flatMap((s, si) =>
    LOCATIONS.flatMap((l, li) =>
      CLIENTS.map((c, ci) => {
        const [country, network] = LOCATION_ROWS[li] as readonly [number, number];
        const [browser, os] = CLIENT_ROWS[ci] as readonly [number, number];
        return {
          weight: (s.weight / sw) * (l.weight / lw) * (c.weight / cw),
          facts: {
            stream: `https://${s.name}`,
            country: l.country,
            network: l.name,
            browser: c.name,
            os: c.os,
          },
          rows: [STREAM_ROWS[si] as number, country, network, browser, os],
          p2p: (s.p2p ?? 1) * (l.p2p ?? 1) * (c.p2p ?? 1),
          bitrate: (s.bitrate ?? 1) * (l.bitrate ?? 1) * (c.bitrate ?? 1),
          startup: (s.startup ?? 1) * (l.startup ?? 1) * (c.startup ?? 1),
          stall: (s.stall ?? 1) * (l.stall ?? 1) * (c.stall ?? 1),
          failures: (s.failures ?? 1) * (l.failures ?? 1) * (c.failures ?? 1),
          refused: s.name === REFUSED_STREAM,
          cross: Math.min(0.6, l.cross * (s.cross ?? 1)),
        };
      }),
    ),
  );
})();

/** The cohorts' cumulative weights: one number and a binary search draw a viewer. */
const COHORT_CUM = cumulative(COHORTS);

/** A viewer drawn from the audience by weight (its stream, location and client independent). The
 *  same object for every viewer of its kind: read it, never change it. */
export function drawViewer(rnd: () => number): DrawnViewer {
  const x = rnd() * (COHORT_CUM[COHORT_CUM.length - 1] ?? 0);
  let lo = 0;
  let hi = COHORT_CUM.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x < (COHORT_CUM[mid] ?? 0)) hi = mid;
    else lo = mid + 1;
  }
  return COHORTS[lo] as DrawnViewer;
}

/** Steps of the tables of shares over the typical viewer's share (0 … 1). */
const GRID = 200;
/** The index of the refused stream's row. */
export const REFUSED_ROW = rowOf('stream', REFUSED_STREAM);

/**
 * The audience as a whole, for the aggregated history: mean factors, each row's part of the viewers,
 * bytes, rebuffering and viewers able to share, and tables of the bytes peers serve (over the typical
 * viewer's share) for all and for each row, so a minute of a key's traffic is split among the rows
 * exactly as its viewers would be, without drawing each of them.
 */
export interface AudienceModel {
  /** Mean bitrate factor of a viewer. */
  bitrate: number;
  /** Part of the viewers able to share at all. */
  capable: number;
  /** Mean rebuffering factor of a viewer. */
  stallMean: number;
  /** Per row: its part of the viewers, of the bytes, of the stalled time, of the viewers able to share. */
  viewers: Float64Array;
  bytes: Float64Array;
  stall: Float64Array;
  sharing: Float64Array;
  /** Part of all bytes served by peers when the typical viewer gets `share`. */
  share(share: number): number;
  /** Part of all bytes served by peers to one row's viewers when the typical viewer gets `share`. */
  rowShare(row: number, share: number): number;
  /** Adds, per row, `bytes` × the part of all bytes its viewers get from peers at `share`. */
  addRowShares(into: Float64Array, share: number, bytes: number): void;
  /** Part of all bytes served by peers of other networks when the typical viewer gets `share`. */
  crossShare(share: number): number;
  /** addRowShares of the bytes from peers of other networks. */
  addRowCrossShares(into: Float64Array, share: number, bytes: number): void;
}

let model: AudienceModel | undefined;

/** The audience model, computed once (a few milliseconds). */
export function audienceModel(): AudienceModel {
  if (model) return model;
  const rows = NAMES.length;
  const viewers = new Float64Array(rows);
  const bytes = new Float64Array(rows);
  const stall = new Float64Array(rows);
  const sharing = new Float64Array(rows);
  const total = new Float64Array(GRID + 1);
  const perRow = new Float64Array(rows * (GRID + 1));
  const totalCross = new Float64Array(GRID + 1);
  const perRowCross = new Float64Array(rows * (GRID + 1));
  let w = 0;
  let wb = 0;
  let wh = 0;
  let wc = 0;
  for (const c of COHORTS) {
    const b = c.weight * c.bitrate;
    const h = c.weight * c.stall;
    w += c.weight;
    wb += b;
    wh += h;
    if (c.p2p > 0) wc += c.weight;
    for (const r of c.rows) {
      viewers[r] = (viewers[r] ?? 0) + c.weight;
      bytes[r] = (bytes[r] ?? 0) + b;
      stall[r] = (stall[r] ?? 0) + h;
      if (c.p2p > 0) sharing[r] = (sharing[r] ?? 0) + c.weight;
    }
    if (c.p2p <= 0) continue;
    for (let g = 0; g <= GRID; g++) {
      const part = b * viewerShare(g / GRID, c.p2p);
      const cross = part * c.cross;
      total[g] = (total[g] ?? 0) + part;
      totalCross[g] = (totalCross[g] ?? 0) + cross;
      // Each kind of viewer is in one row per dimension: every dimension's rows add up to the total.
      for (const r of c.rows) {
        const i = r * (GRID + 1) + g;
        perRow[i] = (perRow[i] ?? 0) + part;
        perRowCross[i] = (perRowCross[i] ?? 0) + cross;
      }
    }
  }
  for (let r = 0; r < rows; r++) {
    viewers[r] = (viewers[r] ?? 0) / w;
    bytes[r] = (bytes[r] ?? 0) / wb;
    stall[r] = (stall[r] ?? 0) / wh;
    sharing[r] = wc > 0 ? (sharing[r] ?? 0) / wc : 0;
  }
  for (let g = 0; g <= GRID; g++) {
    total[g] = (total[g] ?? 0) / wb;
    totalCross[g] = (totalCross[g] ?? 0) / wb;
  }
  for (let i = 0; i < perRow.length; i++) {
    perRow[i] = (perRow[i] ?? 0) / wb;
    perRowCross[i] = (perRowCross[i] ?? 0) / wb;
  }
  const at = (share: number) => {
    const x = Math.max(0, Math.min(1, share)) * GRID;
    const g = Math.min(GRID - 1, Math.floor(x));
    return { g, f: x - g };
  };
  const addRows = (table: Float64Array, into: Float64Array, share: number, amount: number) => {
    const { g, f } = at(share);
    for (let r = 0, i = g; r < rows; r++, i += GRID + 1)
      into[r] = (into[r] ?? 0) + amount * ((table[i] ?? 0) * (1 - f) + (table[i + 1] ?? 0) * f);
  };
  model = {
    bitrate: wb / w,
    capable: wc / w,
    stallMean: wh / w,
    viewers,
    bytes,
    stall,
    sharing,
    share(share) {
      const { g, f } = at(share);
      return (total[g] ?? 0) * (1 - f) + (total[g + 1] ?? 0) * f;
    },
    rowShare(row, share) {
      const { g, f } = at(share);
      const i = row * (GRID + 1) + g;
      return (perRow[i] ?? 0) * (1 - f) + (perRow[i + 1] ?? 0) * f;
    },
    addRowShares(into, share, amount) {
      addRows(perRow, into, share, amount);
    },
    crossShare(share) {
      const { g, f } = at(share);
      return (totalCross[g] ?? 0) * (1 - f) + (totalCross[g + 1] ?? 0) * f;
    },
    addRowCrossShares(into, share, amount) {
      addRows(perRowCross, into, share, amount);
    },
  };
  return model;
}

/** A play's startup time (ms) for a viewer whose startup factor is `scale`: most plays start in
 *  0.5–1.5 s, a few take seconds. */
export const startupMs = (rnd: () => number, scale = 1): number =>
  Math.round(scale * (350 + 900 * rnd() ** 2 * (rnd() < 0.05 ? 4 : 1)));

/** The startup histogram's bucket of a time, as a report's times are counted (a bound belongs to the
 *  bucket it ends; the last bucket is open). */
export function startupBucket(ms: number): number {
  let i = 0;
  while (i < STARTUP_BUCKETS_MS.length && ms > (STARTUP_BUCKETS_MS[i] ?? 0)) i++;
  return i;
}
