import { AUDIT_PAGE_SIZE, type TAuditEntry } from '@tlprt/contract';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { SupervisorAuditTable, UserRow } from '../../db/schema.js';
import { forbidden } from '../../http/errors.js';
import { listAudit } from './queries.js';

function presentEntry(r: Selectable<SupervisorAuditTable>): TAuditEntry {
  return {
    id: r.id,
    action: r.action,
    actorId: r.actor_id,
    actorEmail: r.actor_email,
    teamId: r.team_id,
    targetType: r.target_type,
    targetId: r.target_id,
    target: r.target_label,
    oldValue: r.old_value,
    newValue: r.new_value,
    createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}

/** Supervisors only (403 for everybody else, members included). */
export async function readAudit(ctx: AppContext, actor: UserRow, teamId: number | undefined, page: number) {
  if (actor.supervisor !== 1) throw forbidden();
  const { rows, total } = await listAudit(ctx.db, teamId, page, AUDIT_PAGE_SIZE);
  return { data: rows.map(presentEntry), pagination: { page, limit: AUDIT_PAGE_SIZE, total } };
}
