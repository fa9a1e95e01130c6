import { MSG } from '@tlprt/contract';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { badRequest, tooManyRequests } from '../http/errors.js';
import { verifyPassword } from '../lib/passwords.js';

/**
 * A signed-in user's password asked again before a sensitive change (leave a team, delete a team or
 * the account, change the password or e-mail). Wrong ones are counted per account, so a stolen session
 * cannot try passwords without limit either (429 past the limit, else 400 when wrong); failed sign-ins
 * of outsiders do not count here, so they cannot block the owner's confirmations.
 */
export async function assertOwnPassword(ctx: AppContext, actor: UserRow, password: string): Promise<void> {
  const { perConfirm } = ctx.loginFailures;
  const key = String(actor.id);
  const wait = await perConfirm.retryAfter(key);
  if (wait > 0) throw tooManyRequests(wait);
  if (await verifyPassword(actor.password_hash, password)) return;
  await perConfirm.record(key);
  throw badRequest(MSG.incorrectPassword, { password: MSG.incorrectPassword });
}
