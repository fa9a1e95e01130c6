#!/usr/bin/env node
// `npm run bench`: runs every bench file of this folder (each a separate Node process), prints each
// one's JSON result and then one table of every figure. A bench prints its result as the last line of
// its stdout: {"bench": "<name>", "env": {...}, "results": [{"case", "n", "p50", "p95", "max", "unit"}]}
// (optionally also "min", "p99", "target" and "ok": whether the run met the target).
// `npm run bench -- team-search` runs only the named benches. Needs the built server (npm run build).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
if (!existsSync(join(root, 'apps/server/dist/app.js'))) {
  process.stderr.write('The server is not built yet: run `npm run build` first.\n');
  process.exit(2);
}
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'index.mjs')
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.mjs$/, '')))
  .sort();

function run(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, file)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      const line = out
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .pop();
      try {
        resolve({ file, code, result: line ? JSON.parse(line) : null });
      } catch {
        resolve({ file, code, result: null });
      }
    });
  });
}

const rows = [];
let failed = 0;
for (const file of files) {
  process.stderr.write(`\n▶ ${file}\n`);
  const { code, result } = await run(file);
  if (code !== 0 || !result) {
    failed++;
    process.stdout.write(`${JSON.stringify({ bench: file, error: `exit code ${code}` })}\n`);
    continue;
  }
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  for (const r of result.results ?? []) rows.push({ bench: result.bench, ...r });
}

// Optional columns appear when a bench gives them: min (throughput rounds), p99 (latency targets), and
// a target with whether this run met it.
const optional = new Set(['min', 'p99', 'target', 'ok']);
const cols = ['bench', 'case', 'n', 'min', 'p50', 'p95', 'p99', 'max', 'unit', 'target', 'ok'].filter(
  (c) => !optional.has(c) || rows.some((r) => r[c] !== undefined),
);
const cell = (v) =>
  typeof v === 'boolean'
    ? v
      ? 'yes'
      : 'NO'
    : typeof v === 'number'
      ? Number.isInteger(v)
        ? String(v)
        : v.toFixed(1)
      : String(v ?? '');
const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
const line = (vals) => vals.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ');
process.stdout.write(`\n${line(cols)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
for (const r of rows) process.stdout.write(`${line(cols.map((c) => cell(r[c])))}\n`);
process.exit(failed ? 1 : 0);
