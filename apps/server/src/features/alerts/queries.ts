import { KeyStatus } from '@tlprt/contract';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { AlertIncidentsTable, AlertRulesTable } from '../../db/schema.js';

export type AlertRuleRow = Selectable<AlertRulesTable>;
export type AlertIncidentRow = Selectable<AlertIncidentsTable>;

/** A rule's settings as stored (keys and e-mail roles already JSON). */
export interface AlertRuleFields {
  name: string;
  metric: string;
  op: string;
  threshold: number;
  window_minutes: number;
  min_viewers: number;
  keys: string;
  email_roles: string;
  webhook_url: string | null;
  webhook_secret: string | null;
}

/** Every query names the team (STYLE §5): an id of another team finds nothing. */
export function listRules(db: Db, teamId: number, id?: number): Promise<AlertRuleRow[]> {
  let q = db.selectFrom('alert_rules').selectAll().where('team_id', '=', teamId);
  if (id !== undefined) q = q.where('id', '=', id);
  return q.orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
}

export function findRule(db: Db, teamId: number, id: number): Promise<AlertRuleRow | undefined> {
  return db
    .selectFrom('alert_rules')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function countRules(db: Db, teamId: number): Promise<number> {
  const { n } = await db
    .selectFrom('alert_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * The latest `perRule` incidents of each of the team's rules (or of one), newest first per rule, in one
 * query: a rule that flapped for months keeps thousands of rows, so the cut is made by the database.
 */
export function latestIncidents(
  db: Db,
  teamId: number,
  perRule: number,
  ruleId?: number,
): Promise<AlertIncidentRow[]> {
  return db
    .selectFrom((eb) => {
      let inner = eb
        .selectFrom('alert_incidents as i')
        .innerJoin('alert_rules as r', 'r.id', 'i.rule_id')
        .selectAll('i')
        .select(
          sql<number>`row_number() over (partition by i.rule_id order by i.opened_at desc, i.id desc)`.as(
            'rn',
          ),
        )
        .where('r.team_id', '=', teamId);
      if (ruleId !== undefined) inner = inner.where('r.id', '=', ruleId);
      return inner.as('x');
    })
    .select(['x.id', 'x.rule_id', 'x.opened_at', 'x.resolved_at', 'x.open_value', 'x.resolve_value'])
    .where('x.rn', '<=', perRule)
    .orderBy('x.rule_id', 'asc')
    .orderBy('x.opened_at', 'desc')
    .orderBy('x.id', 'desc')
    .execute();
}

/** Which of `hashes` are keys of the team that are not deleted. */
export async function liveKeyHashes(db: Db, teamId: number, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('keys')
    .select('key_hash')
    .where('team_id', '=', teamId)
    .where('status', '!=', KeyStatus.Deleted)
    .where('key_hash', 'in', hashes)
    .execute();
  return new Set(rows.map((r) => r.key_hash));
}

export function insertRule(
  db: Db,
  teamId: number,
  fields: AlertRuleFields,
  createdBy: number | null,
  at: number,
): Promise<AlertRuleRow> {
  return db
    .insertInto('alert_rules')
    .values({ ...fields, team_id: teamId, created_by: createdBy, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces a rule's settings; its state (firing, last value, evaluated minute) stays: the evaluator
 *  judges the new condition at the next closed minute. Undefined when the team has no such rule. */
export function updateRule(
  db: Db,
  teamId: number,
  id: number,
  fields: AlertRuleFields,
  at: number,
): Promise<AlertRuleRow | undefined> {
  return db
    .updateTable('alert_rules')
    .set({ ...fields, updated_at: at })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function setRuleSecret(
  db: Db,
  teamId: number,
  id: number,
  secret: string,
  at: number,
): Promise<boolean> {
  const r = await db
    .updateTable('alert_rules')
    .set({ webhook_secret: secret, updated_at: at })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('webhook_url', 'is not', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes a rule; its incidents, deliveries and their attempts go with it (foreign keys cascade). */
export async function deleteRule(db: Db, teamId: number, id: number): Promise<boolean> {
  const r = await db
    .deleteFrom('alert_rules')
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
