#!/usr/bin/env node
// Part of `npm run lint` (issue 41): no source file over 500 lines, no function over 120 lines (a React
// component, a capitalised function of a .tsx file, 200), outside tests, migrations and the guide's
// prose data. Long files and functions are where bugs hide from a reader (a double count in the
// statistics engine was found only by rereading 800 lines). Functions are measured with TypeScript's
// own parser, from their first line to their last, inner functions included.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const FILE_MAX = 500;
const FUNCTION_MAX = 120;
const COMPONENT_MAX = 200;
const DIRS = ['apps/server/src', 'apps/web/src', 'packages/contract/src', 'packages/player/src'];
const EXCLUDED = [
  /\.test\.tsx?$/,
  /\/test\//,
  /\/db\/migrations\//,
  // The guide's words, not logic: one long list of sections.
  /^apps\/web\/src\/features\/guide\/content\.ts$/,
];

function* sources(dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** The name a function is known by: its own, its variable's, its property's or its class member's. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    ts.isIdentifier(parent.name)
  )
    return parent.name.text;
  if (parent && ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return undefined;
}

const problems = [];
const lineOf = (sf, pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;

function over(lines, max, what) {
  if (lines > max) problems.push(`${what} is ${lines} lines (at most ${max}): split it`);
}

for (const dir of DIRS)
  for (const path of sources(dir)) {
    if (EXCLUDED.some((re) => re.test(path))) continue;
    const text = readFileSync(join(root, path), 'utf8');
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    over(text.split('\n').length - (text.endsWith('\n') ? 1 : 0), FILE_MAX, path);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const name = nameOf(node);
        const lines = lineOf(sf, node.getEnd()) - lineOf(sf, node.getStart(sf)) + 1;
        const component = path.endsWith('.tsx') && name !== undefined && /^[A-Z]/.test(name);
        const label = `${path}:${lineOf(sf, node.getStart(sf))} ${name ?? '(anonymous function)'}`;
        over(lines, component ? COMPONENT_MAX : FUNCTION_MAX, label);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }

if (problems.length > 0) {
  console.error(`sizes: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `sizes: no file over ${FILE_MAX} lines, no function over ${FUNCTION_MAX} (components ${COMPONENT_MAX})`,
);
