import {
  AUDIT_ACTIONS,
  EventCode,
  type FieldErrors,
  isSupervisorRole,
  LIMITS,
  MSG,
  MSG_ALERTS,
  type TAlertRule,
  type TAlertRuleValues,
  type TAlertSaved,
} from '@tlprt/contract';
import { toTeam } from '../../access/audience.js';
import type { TeamAccess } from '../../access/team-access.js';
import { recordAudit } from '../../audit/record.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/index.js';
import { lockTeam } from '../../db/locks.js';
import { type Outgoing, publishAll } from '../../events/publish.js';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import { auditSummary, presentRule, presentSaved, ruleFields } from './presenter.js';
import {
  type AlertIncidentRow,
  countRules,
  deleteRule,
  findRule,
  insertRule,
  latestIncidents,
  listRules,
  liveKeyHashes,
  setRuleSecret,
  updateRule,
} from './queries.js';
import { newWebhookSecret } from './secret.js';
import { checkWebhookTarget } from './webhooks/target.js';

const alertNotFound = () => notFound(MSG_ALERTS.notFound);

/** The team's rules with their latest incidents (two queries, whatever the number of rules). */
async function presentRules(db: Db, teamId: number, id?: number): Promise<TAlertRule[]> {
  const [rules, incidents] = await Promise.all([
    listRules(db, teamId, id),
    latestIncidents(db, teamId, LIMITS.alertHistoryShown, id),
  ]);
  const byRule = new Map<number, AlertIncidentRow[]>();
  for (const i of incidents) {
    const list = byRule.get(i.rule_id);
    if (list) list.push(i);
    else byRule.set(i.rule_id, [i]);
  }
  return rules.map((r) => presentRule(r, byRule.get(r.id) ?? []));
}

async function presentOne(db: Db, teamId: number, id: number): Promise<TAlertRule> {
  const [rule] = await presentRules(db, teamId, id);
  // Deleted between the commit and this read: as if it had never been found.
  if (!rule) throw alertNotFound();
  return rule;
}

/** Every member: the team's rules, oldest first. */
export function listAlerts(ctx: AppContext, access: TeamAccess): Promise<TAlertRule[]> {
  return presentRules(ctx.db, access.team.id);
}

/**
 * What the schema cannot know: every watched key is a live key of this team, and the webhook URL may
 * receive deliveries (it resolves to addresses the SSRF rules allow). `keptUrl`: the rule's current
 * URL, not resolved again when unchanged (a name change must not fail on a passing DNS hiccup; each
 * delivery checks its target anyway).
 */
async function checkInput(
  ctx: AppContext,
  teamId: number,
  v: TAlertRuleValues,
  keptUrl: string | null = null,
): Promise<void> {
  const [live, urlError] = await Promise.all([
    liveKeyHashes(ctx.db, teamId, v.keys),
    v.webhookUrl === null || v.webhookUrl === keptUrl ? null : checkWebhookTarget(ctx, v.webhookUrl),
  ]);
  const errors: FieldErrors = {};
  if (v.keys.some((k) => !live.has(k))) errors.keys = MSG_ALERTS.unknownKey;
  if (urlError !== null) errors.webhookUrl = urlError;
  if (Object.keys(errors).length > 0) throw badRequest(MSG.validationFailed, errors);
}

/** The live event of a change, to the team's members (read in the transaction, sent after commit). */
const changed = (db: Db, access: TeamAccess, id: number): Promise<Outgoing> =>
  toTeam(db, access, { code: EventCode.AlertChanged, alert_id: id });

/** A supervisor's changes to a customer's alerts are audited (docs/DESIGN.md §12, §13). */
const bySupervisor = (access: TeamAccess) => isSupervisorRole(access.policy);

/** At most LIMITS.alertsPerTeam rules (409). With a webhook URL, its secret is answered once. */
export async function createAlert(
  ctx: AppContext,
  access: TeamAccess,
  v: TAlertRuleValues,
): Promise<TAlertSaved> {
  const { actor, team } = access;
  const teamId = team.id;
  await checkInput(ctx, teamId, v);
  const secret = v.webhookUrl === null ? null : newWebhookSecret();
  const fields = ruleFields(v, secret);
  const { row, events } = await ctx.db.transaction().execute(async (trx) => {
    // Two creations at once must not both pass the count.
    await lockTeam(trx, teamId);
    if ((await countRules(trx, teamId)) >= LIMITS.alertsPerTeam) {
      throw new HttpError(409, MSG_ALERTS.limitReached);
    }
    const at = ctx.now();
    const row = await insertRule(trx, teamId, fields, actor.id, at);
    if (bySupervisor(access)) {
      await recordAudit(trx, actor, at, {
        teamId,
        action: AUDIT_ACTIONS.alertCreated,
        target: { type: 'alert', id: row.id, label: row.name },
        newValue: auditSummary(fields),
      });
    }
    return { row, events: [await changed(trx, access, row.id)] };
  });
  await publishAll(ctx, events);
  return presentSaved(presentRule(row, []), secret);
}

/**
 * Replaces a rule's settings (PUT sends it whole). A rule given its first webhook URL gets a secret,
 * answered once; a rule losing its URL loses its secret; otherwise the secret is kept and not shown.
 * The state stays: the evaluator judges the new condition at the next closed minute.
 */
export async function updateAlert(
  ctx: AppContext,
  access: TeamAccess,
  id: number,
  v: TAlertRuleValues,
): Promise<TAlertSaved> {
  const { actor, team } = access;
  const teamId = team.id;
  const before = await findRule(ctx.db, teamId, id);
  if (!before) throw alertNotFound();
  await checkInput(ctx, teamId, v, before.webhook_url);
  const { secret, events } = await ctx.db.transaction().execute(async (trx) => {
    // The secret is decided on the row as this transaction sees it: two saves adding a URL at once
    // must not each answer a secret of which only one is kept.
    await lockTeam(trx, teamId);
    const old = await findRule(trx, teamId, id);
    if (!old) throw alertNotFound();
    const secret = v.webhookUrl !== null && old.webhook_secret === null ? newWebhookSecret() : null;
    const kept = v.webhookUrl === null ? null : (secret ?? old.webhook_secret);
    const fields = ruleFields(v, kept);
    const at = ctx.now();
    if (!(await updateRule(trx, teamId, id, fields, at))) throw alertNotFound();
    if (bySupervisor(access)) {
      await recordAudit(trx, actor, at, {
        teamId,
        action: AUDIT_ACTIONS.alertUpdated,
        target: { type: 'alert', id, label: v.name },
        oldValue: auditSummary(old),
        newValue: auditSummary(fields),
      });
    }
    return { secret, events: [await changed(trx, access, id)] };
  });
  await publishAll(ctx, events);
  return presentSaved(await presentOne(ctx.db, teamId, id), secret);
}

/** Deletes a rule with its incidents and deliveries (allowed while the team is suspended: it only
 *  silences notifications). */
export async function removeAlert(ctx: AppContext, access: TeamAccess, id: number): Promise<void> {
  const { actor, team } = access;
  const teamId = team.id;
  const events = await ctx.db.transaction().execute(async (trx) => {
    const old = await findRule(trx, teamId, id);
    if (!old || !(await deleteRule(trx, teamId, id))) throw alertNotFound();
    if (bySupervisor(access)) {
      await recordAudit(trx, actor, ctx.now(), {
        teamId,
        action: AUDIT_ACTIONS.alertDeleted,
        target: { type: 'alert', id, label: old.name },
        oldValue: auditSummary(old),
      });
    }
    return [await changed(trx, access, id)];
  });
  await publishAll(ctx, events);
}

/** A new signing secret for a rule with a webhook URL (400 without one), answered once. */
export async function rotateAlertSecret(
  ctx: AppContext,
  access: TeamAccess,
  id: number,
): Promise<{ webhookSecret: string }> {
  const { actor, team } = access;
  const teamId = team.id;
  const secret = newWebhookSecret();
  const events = await ctx.db.transaction().execute(async (trx) => {
    await lockTeam(trx, teamId);
    const old = await findRule(trx, teamId, id);
    if (!old) throw alertNotFound();
    if (old.webhook_url === null) throw badRequest(MSG_ALERTS.noWebhook);
    const at = ctx.now();
    if (!(await setRuleSecret(trx, teamId, id, secret, at))) throw badRequest(MSG_ALERTS.noWebhook);
    if (bySupervisor(access)) {
      await recordAudit(trx, actor, at, {
        teamId,
        action: AUDIT_ACTIONS.alertSecretRotated,
        target: { type: 'alert', id, label: old.name },
      });
    }
    return [await changed(trx, access, id)];
  });
  await publishAll(ctx, events);
  return { webhookSecret: secret };
}
