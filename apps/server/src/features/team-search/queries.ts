import { TeamStatus } from '@tlprt/contract';
import { PostgresAdapter, type SqlBool, sql } from 'kysely';
import { favouriteOf } from '../../access/queries.js';
import type { Db } from '../../db/index.js';
import type { TeamRow } from '../../db/schema.js';

export interface TeamSearch {
  userId: number;
  /** Supervisors search every team; everybody else only their own. */
  allTeams: boolean;
  general?: string | undefined;
  onlyFavourites: boolean;
  /** Status ids of teams that are not suspended ("Active": 10 and 30). */
  statuses?: number[] | undefined;
  /** 1: suspended teams (flag or status 50), united with `statuses` when both are given; 0: not suspended. */
  suspended?: number | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
  offset: number;
  limit: number;
}

export type TeamSearchRow = TeamRow & { member_role: number | null; favourite: number; members: number };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const isPostgresDb = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * `column LIKE %text%`, case-insensitive on both dialects: SQLite's LIKE already ignores ASCII case
 * (and `lower()` on every row would cost a third of the scan); PostgreSQL compares `lower(column)`,
 * which its trigram indexes of migration 0004 cover.
 */
function containsText(db: Db, column: string, text: string) {
  const pattern = `%${escapeLike(text.toLowerCase())}%`;
  return isPostgresDb(db)
    ? sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`
    : sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/**
 * Every filter of the search over `teams`, without columns or order. The text matches through
 * uncorrelated `IN` sets (tags, members' e-mails), each computed once per query rather than probed
 * per team: that is what keeps a search over 50,000 teams in a few tens of milliseconds.
 */
function filteredTeams(db: Db, s: TeamSearch) {
  let q = db.selectFrom('teams');
  if (!s.allTeams) {
    q = q.where(
      'teams.id',
      'in',
      db.selectFrom('team_members').select('team_id').where('user_id', '=', s.userId),
    );
  }
  const statusIds = s.statuses?.length ? s.statuses : undefined;
  if (statusIds || s.suspended !== undefined) {
    q = q.where((eb) => {
      const inStatus = statusIds
        ? eb.and([eb('teams.status_id', 'in', statusIds), eb('teams.suspended', '=', 0)])
        : undefined;
      const suspended = eb.or([
        eb('teams.suspended', '=', 1),
        eb('teams.status_id', '=', TeamStatus.Suspended),
      ]);
      if (s.suspended === 1) return inStatus ? eb.or([inStatus, suspended]) : suspended;
      return inStatus ?? eb('teams.suspended', '=', 0);
    });
  }
  if (s.createdFrom !== undefined) q = q.where('teams.created_at', '>=', s.createdFrom);
  if (s.createdTo !== undefined) q = q.where('teams.created_at', '<=', s.createdTo);
  const text = s.general?.trim();
  if (text) {
    const asId = /^#?\d{1,9}$/.test(text) ? Number(text.replace('#', '')) : undefined;
    q = q.where((eb) =>
      eb.or([
        containsText(db, 'teams.name', text),
        ...(asId !== undefined ? [eb('teams.id', '=', asId)] : []),
        eb(
          'teams.id',
          'in',
          db
            .selectFrom('team_tags')
            .select('team_tags.team_id')
            .where(containsText(db, 'team_tags.tag', text)),
        ),
        eb(
          'teams.id',
          'in',
          db
            .selectFrom('users')
            .innerJoin('team_members as tm', 'tm.user_id', 'users.id')
            .select('tm.team_id')
            .where(containsText(db, 'users.email', text)),
        ),
      ]),
    );
  }
  return q;
}

const favouritesOf = (db: Db, userId: number) =>
  db
    .selectFrom('team_favourites')
    .select('team_favourites.team_id')
    .where('team_favourites.user_id', '=', userId);

/**
 * One page of the search: the caller's favourites first, then every other team, each by id. Runs as
 * (1) the matching favourites (a short list), (2) the page of the others by id (stops at `limit`),
 * (3) the count, skipped when the page already shows where the list ends, (4) the page's rows.
 */
export async function searchTeams(db: Db, s: TeamSearch): Promise<{ rows: TeamSearchRow[]; total: number }> {
  const { ids: pageIds, total } = s.general?.trim()
    ? await textSearchPage(db, s)
    : await filterSearchPage(db, s);
  return { rows: await searchRows(db, s.userId, pageIds), total };
}

/**
 * With a text, the match has to scan names, tags and e-mails whatever the plan: do it once, with the
 * order (favourites first, then id) and the total (a window count) in the same query.
 */
async function textSearchPage(db: Db, s: TeamSearch): Promise<{ ids: number[]; total: number }> {
  const rows = await filteredTeams(db, s)
    .leftJoin('team_favourites as fv', (j) =>
      j.onRef('fv.team_id', '=', 'teams.id').on('fv.user_id', '=', s.userId),
    )
    .$if(s.onlyFavourites, (q) => q.where('fv.team_id', 'is not', null))
    .select([
      'teams.id',
      sql<number>`case when fv.team_id is null then 0 else 1 end`.as('fav'),
      sql<number>`count(*) over ()`.as('total'),
    ])
    .orderBy('fav', 'desc')
    .orderBy('teams.id', 'asc')
    .offset(s.offset)
    .limit(s.limit)
    .execute();
  if (rows.length > 0) return { ids: rows.map((r) => r.id), total: Number(rows[0]?.total ?? 0) };
  if (s.offset === 0) return { ids: [], total: 0 };
  // Past the end: the window saw no row, so count on its own.
  const r = await filteredTeams(db, s)
    .$if(s.onlyFavourites, (q) => q.where('teams.id', 'in', favouritesOf(db, s.userId)))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { ids: [], total: Number(r.n) };
}

/** Without a text every filter has an index: favourites, then the page by id, then the count. */
async function filterSearchPage(db: Db, s: TeamSearch): Promise<{ ids: number[]; total: number }> {
  const favIds = (
    await filteredTeams(db, s)
      .where('teams.id', 'in', favouritesOf(db, s.userId))
      .select('teams.id')
      .orderBy('teams.id', 'asc')
      .execute()
  ).map((r) => r.id);
  let pageIds = favIds.slice(s.offset, s.offset + s.limit);
  let total = favIds.length;
  if (!s.onlyFavourites) {
    const need = s.limit - pageIds.length;
    const restOffset = Math.max(0, s.offset - favIds.length);
    const rest =
      need > 0
        ? (
            await filteredTeams(db, s)
              .where('teams.id', 'not in', favouritesOf(db, s.userId))
              .select('teams.id')
              .orderBy('teams.id', 'asc')
              .offset(restOffset)
              .limit(need)
              .execute()
          ).map((r) => r.id)
        : [];
    pageIds = [...pageIds, ...rest];
    if (need > 0 && rest.length < need && (rest.length > 0 || restOffset === 0)) {
      total = favIds.length + restOffset + rest.length;
    } else {
      const r = await filteredTeams(db, s)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      total = Number(r.n);
    }
  }
  return { ids: pageIds, total };
}

/** The page's rows with the caller's role and star and the member count, in `pageIds` order. */
async function searchRows(db: Db, userId: number, pageIds: number[]): Promise<TeamSearchRow[]> {
  if (pageIds.length === 0) return [];
  const rows = await db
    .selectFrom('teams')
    .leftJoin('team_members as me', (j) =>
      j.onRef('me.team_id', '=', 'teams.id').on('me.user_id', '=', userId),
    )
    .selectAll('teams')
    .select('me.role as member_role')
    .select(favouriteOf(userId))
    .select((eb) =>
      eb
        .selectFrom('team_members as c')
        .select((e2) => e2.fn.countAll<number>().as('n'))
        .whereRef('c.team_id', '=', 'teams.id')
        .as('members'),
    )
    .where('teams.id', 'in', pageIds)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, { ...r, members: Number(r.members ?? 0) } as TeamSearchRow]));
  return pageIds.flatMap((id) => byId.get(id) ?? []);
}

/** Tags of several teams at once (the search list). */
export async function tagsOfTeams(db: Db, teamIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (teamIds.length === 0) return out;
  const rows = await db
    .selectFrom('team_tags')
    .select(['team_id', 'tag'])
    .where('team_id', 'in', teamIds)
    .orderBy('created_at', 'asc')
    .orderBy('tag', 'asc')
    .execute();
  for (const r of rows) out.set(r.team_id, [...(out.get(r.team_id) ?? []), r.tag]);
  return out;
}
