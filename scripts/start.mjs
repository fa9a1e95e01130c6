#!/usr/bin/env node
// `npm start`: the README's first command. Installs what is missing, builds, and starts the dashboard
// on a fresh embedded SQLite database with demo data (the server prints the accounts at start).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  step('npm', ['ci', '--no-audit', '--no-fund']);
}
step('npm', ['run', 'build']);

const dataDir = join(root, 'data');
mkdirSync(dataDir, { recursive: true });
const dbFile = join(dataDir, 'demo.db');
for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) rmSync(f, { force: true });

const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${dbFile}`,
    DEMO_SEED: 'true',
    SUPERVISOR_EMAILS: process.env.SUPERVISOR_EMAILS ?? 'supervisor@tlprt.local',
  },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
