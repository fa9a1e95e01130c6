import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The lint rule of issue 13 (scripts/check-imports.mjs, part of `npm run lint`): a feature never imports
// another feature; the crossings left are on a list that may only shrink.
const script = resolve(import.meta.dirname, '../../../scripts/check-imports.mjs');

function tree(files: Record<string, string>, allowed: string[]) {
  const root = mkdtempSync(join(tmpdir(), 'import-rule-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, 'src', path, '..'), { recursive: true });
    writeFileSync(join(root, 'src', path), text);
  }
  writeFileSync(join(root, 'allowed'), allowed.join('\n'));
  const r = spawnSync(
    process.execPath,
    [script, '--root', join(root, 'src'), '--allowed', join(root, 'allowed')],
    {
      encoding: 'utf8',
    },
  );
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
    const r = tree(files, []);
    expect(r.status).toBe(1);
    expect(r.output).toContain(`feature imports another feature: ${crossing}`);
  });

  it('passes shared-layer and same-feature imports, and listed crossings', () => {
    expect(tree(files, [crossing]).status).toBe(0);
    expect(tree({ 'features/a/service.ts': "import { db } from '../../db/index.js';\n" }, []).status).toBe(0);
  });

  it('fails when a listed crossing is gone, so the list only shrinks', () => {
    const r = tree({ 'features/a/service.ts': "import { db } from '../../db/index.js';\n" }, [crossing]);
    expect(r.status).toBe(1);
    expect(r.output).toContain(`delete its line`);
  });

  it('holds on the server as it is', () => {
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
