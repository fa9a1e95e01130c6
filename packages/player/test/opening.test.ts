import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HTTP_SLOTS, loaderOf, OpeningWait, openingCore, type Timers } from '../src/opening.js';

/** p2p-media-loader's objects as far as opening.ts walks them: core → stream loaders → requests. */
const loader = (...runtimeIds: string[]) => ({
  requests: { requests: new Map(runtimeIds.map((id) => [{ id }, { segment: { runtimeId: id } }])) },
});
type Loader = ReturnType<typeof loader>;

function fakeEngine() {
  const core: { mainStreamLoader?: Loader; secondaryStreamLoader?: Loader } = {};
  const applied: unknown[] = [];
  return {
    core,
    applied,
    applyDynamicConfig(c: unknown) {
      applied.push(c);
    },
  };
}

/** Timers the test runs by hand. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  const timers: Timers = {
    setTimeout(fn, ms) {
      pending.set(next, { fn, ms });
      return next++;
    },
    clearTimeout(h) {
      pending.delete(h as number);
    },
  };
  const runAll = () => {
    for (const [id, t] of [...pending]) {
      pending.delete(id);
      t.fn();
    }
  };
  return { timers, pending, runAll };
}

const wait = (stream: 'mainStream' | 'secondaryStream', ms: number) => ({
  core: { [stream]: { httpDownloadInitialTimeoutMs: ms, simultaneousHttpDownloads: HTTP_SLOTS } },
});

describe('OpeningWait', () => {
  it('holds nothing before a stream’s first download, then the segments ahead for the rest of the window', () => {
    const engine = fakeEngine();
    const { timers, pending, runAll } = manualTimers();
    const opening = new OpeningWait(() => engine, 2000, timers);
    // The player's first segment is requested: the engine was built without a wait, nothing applied yet.
    expect(engine.applied).toEqual([]);
    engine.core.mainStreamLoader = loader('seg-0', 'seg-1');
    opening.segmentStarted('seg-0');
    // Its download has begun: only now does the main stream wait for peers.
    expect(engine.applied).toEqual([wait('mainStream', 2000)]);
    expect([...pending.values()].map((t) => t.ms)).toEqual([2000]);
    // Later downloads of the same stream change nothing.
    opening.segmentStarted('seg-1');
    expect(engine.applied).toHaveLength(1);
    // The window over, the wait is lifted.
    runAll();
    expect(engine.applied).toEqual([wait('mainStream', 2000), wait('mainStream', 0)]);
  });

  it('a second stream (a separate audio track) gets its own window from its own first download', () => {
    const engine = fakeEngine();
    const { timers, runAll } = manualTimers();
    const opening = new OpeningWait(() => engine, 1500, timers);
    engine.core.mainStreamLoader = loader('v0');
    opening.segmentStarted('v0');
    // The audio stream's loader starts after the main one: its first segment was not held either.
    engine.core.secondaryStreamLoader = loader('a0');
    opening.segmentStarted('a0');
    expect(engine.applied).toEqual([wait('mainStream', 1500), wait('secondaryStream', 1500)]);
    runAll();
    expect(engine.applied.slice(2)).toEqual([wait('mainStream', 0), wait('secondaryStream', 0)]);
  });

  it('a stream loader the library makes after the window (another source) gets a window of its own', () => {
    const engine = fakeEngine();
    const { timers, runAll } = manualTimers();
    const opening = new OpeningWait(() => engine, 2000, timers);
    engine.core.mainStreamLoader = loader('s0');
    opening.segmentStarted('s0');
    runAll();
    engine.core.mainStreamLoader = loader('t0');
    opening.segmentStarted('t0');
    expect(engine.applied).toEqual([
      wait('mainStream', 2000),
      wait('mainStream', 0),
      wait('mainStream', 2000),
    ]);
  });

  it('no wait at all for a viewer without peering (0), nor for a segment or engine it cannot place', () => {
    const engine = fakeEngine();
    engine.core.mainStreamLoader = loader('s0');
    const { timers, pending } = manualTimers();
    new OpeningWait(() => engine, 0, timers).segmentStarted('s0');
    const opening = new OpeningWait(() => engine, 2000, timers);
    opening.segmentStarted('unknown');
    opening.segmentStarted(undefined);
    new OpeningWait(() => undefined, 2000, timers).segmentStarted('s0');
    new OpeningWait(() => ({ applyDynamicConfig: engine.applyDynamicConfig }), 2000, timers).segmentStarted(
      's0',
    );
    expect(engine.applied).toEqual([]);
    expect(pending.size).toBe(0);
  });

  it('stop() (peers turned off, detach) lets a waiting stream go at once and applies no wait again', () => {
    const engine = fakeEngine();
    const { timers, pending } = manualTimers();
    const opening = new OpeningWait(() => engine, 2000, timers);
    engine.core.mainStreamLoader = loader('s0');
    opening.segmentStarted('s0');
    opening.stop();
    expect(engine.applied).toEqual([wait('mainStream', 2000), wait('mainStream', 0)]);
    expect(pending.size).toBe(0);
    engine.core.secondaryStreamLoader = loader('a0');
    opening.segmentStarted('a0');
    opening.stop();
    expect(engine.applied).toHaveLength(2);
  });

  it('an engine with an opening wait starts one CDN download at a time, one without it the usual two', () => {
    expect(openingCore(2000)).toEqual({ httpDownloadInitialTimeoutMs: 0, simultaneousHttpDownloads: 1 });
    expect(openingCore(0)).toEqual({
      httpDownloadInitialTimeoutMs: 0,
      simultaneousHttpDownloads: HTTP_SLOTS,
    });
  });

  it('finds the stream of a segment among the loaders’ requests', () => {
    const engine = fakeEngine();
    engine.core.mainStreamLoader = loader('v0', 'v1');
    engine.core.secondaryStreamLoader = loader('a0');
    expect(loaderOf(engine, 'v1')).toEqual({ type: 'mainStream', loader: engine.core.mainStreamLoader });
    expect(loaderOf(engine, 'a0')).toEqual({
      type: 'secondaryStream',
      loader: engine.core.secondaryStreamLoader,
    });
    expect(loaderOf(engine, 'x')).toBeNull();
    expect(loaderOf({}, 'v0')).toBeNull();
    expect(loaderOf(null, 'v0')).toBeNull();
  });

  it('relies on what the bundled library really does (an upgrade that changes it fails here)', () => {
    // npm workspaces hoist the libraries to the repository's node_modules.
    const root = (pkg: string) => fileURLToPath(new URL(`../../../node_modules/${pkg}/`, import.meta.url));
    const core = readFileSync(`${root('p2p-media-loader-core')}dist/p2p-media-loader-core.es.js`, 'utf8');
    // The walk: core → stream loaders → their requests → each request's segment.
    expect(core).toMatch(/\bmainStreamLoader;/);
    expect(core).toMatch(/\bsecondaryStreamLoader;/);
    expect(core).toMatch(/this\.requests = new RequestsContainer\(/);
    expect(core).toMatch(/var RequestsContainer = class \{\s*requests = \/\* @__PURE__ \*\/ new Map\(\);/);
    expect(core).toMatch(
      /var Request\$1 = class \{[\s\S]*?constructor\(segment, [\s\S]*?this\.segment = segment;/,
    );
    // A download's start is announced when it begins, the request already in its loader's container.
    expect(core).toMatch(/this\.onSegmentStart\(\{/);
    // The wait is read from the stream's configuration (the object dynamic changes write into) at each
    // pass and counted from the loader's creation: applied once the first download began, it holds only
    // what comes after.
    expect(core).toMatch(/createdAt = performance\.now\(\);/);
    // The slots are read once per pass too: one slot in the first pass starts the first segment only.
    expect(core).toMatch(/simultaneousHttpDownloads: 2,/);
    expect(core).toMatch(
      /processQueue\(\) \{[\s\S]*?const \{ simultaneousHttpDownloads, [^}]*\} = this\.config;/,
    );
    expect(core).toMatch(
      /processQueue\(\) \{[\s\S]*?httpDownloadInitialTimeoutMs \} = this\.config;\s*const timeSinceStart = performance\.now\(\) - this\.createdAt;\s*const isInitialHttpWait = httpDownloadInitialTimeoutMs > 0 && timeSinceStart < httpDownloadInitialTimeoutMs;/,
    );
    expect(core).toMatch(
      /const streamConfig = segment\.stream\.type === "main" \? this\.mainStreamConfig : this\.secondaryStreamConfig;\s*return new HybridLoader\([^)]*streamConfig/,
    );
    expect(core).toMatch(/if \(mainStream\) overrideConfig\(this\.mainStreamConfig, mainStream\);/);
    expect(core).toMatch(
      /if \(secondaryStream\) overrideConfig\(this\.secondaryStreamConfig, secondaryStream\);/,
    );
  });
});
