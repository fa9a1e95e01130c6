import { INGEST_MAX_SKEW_S } from '@tlprt/contract';

/** How long a session's seqs are remembered: a report older than the skew window is refused anyway. */
const REMEMBER_MS = (INGEST_MAX_SKEW_S + 120) * 1000;
/** Seqs kept per session (a plugin reports every 10 s: 4096 is over 11 hours). */
const MAX_SEQS = 4096;

/**
 * The (key, session, seq) already counted by this node (DESIGN §7 Integrity): a replay or a retry after
 * a lost answer is accepted but not counted again. Per node: behind a balancer, route a player's
 * reports to one node (the README says how) or accept that a retry on another node may count twice.
 */
export class SeenReports {
  private readonly sessions = new Map<string, { seqs: Set<number>; touched: number }>();

  /** `maxSessions` bounds the memory a flood of made-up session ids (anyone may copy a key hash) can
   *  take: past it the oldest session is forgotten, so at worst its replay counts again. */
  constructor(private readonly maxSessions = 500_000) {}

  /** True the first time; false for a seq this session already sent. */
  firstTime(keyId: number, sessionId: string, seq: number, nowMs: number): boolean {
    const id = `${keyId}\0${sessionId}`;
    let s = this.sessions.get(id);
    if (!s) {
      if (this.sessions.size >= this.maxSessions) {
        const oldest = this.sessions.keys().next();
        if (!oldest.done) this.sessions.delete(oldest.value);
      }
      s = { seqs: new Set(), touched: nowMs };
      this.sessions.set(id, s);
    }
    s.touched = nowMs;
    if (s.seqs.has(seq)) return false;
    s.seqs.add(seq);
    if (s.seqs.size > MAX_SEQS) {
      const keep = [...s.seqs].sort((a, b) => a - b).slice(-MAX_SEQS / 2);
      s.seqs = new Set(keep);
    }
    return true;
  }

  /** Forgets sessions quiet for longer than a replay could still be accepted. */
  sweep(nowMs: number): void {
    for (const [id, s] of this.sessions) if (nowMs - s.touched > REMEMBER_MS) this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }
}
