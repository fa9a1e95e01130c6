import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The web's layer rules of scripts/check-imports.mjs (part of `npm run lint`), each shown failing on a
// crafted tree and passing on the app as it is.
const script = resolve(import.meta.dirname, '../../../../scripts/check-imports.mjs');

function check(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'web-import-rule-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const r = spawnSync(process.execPath, [script, '--web', root], { encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

const good = {
  'app/router.tsx': "import Statistics from '../routes/statistics';\nexport const routes = [Statistics];\n",
  'routes/statistics.tsx':
    "import { Chart } from '../features/statistics/Chart';\nimport { Keys } from '../features/domains/Keys';\nexport default [Chart, Keys];\n",
  'features/statistics/Chart.tsx':
    "import { request } from '../../platform/api/client';\nimport { format } from './format';\nexport const Chart = [request, format];\n",
  'features/statistics/format.ts': 'export const format = 1;\n',
  'features/domains/Keys.tsx':
    "import { useSession } from '../../platform/session';\nexport const Keys = useSession;\n",
  'features/domains/keys/api.ts': "import { Keys } from '../Keys';\nexport const api = Keys;\n",
  'platform/api/client.ts': "import { token } from '../session';\nexport const request = token;\n",
  'platform/session/index.ts': 'export const token = 1;\nexport const useSession = 2;\n',
};

describe('lint: web layers', () => {
  it('passes features on platform/, routes composing features, app on routes, sub-folders and indexes', () => {
    const r = check(good);
    expect(r.output).toContain('web imports:');
    expect(r.status).toBe(0);
  });

  it('fails on a feature importing another feature, naming the import', () => {
    const r = check({
      ...good,
      'features/domains/Keys.tsx':
        "import { format } from '../statistics/format';\nexport const Keys = format;\n",
    });
    expect(r.status).toBe(1);
    expect(r.output).toContain(
      'web feature imports another feature: features/domains/Keys.tsx -> features/statistics/format.ts',
    );
  });

  it('fails on a type-only or dynamic import into another feature as well', () => {
    const typeOnly = "import type { X } from '../statistics/format';\nexport type K = X;\n";
    expect(check({ ...good, 'features/domains/types.ts': typeOnly }).status).toBe(1);
    const lazy = "export const load = () => import('../statistics/Chart');\n";
    expect(check({ ...good, 'features/domains/lazy.ts': lazy }).status).toBe(1);
  });

  it('fails on a feature importing routes/ or app/', () => {
    const r = check({
      ...good,
      'features/domains/x.ts': "import r from '../../routes/statistics';\nexport default r;\n",
    });
    expect(r.status).toBe(1);
    expect(r.output).toContain('web feature imports routes/: features/domains/x.ts -> routes/statistics.tsx');
  });

  it('fails on platform/ importing a feature, routes/ or app/', () => {
    for (const [target, layer] of [
      ['../features/domains/Keys', 'features/'],
      ['../routes/statistics', 'routes/'],
      ['../app/router', 'app/'],
    ] as const) {
      const r = check({ ...good, 'platform/x.ts': `import x from '${target}';\nexport default x;\n` });
      expect(r.status).toBe(1);
      expect(r.output).toContain(`web platform imports ${layer}: platform/x.ts ->`);
    }
  });

  it('fails on a route importing app/', () => {
    const r = check({
      ...good,
      'routes/x.tsx': "import { routes } from '../app/router';\nexport default routes;\n",
    });
    expect(r.status).toBe(1);
    expect(r.output).toContain('web route imports app/: routes/x.tsx -> app/router.tsx');
  });

  it('lets tests render whole screens across layers', () => {
    const test = "import { routes } from '../../app/router';\nexport default routes;\n";
    expect(check({ ...good, 'features/domains/Keys.test.tsx': test }).status).toBe(0);
  });

  it('fails on an import cycle (.ts and .tsx, a folder index), naming it; a type-only import closes none', () => {
    const cycle = {
      ...good,
      'platform/ui/Card.tsx': "import { padding } from './index';\nexport const Card = padding;\n",
      'platform/ui/index.ts': "import { Card } from './Card';\nexport const padding = 1;\nexport { Card };\n",
    };
    const r = check(cycle);
    expect(r.status).toBe(1);
    expect(r.output).toContain(
      'web import cycle: platform/ui/Card.tsx -> platform/ui/index.ts -> platform/ui/Card.tsx',
    );
    const typeOnly = {
      ...cycle,
      'platform/ui/Card.tsx':
        "import type { padding } from './index';\nexport const Card: typeof padding = 1;\n",
    };
    expect(check(typeOnly).status).toBe(0);
  });

  it('holds on the web app as it is', () => {
    const r = spawnSync(process.execPath, [script, '--web', resolve(import.meta.dirname, '..')], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
