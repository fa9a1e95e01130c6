import { CSV_COLUMNS } from '@tlprt/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { forbidden } from '../../http/errors.js';
import { csvRow } from './csv.js';
import { canExport } from './policy.js';
import { teamBatch, userBatch } from './queries.js';

export type ExportKind = 'users' | 'teams';

const iso = (ms: number) => new Date(ms).toISOString();

/** Multi-valued cells (admins, tags) join with "; " (a comma would read as a separator by eye). */
const list = (xs: string[]) => xs.join('; ');

/** The dated attachment name, e.g. teams-2026-11-22.csv (UTC date of the server clock). */
export const exportFileName = (kind: ExportKind, now: number) => `${kind}-${iso(now).slice(0, 10)}.csv`;

/**
 * The CSV as a lazy sequence of chunks (the header, then one chunk per batch of rows), read page by
 * page by id, so memory stays flat however many rows there are. The caller must be a supervisor.
 */
export function exportCsv(ctx: AppContext, actor: UserRow, kind: ExportKind): AsyncGenerator<string> {
  if (!canExport(actor)) throw forbidden();
  return kind === 'users' ? usersCsv(ctx) : teamsCsv(ctx);
}

async function* usersCsv(ctx: AppContext): AsyncGenerator<string> {
  yield csvRow(CSV_COLUMNS.users);
  let after = 0;
  for (;;) {
    const rows = await userBatch(ctx.db, after);
    if (rows.length === 0) return;
    yield rows
      .map((u) =>
        csvRow([
          u.id,
          u.email,
          u.name,
          u.surname,
          u.supervisor,
          u.user_status_id,
          iso(u.created_at),
          u.teams,
        ]),
      )
      .join('');
    after = rows[rows.length - 1]?.id ?? after;
  }
}

async function* teamsCsv(ctx: AppContext): AsyncGenerator<string> {
  yield csvRow(CSV_COLUMNS.teams);
  let after = 0;
  for (;;) {
    const rows = await teamBatch(ctx.db, after);
    if (rows.length === 0) return;
    yield rows
      .map((t) =>
        csvRow([
          t.id,
          t.name,
          t.website,
          t.status_id,
          t.suspended,
          t.version,
          iso(t.created_at),
          t.members,
          list(t.admins),
          list(t.tags),
        ]),
      )
      .join('');
    after = rows[rows.length - 1]?.id ?? after;
  }
}
