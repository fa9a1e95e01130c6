import { RATE_LIMITS } from '@tlprt/contract';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { LoginFailuresTable } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { sha256 } from '../lib/tokens.js';

/** RATE_LIMITS of the contract; tests lower them. */
export interface RateLimitSettings {
  /** Guest calls per client address per minute. */
  guestPerMinute: number;
  /** Public key-settings reads (the player plugin) per client address per minute. */
  playerSettingsPerMinute: number;
  loginFailuresPerLoginAndAddress: number;
  loginFailuresPerAddress: number;
  loginSlowdownAfter: number;
  loginMaxDelayMs: number;
  confirmFailuresPerUser: number;
  failureWindowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  guestPerMinute: RATE_LIMITS.guestPerMinute,
  playerSettingsPerMinute: RATE_LIMITS.playerSettingsPerMinute,
  loginFailuresPerLoginAndAddress: RATE_LIMITS.loginFailuresPerLoginAndAddress,
  loginFailuresPerAddress: RATE_LIMITS.loginFailuresPerAddress,
  loginSlowdownAfter: RATE_LIMITS.loginSlowdownAfter,
  loginMaxDelayMs: RATE_LIMITS.loginMaxDelayMs,
  confirmFailuresPerUser: RATE_LIMITS.confirmFailuresPerUser,
  failureWindowMs: RATE_LIMITS.failureWindowMs,
};

/** What counts failed passwords: per (login, address) and per address (hard limits), per login (a
 *  growing delay only) and per account for confirmations of a signed-in user. */
export interface LoginFailures {
  perLoginAndAddress: FailureCounter;
  perAddress: FailureCounter;
  perLogin: FailureCounter;
  perConfirm: FailureCounter;
  /** The wait before a sign-in attempt of a login with `failures` recent failures from anywhere. */
  delayFor(failures: number): number;
}

export function loginFailures(db: Db, limits: RateLimitSettings, now: Clock): LoginFailures {
  const counter = (scope: FailureScope, max: number) =>
    new FailureCounter(db, scope, max, limits.failureWindowMs, now);
  return {
    perLoginAndAddress: counter('login-address', limits.loginFailuresPerLoginAndAddress),
    perAddress: counter('address', limits.loginFailuresPerAddress),
    // Never refuses on its own (max unreachable): its count only sets the delay.
    perLogin: counter('login', Number.MAX_SAFE_INTEGER),
    perConfirm: counter('confirm', limits.confirmFailuresPerUser),
    delayFor: (failures) =>
      failures < limits.loginSlowdownAfter
        ? 0
        : Math.min(limits.loginMaxDelayMs, 250 * 2 ** (failures - limits.loginSlowdownAfter)),
  };
}

type FailureScope = LoginFailuresTable['scope'];

/**
 * Counts failures per key in a fixed window, in the database so every server node shares the count.
 * Once a key reaches `max` failures, further attempts are refused until its window ends — whether or
 * not the next password is right. Keys are stored as sha256.
 */
export class FailureCounter {
  private recorded = 0;

  constructor(
    private readonly db: Db,
    private readonly scope: FailureScope,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: Clock,
  ) {}

  private window(key: string) {
    return this.db
      .selectFrom('login_failures')
      .select(['count', 'started_at'])
      .where('scope', '=', this.scope)
      .where('key_hash', '=', sha256(key))
      .executeTakeFirst();
  }

  /** Milliseconds until the key may try again; 0 when it may try now. */
  async retryAfter(key: string): Promise<number> {
    const w = await this.window(key);
    if (!w || w.count < this.max) return 0;
    return Math.max(0, Number(w.started_at) + this.windowMs - this.now());
  }

  /** Failures of the key in its current window. */
  async count(key: string): Promise<number> {
    const w = await this.window(key);
    return w && Number(w.started_at) + this.windowMs > this.now() ? w.count : 0;
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
