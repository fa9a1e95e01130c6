import { MSG_DOMAIN_RULES, type TOrigin } from '@tlprt/contract';
import type { TeamAccess } from '../../access/team-access.js';
import { publicHostOf } from '../../config.js';
import type { AppContext } from '../../context.js';
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

/** Every member. */
export async function listTeamOrigins(ctx: AppContext, access: TeamAccess): Promise<TOrigin[]> {
  const teamId = access.team.id;
  return (await listOrigins(ctx.db, teamId)).map(presentOrigin);
}

export async function createOrigin(ctx: AppContext, access: TeamAccess, name: string): Promise<TOrigin> {
  const teamId = access.team.id;
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

/** 10 ↔ 20 (not while suspended). */
export async function toggleOrigin(ctx: AppContext, access: TeamAccess, id: number): Promise<TOrigin> {
  const teamId = access.team.id;
  const o = await originOf(ctx, teamId, id);
  if (!mayToggleOrigin(o)) throw new HttpError(403, MSG_DOMAIN_RULES.originSuspended);
  const status = o.status === OriginStatus.Active ? OriginStatus.Inactive : OriginStatus.Active;
  await updateOrigin(ctx.db, teamId, id, { status });
  return presentOrigin({ ...o, status });
}

export async function removeOrigin(ctx: AppContext, access: TeamAccess, id: number): Promise<void> {
  const teamId = access.team.id;
  if (!(await deleteOrigin(ctx.db, teamId, id))) throw notFound();
}
