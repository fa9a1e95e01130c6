import type { TAuditAction } from '@tlprt/contract';
import type { Db } from '../db/index.js';
import type { UserRow } from '../db/schema.js';

/** Who did it: a supervisor's account, or the operator (no account). */
type AuditActor = Pick<UserRow, 'id' | 'email'> | { id: null; email: string };

export interface AuditEntry {
  teamId: number | null;
  action: TAuditAction;
  target: { type: 'team' | 'domain' | 'key' | 'user' | 'token' | 'alert'; id: number; label: string };
  oldValue?: unknown;
  newValue?: unknown;
}

const asText = (v: unknown): string | null =>
  v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);

/**
 * Records one supervisor action (docs/DESIGN.md §12). Called inside the transaction of the change it records,
 * so the change and its entry are written together or not at all.
 */
export async function recordAudit(db: Db, actor: AuditActor, at: number, e: AuditEntry): Promise<void> {
  await db
    .insertInto('supervisor_audit')
    .values({
      team_id: e.teamId,
      actor_id: actor.id,
      actor_email: actor.email,
      action: e.action,
      target_type: e.target.type,
      target_id: e.target.id,
      target_label: e.target.label,
      old_value: asText(e.oldValue),
      new_value: asText(e.newValue),
      created_at: at,
    })
    .execute();
}
