import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventCode, PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, memoryMailer, uniqueEmail } from './factories.js';
import { streamsOf } from './helpers/events.js';
import { Api } from './helpers/http.js';
import { onPostgres, startServer, type TestServer } from './helpers/server.js';

/** `npm run supervisor -- grant|revoke <email>`: the built CLI, spawned against the test database. */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const script = join(root, 'scripts/supervisor.mjs');
const built = join(root, 'apps/server/dist/cli/supervisor.js');

function cli(args: string[], databaseUrl: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let server: TestServer;
let api: Api;
beforeAll(async () => {
  if (!existsSync(built)) throw new Error('Build the server first (npm run build): the CLI runs from dist');
  server = await startServer({ deps: { mailer: memoryMailer().mailer } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

describe('npm run supervisor', () => {
  it('prints its usage for a wrong call', async () => {
    for (const args of [[], ['promote', 'a@b.c'], ['grant'], ['grant', 'a@b.c', 'extra']]) {
      const r = await cli(args, server.databaseUrl);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('Usage: npm run supervisor -- grant|revoke <email>');
    }
  });

  it('grant needs an existing account, then sets the flag (any case of the e-mail)', async () => {
    const missing = await cli(['grant', 'nobody@example.test'], server.databaseUrl);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No account with the e-mail nobody@example.test');

    const u = await buildUser(server.app, { email: uniqueEmail('op') });
    expect((await api.as(u.token).post(PATHS.users.search, {})).status).toBe(403);
    const r = await cli(['grant', `  ${u.email.toUpperCase()} `], server.databaseUrl);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${u.email} is now a supervisor`);
    expect((await api.as(u.token).post(PATHS.users.search, {})).status).toBe(200);
    expect((await api.as(u.token).get(PATHS.export.teams)).status).toBe(200);
    expect((await cli(['grant', u.email], server.databaseUrl)).stdout).toContain('already a supervisor');
  });

  it('revoke clears the flag and every session of the account', async () => {
    const u = await buildUser(server.app, { supervisor: true });
    const streams = await streamsOf(server.base, { u });
    const r = await cli(['revoke', u.email], server.databaseUrl, { SUPERVISOR_EMAILS: u.email });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${u.email} is no longer a supervisor`);
    expect(r.stdout).toContain('Revoked 1 session(s)');
    expect(r.stdout).toContain('is in SUPERVISOR_EMAILS');
    expect((await api.as(u.token).get(PATHS.auth.check)).status).toBe(401);
    const row = await server.app.ctx.db
      .selectFrom('users')
      .select('supervisor')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(row.supervisor).toBe(0);
    if (onPostgres) {
      expect(r.stdout).toContain('through PostgreSQL NOTIFY');
      const ev = await streams.u.waitForEvent(EventCode.ForcedLogoutAccount, 5000);
      expect(ev).toMatchObject({ code: 100 });
    } else {
      expect(r.stdout).toContain('SQLite: a running server cannot be told from another process');
    }
    streams.closeAll();
  });
});
