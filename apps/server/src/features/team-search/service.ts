import {
  effectiveRole,
  isPlatformSupervisor,
  LEAST_ROLE,
  type TTeamListItem,
  type ZTeamSearchRequest,
} from '@tlprt/contract';
import type { z } from 'zod';
import { policyActor } from '../../access/team-access.js';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { presentTeamListItem } from './presenter.js';
import { searchTeams, tagsOfTeams } from './queries.js';

/** Own teams; supervisors every team. */
export async function searchTeamsFor(
  ctx: AppContext,
  actor: UserRow,
  input: z.output<typeof ZTeamSearchRequest>,
): Promise<{ data: TTeamListItem[]; total: number }> {
  const who = policyActor(actor);
  const supervisor = isPlatformSupervisor(who);
  const { rows, total } = await searchTeams(ctx.db, {
    userId: actor.id,
    allTeams: supervisor,
    general: input.general || undefined,
    onlyFavourites: input.favourite === 2,
    statuses: input.statuses,
    suspended: input.suspended,
    createdFrom: input.start_time === undefined ? undefined : input.start_time * 1000,
    // end_time names a second: everything created within it counts.
    createdTo: input.end_time === undefined ? undefined : input.end_time * 1000 + 999,
    offset: (input.page - 1) * input.limit,
    limit: input.limit,
  });
  const tags = await tagsOfTeams(
    ctx.db,
    rows.map((r) => r.id),
  );
  const at = new Date(ctx.now());
  return {
    total,
    data: rows.map((r) =>
      presentTeamListItem(r, effectiveRole(who, r.member_role) ?? LEAST_ROLE, tags.get(r.id) ?? [], at),
    ),
  };
}
