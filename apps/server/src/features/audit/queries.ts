import type { Db } from '../../db/index.js';

/** A page of the audit log, newest first, of one team or (teamId undefined) of everything. */
export async function listAudit(db: Db, teamId: number | undefined, page: number, limit: number) {
  const base = db
    .selectFrom('supervisor_audit')
    .$if(teamId !== undefined, (q) => q.where('team_id', '=', teamId as number));
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
