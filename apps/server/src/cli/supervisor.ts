import { AUDIT_ACTIONS, AUDIT_OPERATOR, EventCode, ZLiveEvent } from '@tlprt/contract';
import { sql } from 'kysely';
import { recordAudit } from '../audit/record.js';
import { type Config, ensureDatabaseFolder, loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/index.js';
import { revokeUserSessions } from '../directory/sessions.js';
import { findUserByEmail } from '../directory/users.js';
import { PG_CHANNEL } from '../events/bus.js';

/**
 * `npm run supervisor -- grant|revoke <email>`: the operators' way to give or take the supervisor
 * flag (besides SUPERVISOR_EMAILS at start-up). Opens the database of DATABASE_URL like the server,
 * runs pending migrations, and changes one account.
 */

const OPERATOR = { id: null, email: AUDIT_OPERATOR };

const USAGE = 'Usage: npm run supervisor -- grant|revoke <email>';

interface CliResult {
  code: number;
  out: string[];
  err: string[];
}

export async function runSupervisorCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  now: () => number = Date.now,
): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const [action, rawEmail, ...extra] = argv;
  if ((action !== 'grant' && action !== 'revoke') || !rawEmail || extra.length > 0) {
    return { code: 2, out, err: [USAGE] };
  }
  const email = rawEmail.trim().toLowerCase();
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (e) {
    return { code: 2, out, err: [e instanceof Error ? e.message : String(e)] };
  }
  ensureDatabaseFolder(config.database);
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const user = await findUserByEmail(db, email);
    if (!user) {
      err.push(`No account with the e-mail ${email}: it must sign up first.`);
      return { code: 1, out, err };
    }
    if (action === 'grant') {
      if (user.supervisor === 1) out.push(`${email} is already a supervisor.`);
      else {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ supervisor: 1 }).where('id', '=', user.id).execute();
          await recordAudit(trx, OPERATOR, now(), {
            teamId: null,
            action: AUDIT_ACTIONS.supervisorGranted,
            target: { type: 'user', id: user.id, label: user.email },
            oldValue: 0,
            newValue: 1,
          });
        });
        out.push(`${email} is now a supervisor (user id ${user.id}). It applies from the next request.`);
      }
      return { code: 0, out, err };
    }
    const sessions = await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ supervisor: 0 }).where('id', '=', user.id).execute();
      if (user.supervisor === 1) {
        await recordAudit(trx, OPERATOR, now(), {
          teamId: null,
          action: AUDIT_ACTIONS.supervisorRevoked,
          target: { type: 'user', id: user.id, label: user.email },
          oldValue: 1,
          newValue: 0,
        });
      }
      return revokeUserSessions(trx, user.id, now());
    });
    out.push(
      user.supervisor === 1
        ? `${email} is no longer a supervisor (user id ${user.id}).`
        : `${email} was not a supervisor (user id ${user.id}).`,
      `Revoked ${sessions.length} session(s): the account must sign in again.`,
    );
    if (config.database.kind === 'postgres' && sessions.length > 0) {
      // The servers LISTEN on this channel (PgBus): their open streams get the forced logout now.
      const message = {
        target: { sessionIds: sessions },
        event: ZLiveEvent.parse({ code: EventCode.ForcedLogoutAccount }),
        close: true,
      };
      await sql`select pg_notify(${PG_CHANNEL}, ${JSON.stringify(message)})`.execute(db);
      out.push('Open live streams received the forced logout (event 100) through PostgreSQL NOTIFY.');
    } else if (config.database.kind === 'sqlite') {
      out.push(
        'SQLite: a running server cannot be told from another process, so already open live streams get ' +
          'no forced logout (event 100); their next request answers 401 and signs them out.',
      );
    }
    if (config.supervisorEmails.includes(email)) {
      out.push(`Note: ${email} is in SUPERVISOR_EMAILS, which grants the flag again at the next start.`);
    }
    return { code: 0, out, err };
  } finally {
    await db.destroy();
  }
}
