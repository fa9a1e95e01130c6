import { z } from 'zod';
import { envelope, requiredText, ZKeyHash } from './common.js';
import { LIMITS } from './constants.js';
import { MSG_ALERTS } from './messages.js';
import { ROLE_ROWS, Role } from './roles.js';

/**
 * Alert rules of a team, their incidents and their signed webhooks (docs/DESIGN.md §13). A rule watches one
 * metric of the team's keys over a window of closed minutes; while the condition holds an incident is
 * open, and each opening and resolution is notified once (e-mail to members of chosen roles, a signed
 * POST to one URL).
 */
export const ALERT_METRICS = [
  'p2pShare',
  'originSaved',
  'cdnBytes',
  'viewers',
  'failureRate',
  'rebufferRatio',
  'startupP95Ms',
  'rejectedBytes',
] as const;
export type TAlertMetric = (typeof ALERT_METRICS)[number];
export type TAlertUnit = 'percent' | 'bytes' | 'viewers' | 'ms';

export interface AlertMetricInfo {
  label: string;
  unit: TAlertUnit;
  /** How the window's value is made, as the form and the guide explain it. */
  description: string;
}
/** Each metric's name as shown, unit and meaning; the server computes them in features/alerts. */
export const ALERT_METRIC_INFO: Record<TAlertMetric, AlertMetricInfo> = {
  p2pShare: {
    label: 'P2P share',
    unit: 'percent',
    description: 'P2P bytes as a share of all bytes viewers received in the window.',
  },
  originSaved: {
    label: 'Origin saving',
    unit: 'percent',
    description:
      'P2P bytes less the bytes the integrity service read from the origin to verify them, as a share of all bytes viewers received.',
  },
  cdnBytes: {
    label: 'CDN bytes',
    unit: 'bytes',
    description: 'Bytes viewers received from the CDN in the window.',
  },
  viewers: {
    label: 'Viewers',
    unit: 'viewers',
    description: 'The most viewers of any minute of the window (the watched keys summed).',
  },
  failureRate: {
    label: 'Failure rate',
    unit: 'percent',
    description: 'Plays that ended in a fatal playback error, as a share of the plays started in the window.',
  },
  rebufferRatio: {
    label: 'Rebuffering',
    unit: 'percent',
    description: 'Time viewers waited for data, as a share of their playing and waiting time.',
  },
  startupP95Ms: {
    label: 'Startup time p95',
    unit: 'ms',
    description: '95% of the plays of the window started within this time.',
  },
  rejectedBytes: {
    label: 'Refused peer bytes',
    unit: 'bytes',
    description: 'Bytes peers sent that failed verification (an altered or broken segment) in the window.',
  },
};
export const ALERT_OPS = ['above', 'below'] as const;
export type TAlertOp = (typeof ALERT_OPS)[number];
export const ALERT_STATES = ['ok', 'firing'] as const;
export type TAlertState = (typeof ALERT_STATES)[number];
export const ALERT_EVENT_TYPES = ['alert.opened', 'alert.resolved', 'alert.test'] as const;
export type TAlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/** Roles whose members an alert may e-mail: the team's own roles (the supervisor is nobody's member). */
export const ALERT_EMAIL_ROLES: readonly number[] = ROLE_ROWS.filter((r) => r.id !== Role.Supervisor).map(
  (r) => r.id,
);

/** What the server signs with: `whsec_` and 32 random bytes in base64url. Shown once, at creation and
 *  at each rotation. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;
/** The headers of a delivery (docs/DESIGN.md §13). */
export const WEBHOOK_HEADERS = { delivery: 'Tlprt-Delivery', signature: 'Tlprt-Signature' } as const;

/** A webhook target: http(s), no user name or password, no fragment. Private addresses are refused
 *  when the server resolves it (at save and at each delivery), not here. */
export const ZWebhookUrl = z
  .string({ error: MSG_ALERTS.webhookUrl })
  .trim()
  .max(LIMITS.webhookUrlMax, MSG_ALERTS.webhookUrl)
  .refine((s) => {
    if (!URL.canParse(s)) return false;
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.hash;
  }, MSG_ALERTS.webhookUrl);

const finite = (error: string) => z.number({ error }).finite(error);

/** A rule as created and replaced (PUT sends it whole). */
export const ZAlertRuleInput = z
  .object({
    name: requiredText(LIMITS.alertNameMax),
    metric: z.enum(ALERT_METRICS, { error: MSG_ALERTS.metric }),
    op: z.enum(ALERT_OPS, { error: MSG_ALERTS.op }),
    threshold: finite(MSG_ALERTS.threshold).min(0, MSG_ALERTS.threshold),
    windowMinutes: z
      .number({ error: MSG_ALERTS.windowMinutes })
      .int(MSG_ALERTS.windowMinutes)
      .min(1, MSG_ALERTS.windowMinutes)
      .max(LIMITS.alertWindowMinutesMax, MSG_ALERTS.windowMinutes),
    /** The condition holds only when the window had at least this many viewers (its busiest minute). */
    minViewers: z
      .number({ error: MSG_ALERTS.minViewers })
      .int(MSG_ALERTS.minViewers)
      .min(0, MSG_ALERTS.minViewers)
      .max(1_000_000_000, MSG_ALERTS.minViewers)
      .default(1),
    /** The keys it watches; empty: every key of the team, those made later too. */
    keys: z.array(ZKeyHash).max(LIMITS.alertKeysMax, MSG_ALERTS.tooManyKeys).default([]),
    /** Members of these roles get the opened and resolved e-mails. */
    emailRoles: z
      .array(
        z
          .number()
          .int()
          .refine((r) => ALERT_EMAIL_ROLES.includes(r), MSG_ALERTS.emailRole),
      )
      .max(ALERT_EMAIL_ROLES.length)
      .default([]),
    /** null or absent: no webhook. */
    webhookUrl: ZWebhookUrl.nullable().default(null),
  })
  .superRefine((r, ctx) => {
    if (ALERT_METRIC_INFO[r.metric].unit === 'percent' && r.threshold > 100)
      ctx.addIssue({ code: 'custom', path: ['threshold'], message: MSG_ALERTS.percentThreshold });
  });
export type TAlertRuleInput = z.input<typeof ZAlertRuleInput>;
export type TAlertRuleValues = z.output<typeof ZAlertRuleInput>;

/** One incident: opened when the condition began to hold, resolved when it stopped. */
export const ZAlertIncident = z.object({
  id: z.number().int(),
  openedAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** The metric's value of the window that opened it, and of the one that resolved it. */
  openValue: z.number().nullable(),
  resolveValue: z.number().nullable(),
});
export type TAlertIncident = z.infer<typeof ZAlertIncident>;

/** A rule as listed: its settings, never its secret. */
export const ZAlertRule = z.object({
  id: z.number().int(),
  name: z.string(),
  metric: z.enum(ALERT_METRICS),
  op: z.enum(ALERT_OPS),
  threshold: z.number(),
  windowMinutes: z.number().int(),
  minViewers: z.number().int(),
  keys: z.array(z.string()),
  emailRoles: z.array(z.number().int()),
  webhookUrl: z.string().nullable(),
  state: z.enum(ALERT_STATES),
  /** When the open incident began; null when OK. */
  firingSince: z.string().nullable(),
  /** The last evaluated window's value (null: no data, or fewer viewers than minViewers) and when. */
  lastValue: z.number().nullable(),
  lastEvaluatedAt: z.string().nullable(),
  /** The latest incidents, newest first (at most LIMITS.alertHistoryShown). */
  history: z.array(ZAlertIncident),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAlertRule = z.infer<typeof ZAlertRule>;
export const ZAlertListResponse = envelope(z.array(ZAlertRule));
/** A creation, a replacement that added a webhook URL, and a rotation answer the secret, once. */
export const ZAlertSaved = ZAlertRule.extend({
  webhookSecret: z.string().regex(WEBHOOK_SECRET_PATTERN).nullable(),
});
export type TAlertSaved = z.infer<typeof ZAlertSaved>;
export const ZAlertSavedResponse = envelope(ZAlertSaved);
export const ZAlertSecretResponse = envelope(
  z.object({ webhookSecret: z.string().regex(WEBHOOK_SECRET_PATTERN) }),
);

/** One attempt of a delivery: the HTTP status (null: no answer) and how long it took. */
export const ZDeliveryAttempt = z.object({
  at: z.string(),
  status: z.number().int().nullable(),
  durationMs: z.number().int(),
  /** Why it failed without a status (timed out, refused address, connection reset...). */
  error: z.string().nullable(),
});
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
/** One webhook delivery: the same id on every attempt (`Tlprt-Delivery`). */
export const ZAlertDelivery = z.object({
  id: z.string(),
  type: z.enum(ALERT_EVENT_TYPES),
  createdAt: z.string(),
  /** pending: waiting for its next attempt; delivered: a 2xx came; failed: given up after 24 h. */
  state: z.enum(DELIVERY_STATES),
  nextAttemptAt: z.string().nullable(),
  attempts: z.array(ZDeliveryAttempt),
});
export type TAlertDelivery = z.infer<typeof ZAlertDelivery>;
export const ZAlertDeliveryListResponse = envelope(z.array(ZAlertDelivery));
/** "Send test": the delivery after its first attempt. */
export const ZAlertDeliveryResponse = envelope(ZAlertDelivery);

/** The form's preview: the metric over the last 24 hours, as the rule would have seen it. */
export const ZAlertPreviewRequest = z.object({
  metric: z.enum(ALERT_METRICS, { error: MSG_ALERTS.metric }),
  windowMinutes: ZAlertRuleInput.shape.windowMinutes,
  minViewers: ZAlertRuleInput.shape.minViewers,
  keys: ZAlertRuleInput.shape.keys,
});
export type TAlertPreviewRequest = z.input<typeof ZAlertPreviewRequest>;
export const ZAlertPreview = z.object({
  /** One point per 10 minutes, oldest first: the window ending there (`t`, unix seconds). value null:
   *  no data, or fewer viewers than minViewers. */
  points: z.array(z.object({ t: z.number().int(), value: z.number().nullable() })),
});
export type TAlertPreview = z.infer<typeof ZAlertPreview>;
export const ZAlertPreviewResponse = envelope(ZAlertPreview);

/** The body of every webhook POST, signed as sent (docs/DESIGN.md §13). */
export const ZWebhookPayload = z.object({
  type: z.enum(ALERT_EVENT_TYPES),
  /** The delivery's id, as in `Tlprt-Delivery`: the same on every retry (a receiver dedupes on it). */
  id: z.string(),
  teamId: z.number().int(),
  alert: z.object({
    id: z.number().int(),
    name: z.string(),
    metric: z.enum(ALERT_METRICS),
    op: z.enum(ALERT_OPS),
    threshold: z.number(),
    windowMinutes: z.number().int(),
  }),
  value: z.number().nullable(),
  openedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
});
export type TWebhookPayload = z.infer<typeof ZWebhookPayload>;
