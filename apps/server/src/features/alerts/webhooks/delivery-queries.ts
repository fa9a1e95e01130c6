import type { Selectable } from 'kysely';
import type { Db } from '../../../db/index.js';
import type { AlertDeliveriesTable, AlertDeliveryAttemptsTable } from '../../../db/schema.js';

export type DeliveryRow = Selectable<AlertDeliveriesTable>;
export type AttemptRow = Selectable<AlertDeliveryAttemptsTable>;

/** A delivery to attempt, with its rule's webhook as it is now (a changed URL or a rotated secret
 *  applies to the next attempt of every pending delivery). */
export interface DueDelivery {
  id: string;
  body: string;
  ruleId: number;
  teamId: number;
  giveUpAt: number;
  leaseUntil: number;
  url: string | null;
  secret: string | null;
}

export async function insertDelivery(
  db: Db,
  row: { id: string; ruleId: number; type: string; body: string; now: number; giveUpAt: number },
): Promise<void> {
  await db
    .insertInto('alert_deliveries')
    .values({
      id: row.id,
      rule_id: row.ruleId,
      type: row.type,
      body: row.body,
      state: 'pending',
      created_at: row.now,
      next_attempt_at: row.now,
      give_up_at: row.giveUpAt,
    })
    .execute();
}

function dueQuery(db: Db) {
  return db
    .selectFrom('alert_deliveries as d')
    .innerJoin('alert_rules as r', 'r.id', 'd.rule_id')
    .select([
      'd.id',
      'd.body',
      'd.rule_id as ruleId',
      'r.team_id as teamId',
      'd.give_up_at as giveUpAt',
      'd.lease_until as leaseUntil',
      'r.webhook_url as url',
      'r.webhook_secret as secret',
    ]);
}

/** Pending deliveries due at `now` that no node holds, the longest waiting first. */
export async function dueDeliveries(
  db: Db,
  now: number,
  limit: number,
  skip: readonly string[],
): Promise<DueDelivery[]> {
  let q = dueQuery(db)
    .where('d.state', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where('d.lease_until', '<=', now);
  if (skip.length > 0) q = q.where('d.id', 'not in', [...skip]);
  return q.orderBy('d.next_attempt_at').limit(limit).execute();
}

export async function findDue(db: Db, id: string): Promise<DueDelivery | undefined> {
  return dueQuery(db).where('d.id', '=', id).where('d.state', '=', 'pending').executeTakeFirst();
}

/**
 * Holds a delivery for one attempt until `leaseUntil`: a conditional update that only one node's
 * statement can win (PostgreSQL re-reads the row after the other's commit and finds the lease taken;
 * SQLite writes one at a time). True when this node won.
 */
export async function claimDelivery(
  db: Db,
  id: string,
  now: number,
  seenLease: number,
  leaseUntil: number,
): Promise<boolean> {
  const result = await db
    .updateTable('alert_deliveries')
    .set({ lease_until: leaseUntil })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('lease_until', '=', seenLease)
    .where('lease_until', '<=', now)
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertAttempt(
  db: Db,
  row: { deliveryId: string; at: number; status: number | null; durationMs: number; error: string | null },
): Promise<void> {
  await db
    .insertInto('alert_delivery_attempts')
    .values({
      delivery_id: row.deliveryId,
      at: row.at,
      status: row.status,
      duration_ms: row.durationMs,
      error: row.error,
    })
    .execute();
}

export async function countAttempts(db: Db, deliveryId: string): Promise<number> {
  const row = await db
    .selectFrom('alert_delivery_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The attempt's outcome: delivered or failed for good (no next attempt), or pending until `nextAt`.
 *  The lease is released either way. */
export async function settleDelivery(
  db: Db,
  id: string,
  outcome: { state: 'delivered' | 'failed' } | { state: 'pending'; nextAt: number },
): Promise<void> {
  await db
    .updateTable('alert_deliveries')
    .set({
      state: outcome.state,
      next_attempt_at: outcome.state === 'pending' ? outcome.nextAt : null,
      lease_until: 0,
    })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

/** What a delivery's body and Send test need of a rule, found only in its own team. */
export async function findTeamRule(db: Db, teamId: number, ruleId: number) {
  return db
    .selectFrom('alert_rules')
    .select(['id', 'team_id', 'name', 'metric', 'op', 'threshold', 'window_minutes', 'webhook_url'])
    .where('team_id', '=', teamId)
    .where('id', '=', ruleId)
    .executeTakeFirst();
}

/** The rule's latest deliveries, newest first; the team id keeps another team's rule out. */
export async function latestDeliveries(
  db: Db,
  teamId: number,
  ruleId: number,
  limit: number,
): Promise<DeliveryRow[]> {
  return db
    .selectFrom('alert_deliveries as d')
    .innerJoin('alert_rules as r', 'r.id', 'd.rule_id')
    .selectAll('d')
    .where('r.team_id', '=', teamId)
    .where('d.rule_id', '=', ruleId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(limit)
    .execute();
}

/** Every attempt of these deliveries (of the team's rules only), oldest first. */
export async function attemptsOf(
  db: Db,
  teamId: number,
  deliveryIds: readonly string[],
): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('alert_delivery_attempts as a')
    .innerJoin('alert_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('alert_rules as r', 'r.id', 'd.rule_id')
    .selectAll('a')
    .where('r.team_id', '=', teamId)
    .where('a.delivery_id', 'in', [...deliveryIds])
    .orderBy('a.at')
    .orderBy('a.id')
    .execute();
}

export async function findTeamDelivery(db: Db, teamId: number, id: string): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('alert_deliveries as d')
    .innerJoin('alert_rules as r', 'r.id', 'd.rule_id')
    .selectAll('d')
    .where('r.team_id', '=', teamId)
    .where('d.id', '=', id)
    .executeTakeFirst();
}
