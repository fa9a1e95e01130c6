import {
  ALERT_METRIC_INFO,
  ALERT_METRICS,
  ALERT_OPS,
  EventCode,
  type TAlertEventType,
  type TAlertMetric,
  type TAlertOp,
  WEB_PATHS,
} from '@tlprt/contract';
import { listMemberIds } from '../../access/membership.js';
import type { AppContext } from '../../context.js';
import { publishAll, toUsers } from '../../events/publish.js';
import { alertOpenedMail, alertResolvedMail } from '../../mail/templates.js';
import {
  claimMinute,
  type DueRule,
  findOpenIncident,
  listDueRules,
  memberEmails,
  openIncident,
  resolveIncident,
} from './incident-queries.js';
import type { DeliveryRule, WebhookSender } from './webhooks/sender.js';
import { conditionHolds, formatMetricValue, seenValue, windowMinutes, windowValue } from './window.js';
import { minuteSums } from './window-queries.js';

/**
 * Evaluates every rule once per closed minute (docs/DESIGN.md §13). A minute M (unix s of its start) is
 * evaluated once `now` ≥ (M + 60) s + ALERTS_EVALUATE_AFTER_MS, so every node's flush and the plugins'
 * reports of it are stored; each rule's window is its `window_minutes` minutes ending with M. Nodes race
 * for a rule's minute with a conditional update in the transaction that opens or resolves its incident
 * and enqueues its webhook: the node whose update touched the row notifies, the others do nothing. A
 * node that was down evaluates the latest closed minute only: an old window is no news.
 */

export interface AlertEvaluatorOptions {
  /** How long after a minute's end it is evaluated; ALERTS_EVALUATE_AFTER_MS by default. */
  evaluateAfterMs?: number;
  /** How often the timer looks for a minute to evaluate; ALERTS_EVALUATE_EVERY_MS by default. */
  everyMs?: number;
}

/** The last minute (unix s of its start) ready for evaluation at `now` (epoch ms). */
export function lastClosedMinute(now: number, evaluateAfterMs: number): number {
  return Math.floor((now - evaluateAfterMs) / 60_000) * 60 - 60;
}

/** The statistics view for a rule's window: the screen reads its range from the URL (web
 *  statistics/view.ts: `range`, `list`); Live shows the last 5 minutes, Day the minutes of 24 hours. */
export function statisticsLink(publicUrl: string, windowMinutes: number): string {
  return `${publicUrl}${WEB_PATHS.statistics}?range=${windowMinutes <= 5 ? 'live' : 'day'}`;
}

/** A rule's settings as the evaluator uses them; null when a stored value is not one it knows. */
interface Rule {
  row: DueRule;
  metric: TAlertMetric;
  op: TAlertOp;
  keys: string[];
  emailRoles: number[];
}

function jsonList<T>(text: string, item: (x: unknown) => x is T): T[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter(item) : [];
  } catch {
    return [];
  }
}
const isString = (x: unknown): x is string => typeof x === 'string';
const isInt = (x: unknown): x is number => Number.isInteger(x);
const isMetric = (m: string): m is TAlertMetric => (ALERT_METRICS as readonly string[]).includes(m);
const isOp = (o: string): o is TAlertOp => (ALERT_OPS as readonly string[]).includes(o);

function ruleOf(row: DueRule): Rule | null {
  if (!isMetric(row.metric) || !isOp(row.op)) return null;
  return {
    row,
    metric: row.metric,
    op: row.op,
    keys: [...new Set(jsonList(row.keys, isString))].sort(),
    emailRoles: jsonList(row.email_roles, isInt),
  };
}

/** An incident opened or resolved by this node: what its notices say. */
interface Change {
  type: Extract<TAlertEventType, 'alert.opened' | 'alert.resolved'>;
  value: number | null;
  openedAt: number;
  resolvedAt: number | null;
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export class AlertEvaluator {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Webhook sends started after a commit: stop() waits for them before the database closes. */
  private readonly sends = new Set<Promise<void>>();
  private readonly evaluateAfterMs: number;
  private readonly everyMs: number;

  constructor(
    readonly ctx: AppContext,
    readonly webhooks: WebhookSender,
    opts: AlertEvaluatorOptions = {},
  ) {
    this.evaluateAfterMs = opts.evaluateAfterMs ?? ctx.config.alertsEvaluateAfterMs;
    this.everyMs = opts.everyMs ?? ctx.config.alertsEvaluateEveryMs;
  }

  /** Evaluates the windows ending at the last closed minute before `now` (epoch ms) of every rule no
   *  node has evaluated at that minute yet. */
  async evaluate(now: number = this.ctx.now()): Promise<void> {
    const minute = lastClosedMinute(now, this.evaluateAfterMs);
    const rules = (await listDueRules(this.ctx.db, minute))
      .map((row) => {
        const rule = ruleOf(row);
        if (!rule) this.ctx.log.error({ alertId: row.id }, 'alert rule with an unknown metric or operator');
        return rule;
      })
      .filter((r): r is Rule => r !== null);
    // Rules of a team watching the same keys share one read, as long as their longest window.
    const groups = new Map<string, Rule[]>();
    for (const r of rules) {
      const id = `${r.row.team_id}:${r.keys.join(',')}`;
      groups.set(id, [...(groups.get(id) ?? []), r]);
    }
    for (const group of groups.values()) {
      const first = group[0] as Rule;
      const longest = Math.max(...group.map((r) => r.row.window_minutes));
      let perMinute: Map<number, Float64Array>;
      try {
        perMinute = await minuteSums(
          this.ctx,
          first.row.team_id,
          first.keys,
          minute - (longest - 1) * 60,
          minute,
        );
      } catch (err) {
        this.ctx.log.error({ err, teamId: first.row.team_id }, 'alert window could not be read');
        continue;
      }
      for (const rule of group) {
        try {
          await this.evaluateRule(rule, perMinute, minute, now);
        } catch (err) {
          this.ctx.log.error({ err, alertId: rule.row.id }, 'alert rule evaluation failed');
        }
      }
    }
  }

  private async evaluateRule(
    rule: Rule,
    perMinute: ReadonlyMap<number, Float64Array>,
    minute: number,
    now: number,
  ): Promise<void> {
    const { row } = rule;
    const w = windowValue(rule.metric, windowMinutes(perMinute, minute, row.window_minutes));
    const condition = { op: rule.op, threshold: row.threshold, minViewers: row.min_viewers };
    const holds = conditionHolds(condition, w);
    const value = seenValue(w, row.min_viewers);
    const delivery: DeliveryRule = {
      id: row.id,
      teamId: row.team_id,
      name: row.name,
      metric: rule.metric,
      op: rule.op,
      threshold: row.threshold,
      windowMinutes: row.window_minutes,
    };
    const change = await this.ctx.db.transaction().execute(async (trx): Promise<Change | null> => {
      if (!(await claimMinute(trx, row.id, minute, value, now))) return null;
      const open = await findOpenIncident(trx, row.id);
      let change: Change | null = null;
      if (holds && !open) {
        await openIncident(trx, row.id, now, value);
        change = { type: 'alert.opened', value, openedAt: now, resolvedAt: null };
      } else if (!holds && open) {
        await resolveIncident(trx, row.id, open.id, now, value);
        change = { type: 'alert.resolved', value, openedAt: open.opened_at, resolvedAt: now };
      }
      if (change && row.webhook_url) await this.webhooks.enqueue(trx, delivery, change, now);
      return change;
    });
    if (change) await this.notify(rule, change, now);
  }

  /** After the commit: the screen's live event, the webhook outbox's attempt, the e-mails. */
  private async notify(rule: Rule, change: Change, now: number): Promise<void> {
    const { row } = rule;
    const { ctx } = this;
    try {
      const members = await listMemberIds(ctx.db, row.team_id);
      await publishAll(ctx, [
        toUsers(members, { code: EventCode.AlertChanged, team_id: row.team_id, alert_id: row.id }),
      ]);
    } catch (err) {
      ctx.log.error({ err, alertId: row.id }, 'alert event could not be published');
    }
    if (row.webhook_url) {
      const send = this.webhooks
        .runDue(now)
        .catch((err: unknown) => ctx.log.error({ err, alertId: row.id }, 'alert webhook send failed'))
        .finally(() => this.sends.delete(send));
      this.sends.add(send);
    }
    const recipients = await memberEmails(ctx.db, row.team_id, rule.emailRoles);
    if (!recipients.length) return;
    const info = ALERT_METRIC_INFO[rule.metric];
    const facts = {
      teamName: row.team_name,
      teamId: row.team_id,
      alertName: row.name,
      metricLabel: info.label,
      condition: `${rule.op} ${formatMetricValue(rule.metric, row.threshold)}`,
      windowMinutes: row.window_minutes,
      value: change.value === null ? null : formatMetricValue(rule.metric, change.value),
      openedAt: utc(change.openedAt),
      statisticsLink: statisticsLink(ctx.config.publicUrl, row.window_minutes),
    };
    const frame = { supportEmail: ctx.config.supportEmail };
    const mail =
      change.type === 'alert.opened'
        ? alertOpenedMail(frame, facts)
        : alertResolvedMail(frame, { ...facts, resolvedAt: utc(change.resolvedAt ?? now) });
    for (const to of recipients) {
      try {
        await ctx.mailer.send(to, mail);
      } catch (err) {
        ctx.log.error({ err, alertId: row.id }, 'alert e-mail could not be sent');
      }
    }
  }

  /** Evaluates on a timer; a run still going when the next tick comes is left to finish. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.evaluate(this.ctx.now())
        .catch((err: unknown) => this.ctx.log.error({ err }, 'alert evaluation failed'))
        .finally(() => {
          this.running = undefined;
        });
    }, this.everyMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run and the webhook sends it started. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await Promise.allSettled([...this.sends]);
  }
}
