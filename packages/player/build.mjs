// Builds the one browser bundle the server serves at /player/v1/tlprt-p2p.min.js (global TlprtP2P).
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('./src/index.ts', import.meta.url).pathname],
  outfile: new URL('./dist/tlprt-p2p.min.js', import.meta.url).pathname,
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'iife',
  globalName: 'TlprtP2P',
  platform: 'browser',
  target: ['es2020'],
  // The core's prebuilt browser file (its package says so): no Node shims pulled in.
  conditions: ['p2pml:core-as-bundle'],
  legalComments: 'eof',
  logLevel: 'warning',
});
