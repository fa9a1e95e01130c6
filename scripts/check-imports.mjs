#!/usr/bin/env node
// Part of `npm run lint` (STYLE.md 11, issue 13): a server feature imports shared layers (access, links,
// mail, events, db, http, lib) and the contract, never another feature's files. The imports that still
// cross features are listed in scripts/feature-imports.allowed, which may only shrink: a new crossing
// fails, and so does a listed one that is gone (delete its line). Usage: node scripts/check-imports.mjs
// [--root <apps/server/src>] [--allowed <file>].
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? resolve(process.argv[i + 1]) : fallback;
};
const src = arg('--root', join(repo, 'apps/server/src'));
const allowedFile = arg('--allowed', join(repo, 'scripts/feature-imports.allowed'));
const features = join(src, 'features');

function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.name.endsWith('.ts')) yield p;
  }
}

/** The feature a path under features/ belongs to (its first folder), or undefined. */
const featureOf = (path) => {
  const rel = relative(features, path);
  return rel.startsWith('..') ? undefined : rel.split(sep)[0];
};

const found = new Set();
for (const file of existsSync(features) ? files(features) : []) {
  const own = featureOf(file);
  for (const m of readFileSync(file, 'utf8').matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
    const target = resolve(dirname(file), m[1]);
    const other = featureOf(target);
    if (other && other !== own) {
      found.add(
        `${relative(src, file).split(sep).join('/')} -> ${relative(src, target).split(sep).join('/')}`,
      );
    }
  }
}

const allowed = new Set(
  existsSync(allowedFile)
    ? readFileSync(allowedFile, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [],
);
const added = [...found].filter((f) => !allowed.has(f)).sort();
const gone = [...allowed].filter((a) => !found.has(a)).sort();
for (const f of added) console.error(`feature imports another feature: ${f}`);
for (const g of gone)
  console.error(`no longer imported, delete its line in ${relative(repo, allowedFile)}: ${g}`);
if (added.length || gone.length) {
  console.error('A feature imports shared code and the contract, never another feature (ARCHITECTURE.md).');
  process.exit(1);
}
console.log(`feature imports: ${found.size} crossing(s), all on the shrinking list`);
