#!/usr/bin/env node
// npm run supervisor -- grant|revoke <email>
// Grants or revokes the supervisor flag of an existing account in the database of DATABASE_URL
// (default sqlite:./data/dashboard.db, as the server). Needs the built server (npm run build).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'apps/server/dist/cli/supervisor.js');
if (!existsSync(built)) {
  process.stderr.write('The server is not built yet: run `npm run build` first.\n');
  process.exit(2);
}
const { runSupervisorCli } = await import(pathToFileURL(built).href);
const { code, out, err } = await runSupervisorCli(process.argv.slice(2), process.env);
for (const line of out) process.stdout.write(`${line}\n`);
for (const line of err) process.stderr.write(`${line}\n`);
process.exit(code);
