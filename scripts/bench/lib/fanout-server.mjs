// The server of fanout.mjs, in its own process so that the 5,000 streams' client never shares its event
// loop. `node fanout-server.mjs <members> <sessions per member> [postgres url]` builds the real server
// from apps/server/dist as `npm run serve` does (production config and logger, whose lines go to the
// child's discarded stdout) on a throwaway SQLite database, or on the given PostgreSQL database (then
// events travel through LISTEN/NOTIFY). It seeds, straight into the tables, one team whose first member
// is its Admin, one key, and signed-in sessions for every member; tells its parent
// {ready, port, teamId, keyId, adminToken, tokens: [{userId, token}]} over IPC, answers 'stats' with
// {rss, cpuUs, streams} (streams: what its hub holds open) and exits on 'stop'.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyStatus, Role, TIMINGS } from '@tlprt/contract';
import { answerParent } from './child.mjs';

const members = Number(process.argv[2]);
const sessionsPerMember = Number(process.argv[3]);
const pgUrl = process.argv[4];

const dist = new URL('../../../apps/server/dist/', import.meta.url);
const { buildApp } = await import(new URL('app.js', dist).href);
const { loadConfig } = await import(new URL('config.js', dist).href);

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const dir = mkdtempSync(join(tmpdir(), 'tlprt-bench-fanout-'));
const cleanup = () => rmSync(dir, { recursive: true, force: true });
const app = await buildApp(
  loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: pgUrl ?? `sqlite:${join(dir, 'bench.db')}`,
    PUBLIC_URL: 'http://bench.test',
    WEB_DIST: join(tmpdir(), 'tlprt-bench-no-web'),
  }),
);
const { db } = app.ctx;
const now = Date.now();

/** Rows many at a time (within SQLite's limit of bound values), returning `column` of each in order. */
async function insertRows(table, rows, column = 'id') {
  const ids = [];
  for (let i = 0; i < rows.length; i += 500) {
    const inserted = await db
      .insertInto(table)
      .values(rows.slice(i, i + 500))
      .returning(column)
      .execute();
    ids.push(...inserted.map((r) => r[column]));
  }
  return ids;
}

/** A session as sign-in makes one: a random bearer token, of which the database keeps the sha256. */
function session(userId) {
  const token = randomBytes(32).toString('base64url');
  const row = {
    user_id: userId,
    token_hash: createHash('sha256').update(token).digest('hex'),
    created_at: now,
    expires_at: now + TIMINGS.sessionTtlMs,
  };
  return { userId, token, row };
}

// Straight into the tables (the schema is what the app reads), many rows per statement so that seeding
// thousands of sessions takes a moment.
const userIds = await insertRows(
  'users',
  Array.from({ length: members }, (_, i) => ({
    email: `fanout${i}@example.test`,
    password_hash: null,
    name: 'Fan',
    surname: `Out ${i}`,
    created_at: now,
  })),
);
const [teamId] = await insertRows('teams', [{ name: 'Fan-out', created_at: now }]);
await insertRows(
  'team_members',
  userIds.map((userId, i) => ({
    team_id: teamId,
    user_id: userId,
    role: i === 0 ? Role.Admin : Role.Viewer,
    created_at: now,
  })),
  'user_id',
);
const [keyId] = await insertRows('keys', [
  {
    team_id: teamId,
    domain_id: null,
    key_hash: Array.from(randomBytes(40), (b) => KEY_ALPHABET[b % KEY_ALPHABET.length]).join(''),
    name: 'k0',
    status: KeyStatus.Active,
    created_at: now,
  },
]);
const streams = userIds.flatMap((userId) => Array.from({ length: sessionsPerMember }, () => session(userId)));
// The Admin's own session for the call that causes the event (it has no stream of its own).
const admin = session(userIds[0]);
await insertRows(
  'sessions',
  [...streams, admin].map((s) => s.row),
);
const tokens = streams.map(({ userId, token }) => ({ userId, token }));
const adminToken = admin.token;
await app.listen({ port: 0, host: '127.0.0.1' });

answerParent(app, cleanup, { teamId, keyId, adminToken, tokens }, () => ({ streams: app.ctx.hub.size }));
