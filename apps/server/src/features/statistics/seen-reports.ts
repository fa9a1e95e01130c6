import { INGEST_MAX_SKEW_S } from '@tlprt/contract';

/** How long a session's seqs are remembered: a report older than the skew window is refused anyway. */
const REMEMBER_MS = (INGEST_MAX_SKEW_S + 120) * 1000;
/** Seqs remembered below a session's highest (a plugin reports every 10 s and keeps at most 30 reports
 *  pending, so an honest report is never further back; older ones are taken as already counted). */
const WINDOW = 32;
/** What one remembered session costs beyond its id's characters: the Map entry, the state object and
 *  the string header, measured on Node 20 (about 110 bytes; rounded up). */
const ENTRY_OVERHEAD_BYTES = 128;

/** What a report's (key, session, seq) is to this node. */
export type Seen = 'new' | 'seen' | 'forgotten';

interface Session {
  /** The highest seq counted. */
  high: number;
  /** Bit i: seq `high - i` counted. */
  mask: number;
  touched: number;
}

/**
 * Session ids pushed out of memory while their reports could still be accepted: a report of one of
 * them is refused, never counted a second time. Two Bloom filters of fixed size, the older dropped every
 * REMEMBER_MS (by then the forgotten sessions' reports are too old anyway); a false positive refuses a
 * new session's first report (the plugin then starts another session), never counts one twice.
 */
class ForgottenSessions {
  private current: Uint8Array;
  private previous: Uint8Array;
  private rotatedAt: number;
  private readonly bits: number;
  /** False until a first session is forgotten: until then no lookup costs a hash. */
  private any = false;

  constructor(bytes: number, now: number) {
    this.bits = bytes * 8;
    this.current = new Uint8Array(bytes);
    this.previous = new Uint8Array(bytes);
    this.rotatedAt = now;
  }

  add(id: string, now: number): void {
    this.rotate(now);
    this.any = true;
    for (const bit of this.positions(id))
      this.current[bit >>> 3] = (this.current[bit >>> 3] as number) | (1 << (bit & 7));
  }

  has(id: string, now: number): boolean {
    if (!this.any) return false;
    this.rotate(now);
    const positions = this.positions(id);
    const inFilter = (f: Uint8Array) =>
      positions.every((bit) => ((f[bit >>> 3] as number) & (1 << (bit & 7))) !== 0);
    return inFilter(this.current) || inFilter(this.previous);
  }

  private rotate(now: number): void {
    if (now - this.rotatedAt < REMEMBER_MS) return;
    this.previous =
      now - this.rotatedAt < 2 * REMEMBER_MS ? this.current : new Uint8Array(this.current.length);
    this.current = new Uint8Array(this.current.length);
    this.rotatedAt = now;
  }

  /** Four bit positions by double hashing of two 32-bit FNV-1a variants (no crypto: the ids are the
   *  attacker's, but a crafted collision only refuses the attacker's own session). */
  private positions(id: string): number[] {
    let a = 0x811c9dc5;
    let b = 0x01000193 ^ 0x5bd1e995;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    b |= 1;
    const out: number[] = [];
    for (let k = 0; k < 4; k++) out.push(((a + Math.imul(k, b)) >>> 0) % this.bits);
    return out;
  }
}

/**
 * The (key, session, seq) already counted by this node (docs/DESIGN.md §7 Integrity): a replay or a retry after
 * a lost answer is accepted but not counted again. Per session, a constant: its highest seq and a window
 * of the 32 below. Sessions are kept within a memory budget, the least recently reporting pushed out
 * first (an honest viewer reports every 10 s, so a flood of made-up sessions pushes out only idle ones),
 * and a pushed-out session's later reports are refused rather than counted again.
 * Per node: behind a balancer, route a player's reports to one node (the README says how) or accept
 * that a retry on another node may count twice.
 */
export class SeenReports {
  /** Least recently reporting first (a Map keeps insertion order; a report re-inserts its session). */
  private readonly sessions = new Map<string, Session>();
  private readonly forgotten: ForgottenSessions;
  private bytes = 0;
  private evicted = 0;

  constructor(
    private readonly maxBytes = 128 * 1024 * 1024,
    now = 0,
  ) {
    // Each filter 1/32 of the budget: about 50 bits per session the budget holds, so a budget's worth
    // of forgotten sessions gives 0.004 % false positives and ten budgets' worth 9 %.
    this.forgotten = new ForgottenSessions(Math.max(1024, Math.floor(maxBytes / 32)), now);
  }

  check(keyId: number, sessionId: string, seq: number, nowMs: number): Seen {
    const id = `${keyId}\0${sessionId}`;
    const s = this.sessions.get(id);
    if (s === undefined) {
      if (this.forgotten.has(id, nowMs)) return 'forgotten';
      this.sessions.set(id, { high: seq, mask: 1, touched: nowMs });
      this.bytes += costOf(id);
      while (this.bytes > this.maxBytes) this.evictOldest(nowMs);
      return 'new';
    }
    this.sessions.delete(id);
    this.sessions.set(id, s);
    s.touched = nowMs;
    if (seq > s.high) {
      const shift = seq - s.high;
      s.mask = shift >= WINDOW ? 1 : ((s.mask << shift) | 1) >>> 0;
      s.high = seq;
      return 'new';
    }
    const back = s.high - seq;
    if (back >= WINDOW) return 'seen';
    const bit = (1 << back) >>> 0;
    if ((s.mask & bit) !== 0) return 'seen';
    s.mask = (s.mask | bit) >>> 0;
    return 'new';
  }

  /** Forgets sessions quiet for longer than a replay could still be accepted (no filter needed: their
   *  reports would be refused as too old). */
  sweep(nowMs: number): void {
    for (const [id, s] of this.sessions) {
      if (nowMs - s.touched <= REMEMBER_MS) break;
      this.sessions.delete(id);
      this.bytes -= costOf(id);
    }
  }

  private evictOldest(nowMs: number): void {
    const oldest = this.sessions.keys().next();
    if (oldest.done) return;
    this.sessions.delete(oldest.value);
    this.bytes -= costOf(oldest.value);
    this.forgotten.add(oldest.value, nowMs);
    this.evicted++;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Estimated bytes held (kept under maxBytes) and sessions pushed out so far. */
  get usage(): { bytes: number; evicted: number } {
    return { bytes: this.bytes, evicted: this.evicted };
  }
}

/** Two bytes per character (V8 may store them in one; the budget errs on the safe side). */
const costOf = (id: string) => ENTRY_OVERHEAD_BYTES + 2 * id.length;
