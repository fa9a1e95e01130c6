import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The lint rule of the server's layers (scripts/check-imports.mjs, part of `npm run lint`): a feature never imports
// another feature, and no module imports itself round a cycle.
const script = resolve(import.meta.dirname, '../../../scripts/check-imports.mjs');

function tree(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'import-rule-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, 'src', path, '..'), { recursive: true });
    writeFileSync(join(root, 'src', path), text);
  }
  const r = spawnSync(process.execPath, [script, '--root', join(root, 'src')], { encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

const crossing = 'features/a/service.ts -> features/b/queries.js';
const files = {
  'features/a/service.ts': "import { x } from '../b/queries.js';\nimport { db } from '../../db/index.js';\n",
  'features/b/queries.ts': "export const x = 1;\nimport { y } from './other.js';\n",
  'features/b/other.ts': 'export const y = 2;\n',
};

describe('lint: feature-to-feature imports', () => {
  it('fails on a feature importing another feature, naming the import', () => {
    const r = tree(files);
    expect(r.status).toBe(1);
    expect(r.output).toContain(`feature imports another feature: ${crossing}`);
  });

  it('passes shared-layer imports and imports inside one feature, sub-folders included', () => {
    expect(tree({ 'features/a/service.ts': "import { db } from '../../db/index.js';\n" }).status).toBe(0);
    const nested = {
      'features/a/sub/service.ts': "import { x } from '../queries.js';\n",
      'features/a/queries.ts': 'export const x = 1;\n',
    };
    expect(tree(nested).status).toBe(0);
  });

  it('fails on an import cycle, naming it; a type-only import closes none', () => {
    const cycle = {
      'access/a.ts': "import { b } from './b.js';\nexport const a = 1;\n",
      'access/b.ts': "import { a } from './a.js';\nexport const b = 2;\n",
    };
    const r = tree(cycle);
    expect(r.status).toBe(1);
    expect(r.output).toContain('import cycle: access/a.ts -> access/b.ts -> access/a.ts');
    const typeOnly = { ...cycle, 'access/b.ts': "import type { a } from './a.js';\nexport const b = 2;\n" };
    expect(tree(typeOnly).status).toBe(0);
  });

  it('holds on the server as it is', () => {
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
