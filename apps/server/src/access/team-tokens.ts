import { isTeamTokenFormat, type TTeamTokenScope } from '@tlprt/contract';
import type { Db } from '../db/index.js';
import type { Clock } from '../lib/clock.js';
import { SlidingWindowCounter } from '../lib/sliding-window.js';
import { sha256 } from '../lib/tokens.js';

/** A live (not revoked) API token as the look-up read it. */
interface LiveToken {
  id: number;
  teamId: number;
  scope: string;
  /** When its last use was written (or this node decided to write it). */
  lastUsedAt: number | null;
}

interface Entry {
  token: LiveToken | null;
  until: number;
}

export interface TeamTokensOptions {
  /** How long an answer (valid or not) is kept: a revoked token is refused on every node within it. */
  ttlMs?: number;
  /** Cached answers at most: made-up tokens must not fill memory. */
  maxEntries?: number;
  /** last_used_at is written at most this often per token (it is shown to people, not billed). */
  touchEveryMs?: number;
  /** Refused token attempts (401) one client address (addressGroup) may make per minute on this node
   *  before its token calls are answered 429 unread (TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE). */
  failuresPerAddressPerMinute?: number;
}

/**
 * Which team an API token (`Authorization: Bearer tlprt_api_…`) belongs to, for the public calls that
 * accept one (the ingest's batches, the export, the hash push; http/token-guard.ts). Shared here
 * because the feature that manages the tokens and the ones that accept them never import each other.
 *
 * - A value that is not in the token format is refused without a database query (a session token, junk).
 * - The token is compared through the unique index on its SHA-256: nothing secret is compared byte by
 *   byte in our code, and the table holds no secret.
 * - Answers are cached for `ttlMs` (5 s), counted from the moment the read began, so a token revoked on
 *   any node is refused everywhere within that time; this node forgets it at once (`forget`).
 * - Concurrent look-ups of one token share a single query.
 */
export class TeamTokens {
  private readonly cache = new Map<string, Entry>();
  private readonly reading = new Map<string, Promise<Entry>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly touchEveryMs: number;
  /** Refused attempts per client address (http/token-guard.ts charges and reads it): a made-up token
   *  costs a look-up, so an address that keeps guessing is stopped before it costs more. */
  readonly failures: SlidingWindowCounter;
  /** Bumped by forget/clear: a read begun before is not remembered (it may predate a revocation). */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly nowMs: Clock,
    options: TeamTokensOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 5000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.touchEveryMs = options.touchEveryMs ?? 60_000;
    this.failures = new SlidingWindowCounter(options.failuresPerAddressPerMinute ?? 60, 60_000, nowMs);
  }

  /** The team id of a live token of that scope, else null (malformed, unknown, revoked, other scope). */
  async teamOf(token: string, scope: TTeamTokenScope = 'ingest'): Promise<number | null> {
    if (!isTeamTokenFormat(token)) return null;
    const live = await this.lookup(sha256(token));
    if (!live || live.scope !== scope) return null;
    await this.touch(live);
    return live.teamId;
  }

  /** Drops what this node knows of a token (by its stored hash): called after a revocation commits. */
  forget(tokenHash: string): void {
    this.generation++;
    this.cache.delete(tokenHash);
    this.reading.delete(tokenHash);
  }

  clear(): void {
    this.generation++;
    this.cache.clear();
    this.reading.clear();
  }

  private async lookup(hash: string): Promise<LiveToken | null> {
    const cached = this.cache.get(hash);
    if (cached && cached.until > this.nowMs()) return cached.token;
    let pending = this.reading.get(hash);
    if (!pending) {
      pending = this.read(hash).finally(() => {
        if (this.reading.get(hash) === pending) this.reading.delete(hash);
      });
      this.reading.set(hash, pending);
    }
    return (await pending).token;
  }

  private async read(hash: string): Promise<Entry> {
    // The entry's age counts from before the query: a read racing a revocation cannot outlive it by more
    // than ttlMs.
    const startedAt = this.nowMs();
    const generation = this.generation;
    const row = await this.db
      .selectFrom('team_tokens')
      .select(['id', 'team_id', 'scope', 'last_used_at'])
      .where('token_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const entry: Entry = {
      token: row ? { id: row.id, teamId: row.team_id, scope: row.scope, lastUsedAt: row.last_used_at } : null,
      until: startedAt + this.ttlMs,
    };
    if (generation === this.generation) this.remember(hash, entry);
    return entry;
  }

  private remember(hash: string, entry: Entry): void {
    if (this.cache.size >= this.maxEntries) {
      const now = this.nowMs();
      for (const [h, e] of this.cache) if (e.until <= now) this.cache.delete(h);
      // Still full of live answers (a flood of made-up tokens): start over rather than grow.
      if (this.cache.size >= this.maxEntries) this.cache.clear();
    }
    this.cache.set(hash, entry);
  }

  /** Writes last_used_at when the one known is older than touchEveryMs. The condition is repeated in
   *  SQL, so several nodes together still write about once a minute. */
  private async touch(live: LiveToken): Promise<void> {
    const now = this.nowMs();
    if (live.lastUsedAt !== null && now - live.lastUsedAt < this.touchEveryMs) return;
    // Set before the write: the requests arriving meanwhile see it and do not write again.
    live.lastUsedAt = now;
    try {
      await this.db
        .updateTable('team_tokens')
        .set({ last_used_at: now })
        .where('id', '=', live.id)
        .where((eb) =>
          eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - this.touchEveryMs)]),
        )
        .execute();
    } catch {
      // Only a display value: a failed write must never refuse the caller.
    }
  }
}
