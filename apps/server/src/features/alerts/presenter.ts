import type {
  TAlertIncident,
  TAlertMetric,
  TAlertOp,
  TAlertRule,
  TAlertRuleValues,
  TAlertSaved,
} from '@tlprt/contract';
import type { AlertIncidentRow, AlertRuleFields, AlertRuleRow } from './queries.js';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** A JSON array column read back; anything else (never written by us) reads as empty. */
function jsonList<T>(text: string, item: (v: unknown) => v is T): T[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter(item) : [];
  } catch {
    return [];
  }
}
const isString = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => Number.isInteger(v);

/** The input as stored: keys deduplicated (in the order given), e-mail roles too. */
export function ruleFields(v: TAlertRuleValues, secret: string | null): AlertRuleFields {
  return {
    name: v.name,
    metric: v.metric,
    op: v.op,
    threshold: v.threshold,
    window_minutes: v.windowMinutes,
    min_viewers: v.minViewers,
    keys: JSON.stringify([...new Set(v.keys)]),
    email_roles: JSON.stringify([...new Set(v.emailRoles)]),
    webhook_url: v.webhookUrl,
    webhook_secret: secret,
  };
}

export const ruleKeys = (r: Pick<AlertRuleRow, 'keys'>): string[] => jsonList(r.keys, isString);

const presentIncident = (i: AlertIncidentRow): TAlertIncident => ({
  id: i.id,
  openedAt: iso(i.opened_at),
  resolvedAt: isoOrNull(i.resolved_at),
  openValue: i.open_value,
  resolveValue: i.resolve_value,
});

/** A rule as listed, with its latest incidents (newest first): never its secret. */
export function presentRule(r: AlertRuleRow, incidents: AlertIncidentRow[]): TAlertRule {
  const open = incidents.find((i) => i.resolved_at === null);
  const firing = r.firing === 1;
  return {
    id: r.id,
    name: r.name,
    // The response schema checks them against ALERT_METRICS and ALERT_OPS.
    metric: r.metric as TAlertMetric,
    op: r.op as TAlertOp,
    threshold: r.threshold,
    windowMinutes: r.window_minutes,
    minViewers: r.min_viewers,
    keys: ruleKeys(r),
    emailRoles: jsonList(r.email_roles, isInt),
    webhookUrl: r.webhook_url,
    state: firing ? 'firing' : 'ok',
    firingSince: firing && open ? iso(open.opened_at) : null,
    lastValue: r.last_value,
    lastEvaluatedAt: isoOrNull(r.last_evaluated_at),
    history: incidents.map(presentIncident),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** A save's answer: the one time a new secret leaves the server (null when none was made). */
export const presentSaved = (rule: TAlertRule, newSecret: string | null): TAlertSaved => ({
  ...rule,
  webhookSecret: newSecret,
});

/**
 * What the supervisor audit keeps of a rule: its condition and channels, never the secret; the
 * webhook as its host only, since many receivers carry their own credential in the URL's path.
 */
export function auditSummary(r: AlertRuleFields) {
  const keys = jsonList(r.keys, isString).length;
  return {
    name: r.name,
    metric: r.metric,
    op: r.op,
    threshold: r.threshold,
    windowMinutes: r.window_minutes,
    minViewers: r.min_viewers,
    keys: keys === 0 ? 'all' : keys,
    emailRoles: jsonList(r.email_roles, isInt),
    webhook: r.webhook_url === null ? null : webhookHost(r.webhook_url),
  };
}

function webhookHost(url: string): string {
  return URL.canParse(url) ? new URL(url).host : '?';
}
