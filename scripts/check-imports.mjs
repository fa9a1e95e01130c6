#!/usr/bin/env node
// Part of `npm run lint` (STYLE.md 11, issue 13): a server feature imports the shared layers (access,
// directory, links, mail, metrics, events, audit, db, http, lib) and the contract, never another feature's files;
// and no import cycle exists among the server's modules. Usage: node scripts/check-imports.mjs
// [--root <apps/server/src>].
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? resolve(process.argv[i + 1]) : fallback;
};
const src = arg('--root', join(repo, 'apps/server/src'));
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

/** Import cycles among the server's modules (type-only imports excluded: they vanish at run time). */
function cycles() {
  const graph = new Map();
  for (const file of existsSync(src) ? files(src) : []) {
    const deps = [];
    for (const m of readFileSync(file, 'utf8').matchAll(
      /^import\s+(?!type\b)[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gms,
    )) {
      deps.push(resolve(dirname(file), m[1]).replace(/\.js$/, '.ts'));
    }
    graph.set(file, deps);
  }
  const state = new Map(); // 1: on the current path, 2: done
  const path = [];
  const out = [];
  const visit = (f) => {
    state.set(f, 1);
    path.push(f);
    for (const d of graph.get(f) ?? []) {
      if (!graph.has(d)) continue;
      if (state.get(d) === 1) out.push([...path.slice(path.indexOf(d)), d].map((p) => relative(src, p)));
      else if (!state.has(d)) visit(d);
    }
    path.pop();
    state.set(f, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return out;
}

const cyclesFound = cycles();
for (const c of cyclesFound) console.error(`import cycle: ${c.join(' -> ')}`);

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

const crossings = [...found].sort();
for (const f of crossings) console.error(`feature imports another feature: ${f}`);
if (crossings.length) {
  console.error('A feature imports shared code and the contract, never another feature (ARCHITECTURE.md).');
}
if (crossings.length || cyclesFound.length) process.exit(1);
console.log('feature imports: none crosses features; no import cycles');
