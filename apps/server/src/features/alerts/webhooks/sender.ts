import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  MSG_ALERTS,
  type TAlertDelivery,
  type TAlertEventType,
  type TAlertMetric,
  type TAlertOp,
  type TWebhookPayload,
  WEBHOOK_HEADERS,
} from '@tlprt/contract';
import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/index.js';
import { notFound, tooManyRequests } from '../../../http/errors.js';
import { SlidingWindowCounter } from '../../../lib/sliding-window.js';
import type { AddressClass } from '../../../net/address.js';
import { reasonOf } from '../../../net/failure.js';
import { type SafeFetchOptions, safeStream } from '../../../net/safe-fetch.js';
import {
  attemptsOf,
  claimDelivery,
  countAttempts,
  type DueDelivery,
  dueDeliveries,
  findDue,
  findTeamDelivery,
  insertAttempt,
  insertDelivery,
  settleDelivery,
} from './delivery-queries.js';
import { presentDelivery } from './presenter.js';
import { webhookSignature } from './sign.js';
import { webhookDns } from './target.js';

/** What a delivery's body says of its rule. */
export interface DeliveryRule {
  id: number;
  teamId: number;
  name: string;
  metric: TAlertMetric;
  op: TAlertOp;
  threshold: number;
  windowMinutes: number;
}
export interface DeliveryEvent {
  type: TAlertEventType;
  value: number | null;
  /** Epoch ms; null when not applicable (a test). */
  openedAt: number | null;
  resolvedAt: number | null;
}

/** A delivery is retried until this long after it was made, then failed (docs/DESIGN.md §13). */
export const GIVE_UP_AFTER_MS = 24 * 3600_000;
/** The wait before each retry: the first within 30 s (a receiver restarting), then growing (a receiver
 *  down for hours is not hammered), then every REPEAT_DELAY_MS until GIVE_UP_AFTER_MS. */
export const RETRY_DELAYS_MS: readonly number[] = [
  15_000,
  60_000,
  5 * 60_000,
  15 * 60_000,
  3600_000,
  2 * 3600_000,
];
export const REPEAT_DELAY_MS = 3 * 3600_000;
/** Send test, per rule per minute on a node: each one makes a delivery retried for a day. */
export const TEST_SENDS_PER_MINUTE = 10;

export interface WebhookSenderOptions {
  /** How often the timer looks for due deliveries (ms). */
  intervalMs?: number;
  /** Attempts in flight at once on this node (the timer's; Send test's are on top, limited per rule). */
  concurrency?: number;
  /** The address policy; classifyAddress unless a test narrows it. */
  classify?: (address: string) => AddressClass;
}

const DEFAULT_INTERVAL_MS = 5000;
const DEFAULT_CONCURRENCY = 8;
const USER_AGENT = 'tlprt-webhooks/1.0 (alert delivery)';

type Outcome = { state: 'delivered' | 'failed' } | { state: 'pending'; nextAt: number };

/** The wait after the n-th failed attempt (n from 1). */
export function retryDelayMs(attempts: number): number {
  return RETRY_DELAYS_MS[attempts - 1] ?? REPEAT_DELAY_MS;
}

/**
 * The outbox of signed webhook deliveries (docs/DESIGN.md §13). A delivery is a row written in the transaction
 * of the change that caused it (an incident opened or resolved, a test), so it exists exactly when that
 * change does. Any node sends a due one: it holds it by a lease (one conditional update, which only one
 * node wins), POSTs the stored body signed with the rule's current secret to its current URL through
 * the SSRF-safe fetch, logs the attempt, and marks it delivered or schedules the next one.
 */
export class WebhookSender {
  private readonly fetchOptions: SafeFetchOptions;
  private readonly intervalMs: number;
  private readonly concurrency: number;
  /** A delivery is held for longer than an attempt can take, so another node never sends it at the same
   *  time, yet one held by a node that died is sent again soon. */
  private readonly leaseMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  /** Ids this node is attempting now: a second run of this node skips them without a query. */
  private readonly held = new Set<string>();
  private readonly testSends: SlidingWindowCounter;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;

  constructor(
    readonly ctx: AppContext,
    options: WebhookSenderOptions = {},
  ) {
    const { config } = ctx;
    const dns = webhookDns(ctx);
    this.fetchOptions = {
      // The customer names the receiver's port (8443, 3000...); the address checks are the guard, and
      // a public host's other services would only see our signed JSON and answer a status.
      ports: { http: 80, https: 443 },
      anyPort: true,
      allowPrivate: config.verifyAllowPrivate,
      timeoutMs: config.webhookTimeoutMs,
      // The answer's body is never read: its status says it all.
      maxBytes: 1,
      maxRedirects: 0,
      redirect: 'manual',
      method: 'POST',
      userAgent: USER_AGENT,
      resolveAddresses: (host) => dns.addresses(host),
      ...(options.classify ? { classify: options.classify } : {}),
    };
    this.intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.leaseMs = 2 * config.webhookTimeoutMs + 30_000;
    this.testSends = new SlidingWindowCounter(TEST_SENDS_PER_MINUTE, 60_000, ctx.now, 10_000);
  }

  /** Adds a delivery in the caller's transaction (it exists only if that commits); its id. */
  async enqueue(trx: Db, rule: DeliveryRule, event: DeliveryEvent, now: number): Promise<string> {
    const id = randomUUID();
    const payload: TWebhookPayload = {
      type: event.type,
      id,
      teamId: rule.teamId,
      alert: {
        id: rule.id,
        name: rule.name,
        metric: rule.metric,
        op: rule.op,
        threshold: rule.threshold,
        windowMinutes: rule.windowMinutes,
      },
      value: event.value,
      openedAt: event.openedAt === null ? null : new Date(event.openedAt).toISOString(),
      resolvedAt: event.resolvedAt === null ? null : new Date(event.resolvedAt).toISOString(),
    };
    await insertDelivery(trx, {
      id,
      ruleId: rule.id,
      type: event.type,
      body: JSON.stringify(payload),
      now,
      giveUpAt: now + GIVE_UP_AFTER_MS,
    });
    return id;
  }

  /**
   * Sends every delivery due at `now` (epoch ms) that no other node holds, at most `concurrency` at
   * once, and returns when they are all settled. Without `now` the clock is read at each step (the
   * timer's runs may last while slow receivers time out).
   */
  async runDue(now?: number): Promise<void> {
    const clock = now === undefined ? this.ctx.now : () => now;
    const mine = new Set<Promise<void>>();
    for (;;) {
      const free = this.concurrency - this.inFlight.size;
      let started = 0;
      if (free > 0) {
        const at = clock();
        for (const due of await dueDeliveries(this.ctx.db, at, free, [...this.held])) {
          if (!(await this.claim(due, at))) continue;
          started++;
          const attempt = this.track(due, at);
          mine.add(attempt);
          void attempt.finally(() => mine.delete(attempt));
        }
      }
      if (started === 0) {
        await Promise.all(mine);
        return;
      }
      await Promise.race(mine);
    }
  }

  /** "Send test": an alert.test delivery attempted at once; the delivery after that first attempt (a
   *  failed one stays pending and is retried as any other). */
  async sendTest(rule: DeliveryRule, now: number = this.ctx.now()): Promise<TAlertDelivery> {
    const wait = this.testSends.hit(String(rule.id));
    if (wait > 0) throw tooManyRequests(wait, MSG_ALERTS.tooManyTests);
    const { db } = this.ctx;
    const id = await db
      .transaction()
      .execute((trx) =>
        this.enqueue(trx, rule, { type: 'alert.test', value: null, openedAt: null, resolvedAt: null }, now),
      );
    const due = await findDue(db, id);
    if (due && (await this.claim(due, now))) await this.track(due, now);
    const row = await findTeamDelivery(db, rule.teamId, id);
    if (!row) throw notFound(MSG_ALERTS.notFound); // the rule was deleted meanwhile
    return presentDelivery(row, await attemptsOf(db, rule.teamId, [id]));
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for the attempts in flight (their outcome is recorded). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    await Promise.all([...this.inFlight]);
  }

  private tick(): void {
    if (this.ticking) return;
    this.ticking = this.runDue()
      .catch((err: unknown) => this.ctx.log.warn({ err }, 'webhook deliveries: run failed'))
      .finally(() => {
        this.ticking = null;
      });
  }

  private async claim(due: DueDelivery, now: number): Promise<boolean> {
    if (this.held.has(due.id)) return false;
    return claimDelivery(this.ctx.db, due.id, now, due.leaseUntil, now + this.leaseMs);
  }

  /** Runs one claimed delivery's attempt, counted in flight; never rejects. */
  private track(due: DueDelivery, now: number): Promise<void> {
    this.held.add(due.id);
    const attempt = this.attempt(due, now)
      .catch((err: unknown) =>
        // A rule deleted during the attempt took its delivery along: nothing is left to record.
        this.ctx.log.info(
          { deliveryId: due.id, ruleId: due.ruleId, err: reasonOf(err) },
          'webhook delivery: attempt not recorded',
        ),
      )
      .finally(() => {
        this.held.delete(due.id);
        this.inFlight.delete(attempt);
      });
    this.inFlight.add(attempt);
    return attempt;
  }

  private async attempt(due: DueDelivery, at: number): Promise<void> {
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    const { url, secret } = due;
    // A rule that lost its webhook since has nothing to send to, ever: failed without a request.
    const sendable = url !== null && secret !== null;
    if (url === null || secret === null) error = 'not sent: the alert has no webhook URL any more';
    else {
      try {
        status = await this.post(url, secret, due.id, due.body, at);
        if (status >= 300 && status < 400) error = 'redirects are not followed';
      } catch (err) {
        error = reasonOf(err);
      }
    }
    const durationMs = Math.round(performance.now() - started);
    const outcome = await this.ctx.db.transaction().execute(async (trx): Promise<Outcome> => {
      await insertAttempt(trx, { deliveryId: due.id, at, status, durationMs, error });
      let next: Outcome;
      if (status !== null && status >= 200 && status < 300) next = { state: 'delivered' };
      else if (!sendable || at >= due.giveUpAt) next = { state: 'failed' };
      else {
        const attempts = await countAttempts(trx, due.id);
        // The last retry lands on the give-up time itself rather than past it.
        next = { state: 'pending', nextAt: Math.min(at + retryDelayMs(attempts), due.giveUpAt) };
      }
      await settleDelivery(trx, due.id, next);
      return next;
    });
    if (outcome.state !== 'delivered') {
      this.ctx.log.info(
        {
          deliveryId: due.id,
          ruleId: due.ruleId,
          teamId: due.teamId,
          // The host only: receivers' URLs often carry a token in their path.
          host: url === null ? null : new URL(url).host,
          status,
          error,
          state: outcome.state,
        },
        'webhook delivery attempt failed',
      );
    }
  }

  /** One signed POST of the stored body; the answer's status. */
  private async post(url: string, secret: string, id: string, body: string, at: number): Promise<number> {
    const bytes = Buffer.from(body, 'utf8');
    const page = await safeStream(
      new URL(url),
      {
        ...this.fetchOptions,
        body: bytes,
        headers: {
          'Content-Type': 'application/json',
          Accept: '*/*',
          [WEBHOOK_HEADERS.delivery]: id,
          [WEBHOOK_HEADERS.signature]: webhookSignature(secret, Math.floor(at / 1000), bytes),
        },
      },
      () => null,
    );
    return page.status;
  }
}
