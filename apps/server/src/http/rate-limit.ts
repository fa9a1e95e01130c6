import { RATE_LIMITS } from '@tlprt/contract';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { Clock } from '../lib/clock.js';
import { sha256 } from '../lib/tokens.js';

export interface RateLimitSettings {
  /** Guest calls per client address per minute. */
  guestPerMinute: number;
  loginFailuresPerLogin: number;
  loginFailuresPerAddress: number;
  failureWindowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  guestPerMinute: RATE_LIMITS.guestPerMinute,
  loginFailuresPerLogin: RATE_LIMITS.loginFailuresPerLogin,
  loginFailuresPerAddress: RATE_LIMITS.loginFailuresPerAddress,
  failureWindowMs: RATE_LIMITS.failureWindowMs,
};

/**
 * Counts failures per key in a fixed window, in the database so every server node shares the count.
 * Once a key reaches `max` failures, further attempts are refused until its window ends — whether or
 * not the next password is right. Keys are stored as sha256.
 */
export class FailureCounter {
  private recorded = 0;

  constructor(
    private readonly db: Db,
    private readonly scope: 'login' | 'address',
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: Clock,
  ) {}

  /** Milliseconds until the key may try again; 0 when it may try now. */
  async retryAfter(key: string): Promise<number> {
    const w = await this.db
      .selectFrom('login_failures')
      .select(['count', 'started_at'])
      .where('scope', '=', this.scope)
      .where('key_hash', '=', sha256(key))
      .executeTakeFirst();
    if (!w || w.count < this.max) return 0;
    return Math.max(0, Number(w.started_at) + this.windowMs - this.now());
  }

  /** One more failure: the count goes up, or starts again at 1 when the key's window has ended. */
  async record(key: string): Promise<void> {
    const now = this.now();
    const ended = sql<boolean>`login_failures.started_at + ${this.windowMs} <= ${now}`;
    await this.db
      .insertInto('login_failures')
      .values({ scope: this.scope, key_hash: sha256(key), count: 1, started_at: now })
      .onConflict((oc) =>
        oc.columns(['scope', 'key_hash']).doUpdateSet({
          count: sql`case when ${ended} then 1 else login_failures.count + 1 end`,
          started_at: sql`case when ${ended} then ${now} else login_failures.started_at end`,
        }),
      )
      .execute();
    // Bounds the table under a spray of distinct logins: ended windows go now and then.
    if (++this.recorded % 200 === 0) {
      await this.db
        .deleteFrom('login_failures')
        .where('started_at', '<=', now - this.windowMs)
        .execute();
    }
  }

  async clear(key: string): Promise<void> {
    await this.db
      .deleteFrom('login_failures')
      .where('scope', '=', this.scope)
      .where('key_hash', '=', sha256(key))
      .execute();
  }
}
