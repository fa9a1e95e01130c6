import { ADMIN_ROLES } from '@tlprt/contract';
import type { Db } from '../../db/index.js';

/** Rows are read in keyset pages of this many, so an export never holds a whole table. */
const EXPORT_BATCH = 500;

interface UserExportRow {
  id: number;
  email: string;
  name: string;
  surname: string;
  supervisor: number;
  user_status_id: number;
  created_at: number;
  teams: number;
}

/** The next batch of users after `afterId`, each with the number of teams they belong to. */
export async function userBatch(db: Db, afterId: number, limit = EXPORT_BATCH): Promise<UserExportRow[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'surname', 'supervisor', 'user_status_id', 'created_at'])
    .select((eb) =>
      eb
        .selectFrom('team_members as m')
        .select((e2) => e2.fn.countAll<number>().as('n'))
        .whereRef('m.user_id', '=', 'users.id')
        .as('teams'),
    )
    .where('id', '>', afterId)
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, teams: Number(r.teams ?? 0) }));
}

interface TeamExportRow {
  id: number;
  name: string;
  website: string;
  status_id: number;
  suspended: number;
  version: number;
  created_at: number;
  members: number;
  admins: string[];
  tags: string[];
}

/** The next batch of teams after `afterId` with member counts, admins' e-mails and tags. */
export async function teamBatch(db: Db, afterId: number, limit = EXPORT_BATCH): Promise<TeamExportRow[]> {
  const teams = await db
    .selectFrom('teams')
    .select(['id', 'name', 'website', 'status_id', 'suspended', 'version', 'created_at'])
    .where('id', '>', afterId)
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
  if (teams.length === 0) return [];
  const ids = teams.map((t) => t.id);
  const [members, admins, tags] = await Promise.all([
    db
      .selectFrom('team_members')
      .select(['team_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('team_id', 'in', ids)
      .groupBy('team_id')
      .execute(),
    db
      .selectFrom('team_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.team_id', 'u.email'])
      .where('m.team_id', 'in', ids)
      .where('m.role', 'in', ADMIN_ROLES)
      .orderBy('m.team_id')
      .orderBy('u.email')
      .execute(),
    db
      .selectFrom('team_tags')
      .select(['team_id', 'tag'])
      .where('team_id', 'in', ids)
      .orderBy('team_id')
      .orderBy('created_at')
      .orderBy('tag')
      .execute(),
  ]);
  const count = new Map(members.map((m) => [m.team_id, Number(m.n)]));
  const group = (rows: Array<{ team_id: number; v: string }>) => {
    const out = new Map<number, string[]>();
    for (const r of rows) out.set(r.team_id, [...(out.get(r.team_id) ?? []), r.v]);
    return out;
  };
  const adminsOf = group(admins.map((a) => ({ team_id: a.team_id, v: a.email })));
  const tagsOf = group(tags.map((t) => ({ team_id: t.team_id, v: t.tag })));
  return teams.map((t) => ({
    ...t,
    members: count.get(t.id) ?? 0,
    admins: adminsOf.get(t.id) ?? [],
    tags: tagsOf.get(t.id) ?? [],
  }));
}
