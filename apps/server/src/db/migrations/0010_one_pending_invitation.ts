import { InviteStatus } from '@tlprt/contract';
import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';

/**
 * At most one pending invitation of an address to a team: the check before the insert could
 * not stop two requests at once. Older duplicates are closed as revoked first (the newest link is the
 * one its invitee got last), then a unique partial index holds the rule.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`
    update invitations set status = ${InviteStatus.Revoked}
    where status = ${InviteStatus.Pending}
      and exists (
        select 1 from invitations newer
        where newer.team_id = invitations.team_id and newer.invited_email = invitations.invited_email
          and newer.status = ${InviteStatus.Pending} and newer.id > invitations.id
      )`.execute(db);
  await db.schema
    .createIndex('invitations_one_pending')
    .on('invitations')
    .columns(['team_id', 'invited_email'])
    .unique()
    .where(sql.ref('status'), '=', InviteStatus.Pending)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('invitations_one_pending').execute();
}
