import { MSG_DOMAIN_RULES, type TOrigin } from '@tlprt/contract';
import { authorizeTeam } from '../../access/team-access.js';
import { publicHostOf } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { HttpError, notFound } from '../../http/errors.js';
import { mayToggleOrigin, OriginStatus } from './policy.js';
import { presentOrigin } from './presenter.js';
import { deleteOrigin, findOrigin, insertOrigin, listOrigins, updateOrigin } from './queries.js';

/** The CDN host a team pulls an origin through: o<id>-t<teamId>.cdn.<host of PUBLIC_URL>. */
const originUrl = (publicUrl: string, teamId: number, id: number) =>
  `o${id}-t${teamId}.cdn.${publicHostOf(publicUrl)}`;

async function originOf(ctx: AppContext, teamId: number, id: number) {
  const o = await findOrigin(ctx.db, teamId, id);
  if (!o) throw notFound();
  return o;
}

/** GET /v1/origins/{teamId}: every member. */
export async function listTeamOrigins(ctx: AppContext, actor: UserRow, teamId: number): Promise<TOrigin[]> {
  await authorizeTeam(ctx, actor, teamId, 'statistics.read');
  return (await listOrigins(ctx.db, teamId)).map(presentOrigin);
}

/** POST /v1/origins/{teamId} {name}. */
export async function createOrigin(
  ctx: AppContext,
  actor: UserRow,
  teamId: number,
  name: string,
): Promise<TOrigin> {
  await authorizeTeam(ctx, actor, teamId, 'domains.manage');
  return presentOrigin(await originOf(ctx, teamId, await createOriginRow(ctx, teamId, name)));
}

/** Inserts an origin with its CDN url (also used by the demo seed). */
export function createOriginRow(ctx: AppContext, teamId: number, name: string): Promise<number> {
  return ctx.db
    .transaction()
    .execute((trx) =>
      insertOrigin(trx, { teamId, name, createdAt: ctx.now() }, (id) =>
        originUrl(ctx.config.publicUrl, teamId, id),
      ),
    );
}

/** GET /v1/origins/{teamId}/{id}/toggle: 10 ↔ 20 (not while suspended). */
export async function toggleOrigin(
  ctx: AppContext,
  actor: UserRow,
  teamId: number,
  id: number,
): Promise<TOrigin> {
  await authorizeTeam(ctx, actor, teamId, 'domains.manage');
  const o = await originOf(ctx, teamId, id);
  if (!mayToggleOrigin(o)) throw new HttpError(403, MSG_DOMAIN_RULES.originSuspended);
  const status = o.status === OriginStatus.Active ? OriginStatus.Inactive : OriginStatus.Active;
  await updateOrigin(ctx.db, teamId, id, { status });
  return presentOrigin({ ...o, status });
}

/** DELETE /v1/origins/{teamId}/{id}. */
export async function removeOrigin(
  ctx: AppContext,
  actor: UserRow,
  teamId: number,
  id: number,
): Promise<void> {
  await authorizeTeam(ctx, actor, teamId, 'domains.manage');
  if (!(await deleteOrigin(ctx.db, teamId, id))) throw notFound();
}
