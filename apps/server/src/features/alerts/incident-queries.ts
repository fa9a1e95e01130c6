import { type RoleId, TeamStatus, UserStatus } from '@tlprt/contract';
import type { Db } from '../../db/index.js';

/** The evaluator's SQL: the rules due, a node's claim of a rule's minute, incidents, recipients. */

/** Rules not yet evaluated at `minute` whose team's service runs (a suspended or disabled team's
 *  alerts stay quiet: its keys serve nothing), with the team's name for the e-mails. */
export function listDueRules(db: Db, minute: number) {
  return db
    .selectFrom('alert_rules as r')
    .innerJoin('teams as t', 't.id', 'r.team_id')
    .select([
      'r.id',
      'r.team_id',
      'r.name',
      'r.metric',
      'r.op',
      'r.threshold',
      'r.window_minutes',
      'r.min_viewers',
      'r.keys',
      'r.email_roles',
      'r.webhook_url',
      't.name as team_name',
    ])
    .where('r.evaluated_minute', '<', minute)
    .where('t.suspended', '=', 0)
    .where('t.status_id', 'not in', [TeamStatus.Suspended, TeamStatus.Disabled])
    .orderBy('r.id')
    .execute();
}
export type DueRule = Awaited<ReturnType<typeof listDueRules>>[number];

/** Moves the rule's evaluated minute forward to `minute` with the window's value; true only for the
 *  one node whose update touched the row (PostgreSQL: a second node's update waits for the first's
 *  commit, then finds the minute taken). */
export async function claimMinute(
  trx: Db,
  ruleId: number,
  minute: number,
  value: number | null,
  now: number,
): Promise<boolean> {
  const r = await trx
    .updateTable('alert_rules')
    .set({ evaluated_minute: minute, last_value: value, last_evaluated_at: now })
    .where('id', '=', ruleId)
    .where('evaluated_minute', '<', minute)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The rule's open incident, if any. */
export function findOpenIncident(trx: Db, ruleId: number) {
  return trx
    .selectFrom('alert_incidents')
    .select(['id', 'opened_at', 'open_value'])
    .where('rule_id', '=', ruleId)
    .where('resolved_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function openIncident(trx: Db, ruleId: number, at: number, value: number | null): Promise<void> {
  await trx
    .insertInto('alert_incidents')
    .values({ rule_id: ruleId, opened_at: at, open_value: value })
    .execute();
  await trx.updateTable('alert_rules').set({ firing: 1 }).where('id', '=', ruleId).execute();
}

export async function resolveIncident(
  trx: Db,
  ruleId: number,
  incidentId: number,
  at: number,
  value: number | null,
): Promise<void> {
  await trx
    .updateTable('alert_incidents')
    .set({ resolved_at: at, resolve_value: value })
    .where('id', '=', incidentId)
    .execute();
  await trx.updateTable('alert_rules').set({ firing: 0 }).where('id', '=', ruleId).execute();
}

/** The addresses of the team's active members whose role is one of `roles`. */
export async function memberEmails(db: Db, teamId: number, roles: readonly number[]): Promise<string[]> {
  if (!roles.length) return [];
  const rows = await db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.team_id', '=', teamId)
    .where('m.role', 'in', roles as RoleId[])
    .where('u.user_status_id', '=', UserStatus.Active)
    .orderBy('u.id')
    .execute();
  return rows.map((r) => r.email);
}
