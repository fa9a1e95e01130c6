#!/usr/bin/env node
// Part of `npm run lint` (STYLE.md 11): imports flow one way, on both sides (ARCHITECTURE.md "Imports flow
// one way").
// Server: a feature imports the shared layers (access, directory, links, mail, metrics, events, audit, db,
// http, lib) and the contract, never another feature's files.
// Web: features/<name> imports platform/, the contract and its own files; platform/ imports none of
// features/, routes/, app/; routes/ compose features but never import app/. Test files and test/ may
// reach any layer: they render whole screens through the router.
// Neither side has an import cycle among its modules.
// Usage: node scripts/check-imports.mjs [--root <apps/server/src>] [--web <apps/web/src>] — with neither,
// both apps are checked; with one, only that tree.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? resolve(process.argv[i + 1]) : undefined;
};
const serverArg = arg('--root');
const webArg = arg('--web');
const serverSrc = serverArg ?? (webArg ? undefined : join(repo, 'apps/server/src'));
const webSrc = webArg ?? (serverArg ? undefined : join(repo, 'apps/web/src'));

function* files(dir, pattern) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p, pattern);
    else if (pattern.test(e.name)) yield p;
  }
}

const isFile = (p) => existsSync(p) && statSync(p).isFile();
/** The file a relative specifier names: as written, `.js` standing for `.ts`, an extension left out, or a folder's index. */
function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find(isFile) ?? base;
}

const posix = (root, p) => relative(root, p).split(sep).join('/');
/** Every relative import of a file, static, re-exported or dynamic, type-only ones included. */
const allImports = (text) =>
  [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)].map((m) => m[1]);
/** The imports that exist at run time: static ones, not `import type` / `export type` (they vanish). */
const valueImports = (text) =>
  [...text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;]*?\bfrom\s+)?'(\.{1,2}\/[^']+)'/gms)].map(
    (m) => m[1],
  );

/** Import cycles among the modules under `src` (value imports only). */
function cycles(src, pattern) {
  const graph = new Map();
  for (const file of files(src, pattern)) {
    graph.set(
      file,
      valueImports(readFileSync(file, 'utf8')).map((s) => resolveImport(file, s)),
    );
  }
  const state = new Map(); // 1: on the current path, 2: done
  const path = [];
  const out = [];
  const visit = (f) => {
    state.set(f, 1);
    path.push(f);
    for (const d of graph.get(f) ?? []) {
      if (!graph.has(d)) continue;
      if (state.get(d) === 1) out.push([...path.slice(path.indexOf(d)), d].map((p) => posix(src, p)));
      else if (!state.has(d)) visit(d);
    }
    path.pop();
    state.set(f, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return out;
}

/** Problems of the server tree, each one line. */
function checkServer(src) {
  const problems = [];
  if (!existsSync(src)) return problems;
  const features = join(src, 'features');
  const featureOf = (path) => {
    const rel = relative(features, path);
    return rel.startsWith('..') ? undefined : rel.split(sep)[0];
  };
  for (const c of cycles(src, /\.ts$/)) problems.push(`import cycle: ${c.join(' -> ')}`);
  const found = new Set();
  for (const file of existsSync(features) ? files(features, /\.ts$/) : []) {
    const own = featureOf(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), m[1]);
      const other = featureOf(target);
      if (other && other !== own) found.add(`${posix(src, file)} -> ${posix(src, target)}`);
    }
  }
  const crossings = [...found].sort();
  for (const f of crossings) problems.push(`feature imports another feature: ${f}`);
  if (crossings.length) {
    problems.push('A feature imports shared code and the contract, never another feature (ARCHITECTURE.md).');
  }
  return problems;
}

/** The web layer of a path: app, platform, routes, features/<name>, or undefined (root files, tests). */
function webLayer(src, path) {
  const parts = posix(src, path).split('/');
  if (parts.length < 2) return undefined;
  if (parts[0] === 'features') return `features/${parts[1]}`;
  return ['app', 'platform', 'routes'].includes(parts[0]) ? parts[0] : undefined;
}

/** Why an import from layer `from` into layer `to` is refused, or undefined when it may. */
function webRefusal(from, to) {
  if (!from || !to || from === to) return undefined;
  if (from.startsWith('features/')) {
    if (to.startsWith('features/')) return 'web feature imports another feature';
    if (to !== 'platform') return `web feature imports ${to}/`;
  }
  if (from === 'platform' && to !== 'platform') return `web platform imports ${to.split('/')[0]}/`;
  if (from === 'routes' && to === 'app') return 'web route imports app/';
  return undefined;
}

/** Problems of the web tree, each one line. */
function checkWeb(src) {
  const problems = [];
  if (!existsSync(src)) return problems;
  const code = /\.tsx?$/;
  for (const c of cycles(src, code)) problems.push(`web import cycle: ${c.join(' -> ')}`);
  const found = new Set();
  for (const file of files(src, code)) {
    if (/\.test\.tsx?$/.test(file) || posix(src, file).startsWith('test/')) continue;
    const from = webLayer(src, file);
    for (const specifier of allImports(readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, specifier);
      const why = webRefusal(from, webLayer(src, target));
      if (why) found.add(`${why}: ${posix(src, file)} -> ${posix(src, target)}`);
    }
  }
  const crossings = [...found].sort();
  problems.push(...crossings);
  if (crossings.length) {
    problems.push(
      'Web layers: app/ → routes/ → features/<name> → platform/ → contract; a feature never imports ' +
        'another feature, platform/ never imports a layer above it (ARCHITECTURE.md).',
    );
  }
  return problems;
}

const problems = [...(serverSrc ? checkServer(serverSrc) : []), ...(webSrc ? checkWeb(webSrc) : [])];
for (const p of problems) console.error(p);
if (problems.length) process.exit(1);
if (serverSrc) console.log('server imports: none crosses features; no import cycles');
if (webSrc)
  console.log('web imports: features, platform, routes and app keep their layers; no import cycles');
