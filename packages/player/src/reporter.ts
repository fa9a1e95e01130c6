import {
  INGEST_ERRORS,
  PLAYER_MAX_PENDING_REPORTS,
  REPORT_COUNT_LIMITS,
  REPORT_MAX_STARTUPS,
  REPORT_STREAM_MAX,
  STARTUP_MAX_MS,
  type TIngestReport,
  type TIngestResponse,
  type TReportCountField,
} from '@tlprt/contract';
import type { ExperienceCounts } from './experience.js';

/** The experience's counts: gathered by Experience, each kept within its ceiling (takeExperience). */
type TExperienceCount = Exclude<keyof ExperienceCounts, 'startupMs'>;
const EXPERIENCE_COUNTS: readonly TReportCountField[] = [
  'playMs',
  'stallMs',
  'plays',
  'failures',
] satisfies TExperienceCount[];
/** A report's count fields the plugin adds up between two reports, by their contract name (report.ts
 *  REPORT_COUNT_LIMITS): all but the experience's and the peers (counted when the report is made). */
type TSummedField = Exclude<TReportCountField, TExperienceCount | 'peers'>;
export type ReportCounts = Partial<Record<TSummedField, number>>;
const SUMMED = (Object.keys(REPORT_COUNT_LIMITS) as TReportCountField[]).filter(
  (f): f is TSummedField => f !== 'peers' && !EXPERIENCE_COUNTS.includes(f),
);

/** Sends one ingest body; the server's answer when it was 2xx (a keepalive answer may be unreadable:
 *  then an empty verdict), null when it failed or was refused (429: the budget of the address). */
type SendReports = (body: string, keepalive: boolean) => Promise<TIngestResponse | null>;

/** A 2xx answer that could not be read. */
export const NO_VERDICT: TIngestResponse = { accepted: 0, rejected: 0, errors: [] };

/** What a report says besides the bytes (docs/DESIGN.md §7 "Viewer experience"). */
export interface ReportSources {
  /** The viewer's experience since it was last asked (Experience.take). */
  experience?: () => ExperienceCounts;
  /** Peers connected now. */
  peers?: () => number;
  /** The stream, as `streamName` gives it. */
  stream?: string | undefined;
}

/** The stream a report names: its URL without query, fragment or credentials (the query often holds a
 *  viewer's token, and the server keeps only host and path); none when it is no http(s) URL. */
export function streamName(src: string | undefined, base: string): string | undefined {
  if (!src) return undefined;
  try {
    const url = new URL(src, base);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    url.search = '';
    url.hash = '';
    url.username = '';
    url.password = '';
    return url.href.length <= REPORT_STREAM_MAX ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A count as a report may carry it: whole, 0 or more, at most the contract's ceiling. */
const clamp = (value: number, max: number): number =>
  Number.isFinite(value) ? Math.min(max, Math.max(0, Math.floor(value))) : 0;

/** A random session id: 128 bits from the browser's CSPRNG, hex. */
export function newSessionId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The bytes a viewer got and what it lived through since its last report, sent as ingest reports
 * (docs/DESIGN.md §7). A report keeps its `seq` until the server acknowledges it, and is sent again with the next
 * one if it was not: the server counts a (key, session, seq) once, so a retry after a lost answer never
 * counts twice, and a failed send loses nothing.
 */
export class Reporter {
  private counts: ReportCounts = {};
  private experience: ExperienceCounts = emptyExperience();
  private seq = 0;
  private pending: TIngestReport[] = [];
  private sending: Promise<void> | null = null;
  /** Reports in a keepalive request still out (it survives the page; a plain one may not). */
  private readonly outAlive = new Set<TIngestReport>();

  constructor(
    private readonly key: string,
    private sessionId: string,
    private readonly send: SendReports,
    private readonly nowS: () => number = () => Math.floor(Date.now() / 1000),
    private readonly sources: ReportSources = {},
  ) {}

  /** Counts for the next report, by their field names: `add({ cdnBytes: 1000 })`. */
  add(counts: ReportCounts): void {
    for (const f of SUMMED) {
      const n = counts[f];
      if (n !== undefined) this.counts[f] = (this.counts[f] ?? 0) + n;
    }
  }

  addExperience(x: ExperienceCounts): void {
    const e = this.experience;
    e.playMs += x.playMs;
    e.stallMs += x.stallMs;
    e.startupMs.push(...x.startupMs);
    e.plays += x.plays;
    e.failures += x.failures;
  }

  /** Reports not yet acknowledged (the one being sent included). */
  get unacknowledged(): number {
    return this.pending.length;
  }

  /** Turns the bytes gathered so far into a report and sends every unacknowledged one. */
  flush(keepalive = false): Promise<void> {
    const taken = this.sources.experience?.();
    if (taken) this.addExperience(taken);
    const experience = this.takeExperience();
    // A viewer of an already buffered video receives nothing and still watches: its report counts it.
    const counts = this.takeCounts();
    if (counts || Object.keys(experience).length > 0) {
      const peers = clamp(this.sources.peers?.() ?? 0, REPORT_COUNT_LIMITS.peers);
      const stream = this.sources.stream;
      this.pending.push({
        apiKey: this.key,
        sessionId: this.sessionId,
        ts: this.nowS(),
        // The contract requires these two, 0 included; the other counts are there only above 0.
        cdnBytes: 0,
        p2pBytes: 0,
        ...counts,
        ...experience,
        ...(peers > 0 ? { peers } : {}),
        ...(stream ? { stream } : {}),
        seq: this.seq++,
      });
      // Offline for long: the oldest reports go (their ts would soon be refused as too old anyway).
      if (this.pending.length > PLAYER_MAX_PENDING_REPORTS)
        this.pending.splice(0, this.pending.length - PLAYER_MAX_PENDING_REPORTS);
    }
    if (this.pending.length === 0) return this.sending ?? Promise.resolve();
    // One request at a time on the 10 s cadence: what gathers meanwhile waits for the next flush. A
    // keepalive flush (page hide, detach) has no next flush to wait for, so it goes at once, with the
    // batch still in flight: the server counts each seq once.
    // (A page closing fires both visibilitychange and pagehide: the second adds nothing.)
    if (this.sending && (!keepalive || this.pending.every((r) => this.outAlive.has(r)))) return this.sending;
    const batch = this.pending.slice();
    if (keepalive) for (const r of batch) this.outAlive.add(r);
    const sending: Promise<void> = this.send(JSON.stringify({ reports: batch }), keepalive)
      .catch(() => null)
      .then((answer) => {
        if (answer === null) return;
        this.pending = this.pending.filter((r) => !batch.includes(r));
        this.restartIfForgotten(batch, answer);
      })
      .finally(() => {
        if (keepalive) for (const r of batch) this.outAlive.delete(r);
        if (this.sending === sending) this.sending = null;
      });
    this.sending = sending;
    return sending;
  }

  /** The counts added so far as report fields (those above 0, in the contract's order); none when all
   *  are 0. */
  private takeCounts(): ReportCounts | null {
    const c = this.counts;
    this.counts = {};
    const out: ReportCounts = {};
    for (const f of SUMMED) if ((c[f] ?? 0) > 0) out[f] = c[f];
    return Object.keys(out).length > 0 ? out : null;
  }

  /** The experience gathered so far as report fields (only those above 0, each within the contract's
   *  ceiling; what is beyond one is dropped: no viewer plays more than 10 minutes in 10 s). */
  private takeExperience(): Partial<TIngestReport> {
    const e = this.experience;
    this.experience = emptyExperience();
    const out: Partial<TIngestReport> = {};
    const playMs = clamp(e.playMs, REPORT_COUNT_LIMITS.playMs);
    const stallMs = clamp(e.stallMs, REPORT_COUNT_LIMITS.stallMs);
    const plays = clamp(e.plays, REPORT_COUNT_LIMITS.plays);
    const failures = clamp(e.failures, REPORT_COUNT_LIMITS.failures);
    // A longer wait than the contract's is no start.
    const startupMs = e.startupMs
      .filter((ms) => Number.isFinite(ms) && ms >= 0 && ms <= STARTUP_MAX_MS)
      .slice(0, REPORT_MAX_STARTUPS)
      .map((ms) => Math.round(ms));
    if (playMs > 0) out.playMs = playMs;
    if (stallMs > 0) out.stallMs = stallMs;
    if (startupMs.length > 0) out.startupMs = startupMs;
    if (plays > 0) out.plays = plays;
    if (failures > 0) out.failures = failures;
    return out;
  }

  /** The server forgot this session under load and refuses its reports (they could count twice): the
   *  bytes and experience they carried go out again under a new session. */
  private restartIfForgotten(batch: TIngestReport[], answer: TIngestResponse): void {
    const refused = answer.errors.filter((e) => e.message === INGEST_ERRORS.sessionForgotten);
    if (refused.length === 0) return;
    for (const e of refused) {
      const r = batch[e.index];
      if (r?.sessionId !== this.sessionId) continue;
      this.add(Object.fromEntries(SUMMED.map((f) => [f, r[f] ?? 0])));
      this.addExperience({
        playMs: r.playMs ?? 0,
        stallMs: r.stallMs ?? 0,
        startupMs: r.startupMs ?? [],
        plays: r.plays ?? 0,
        failures: r.failures ?? 0,
      });
    }
    this.sessionId = newSessionId();
    this.pending = this.pending.map((r) => ({ ...r, sessionId: this.sessionId }));
  }
}

function emptyExperience(): ExperienceCounts {
  return { playMs: 0, stallMs: 0, startupMs: [], plays: 0, failures: 0 };
}
