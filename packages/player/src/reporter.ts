import {
  INGEST_ERRORS,
  PLAYER_MAX_PENDING_REPORTS,
  type TIngestReport,
  type TIngestResponse,
} from '@tlprt/contract';

/** Sends one ingest body; the server's answer when it was 2xx (a keepalive answer may be unreadable:
 *  then an empty verdict), null when it failed or was refused (429: the budget of the address). */
type SendReports = (body: string, keepalive: boolean) => Promise<TIngestResponse | null>;

/** A 2xx answer that could not be read. */
export const NO_VERDICT: TIngestResponse = { accepted: 0, rejected: 0, errors: [] };

/** A random session id: 128 bits from the browser's CSPRNG, hex. */
export function newSessionId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The bytes a viewer got since its last report, sent as ingest reports (DESIGN §7). A report keeps its
 * `seq` until the server acknowledges it, and is sent again with the next one if it was not: the server
 * counts a (key, session, seq) once, so a retry after a lost answer never counts twice, and a failed
 * send loses nothing.
 */
export class Reporter {
  private cdn = 0;
  private p2p = 0;
  private rejected = 0;
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
  ) {}

  add(cdnBytes: number, p2pBytes: number, rejectedBytes = 0): void {
    this.cdn += cdnBytes;
    this.p2p += p2pBytes;
    this.rejected += rejectedBytes;
  }

  /** Reports not yet acknowledged (the one being sent included). */
  get unacknowledged(): number {
    return this.pending.length;
  }

  /** Turns the bytes gathered so far into a report and sends every unacknowledged one. */
  flush(keepalive = false): Promise<void> {
    if (this.cdn > 0 || this.p2p > 0 || this.rejected > 0) {
      this.pending.push({
        apiKey: this.key,
        sessionId: this.sessionId,
        ts: this.nowS(),
        cdnBytes: this.cdn,
        p2pBytes: this.p2p,
        ...(this.rejected > 0 ? { rejectedBytes: this.rejected } : {}),
        seq: this.seq++,
      });
      this.cdn = 0;
      this.p2p = 0;
      this.rejected = 0;
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

  /** The server forgot this session under load and refuses its reports (they could count twice): the
   *  bytes they carried go out again under a new session. */
  private restartIfForgotten(batch: TIngestReport[], answer: TIngestResponse): void {
    const refused = answer.errors.filter((e) => e.message === INGEST_ERRORS.sessionForgotten);
    if (refused.length === 0) return;
    for (const e of refused) {
      const r = batch[e.index];
      if (r?.sessionId === this.sessionId) this.add(r.cdnBytes, r.p2pBytes, r.rejectedBytes ?? 0);
    }
    this.sessionId = newSessionId();
    this.pending = this.pending.map((r) => ({ ...r, sessionId: this.sessionId }));
  }
}
