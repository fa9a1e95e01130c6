#!/usr/bin/env node
// Publishes the SHA-256 of every segment a packager writes (README "Publishing segment hashes"), so the
// integrity service answers viewers without fetching segments from the origin. Watches a folder of HLS
// (or DASH) output, and posts each new or rewritten .ts/.m4s file's hash, under the URL viewers load it
// from, to POST /player/v1/hashes with a team API token of scope `hashes`. Plain Node (20+), no packages.
//
// Usage:
//   TLPRT_HASHES_TOKEN=tlprt_api_... node scripts/push-hashes.mjs \
//     --dir /var/www/live/stream1 --base https://cdn.example.com/live/stream1/ \
//     --server https://p2p.example.com [--once] [--interval 500] [--ext .ts,.m4s]
//
// --dir       the folder the packager writes to (sub-folders too: a/b.ts is posted as <base>a/b.ts)
// --base      the URL of that folder as viewers load it (the playlist's segment URLs resolve under it)
// --server    this server's public URL
// --once      posts the segments there now, then exits (a VOD folder); otherwise keeps watching
// --interval  how often the folder is scanned, in ms (default 500; a change also triggers a scan)
// --ext       the file endings that are segments (default .ts,.m4s)
// --no-stable posts a file as soon as it appears. By default a file is posted once its size and time
//             stayed the same for one interval, as the packager may still be writing it; a packager that
//             writes each segment under another name and renames it when complete (ffmpeg -hls_flags
//             temp_file) needs no wait. A file that changes later is posted again: its new hash replaces
//             the old one.
// The token is read from TLPRT_HASHES_TOKEN, never from the command line (which `ps` shows).
import { createHash } from 'node:crypto';
import { createReadStream, watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

/** The endpoint's limit (the contract's LIMITS.hashesPerPush). */
const PER_REQUEST = 1000;
const PATH = '/player/v1/hashes';

const { values: opt } = parseArgs({
  options: {
    dir: { type: 'string' },
    base: { type: 'string' },
    server: { type: 'string' },
    once: { type: 'boolean', default: false },
    interval: { type: 'string', default: '500' },
    ext: { type: 'string', default: '.ts,.m4s' },
    'no-stable': { type: 'boolean', default: false },
  },
});
const token = process.env.TLPRT_HASHES_TOKEN;
if (!opt.dir || !opt.base || !opt.server || !token) {
  console.error(
    'Usage: TLPRT_HASHES_TOKEN=<token of scope hashes> node scripts/push-hashes.mjs --dir <folder> --base <its URL> --server <server URL> [--once]',
  );
  process.exit(2);
}
const base = new URL(opt.base.endsWith('/') ? opt.base : `${opt.base}/`);
const endpoint = new URL(PATH, opt.server);
const extensions = opt.ext.split(',').map((e) => e.trim().toLowerCase());
const waitStable = !opt['no-stable'] && !opt.once;
const intervalMs = Math.max(50, Number(opt.interval) || 500);

/** What was posted per file (size and time), so a file rewritten under its name is posted again. */
const posted = new Map();
/** Files waiting to stay unchanged for an interval: their size and time, and since when. */
const seen = new Map();

async function* segmentFiles(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    // A sub-folder the packager just removed.
    if (err.code === 'ENOENT') return;
    throw err;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* segmentFiles(path);
    else if (e.isFile() && extensions.some((x) => e.name.toLowerCase().endsWith(x))) yield path;
  }
}

const sha256Of = (path) =>
  new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });

/** A file's URL under the base: each path part encoded as a URL path segment. */
const urlOf = (path) =>
  new URL(relative(opt.dir, path).split(sep).map(encodeURIComponent).join('/'), base).href;

/** The files complete and not yet posted as they are now. */
async function readyFiles() {
  const ready = [];
  const present = new Set();
  for await (const path of segmentFiles(opt.dir)) {
    present.add(path);
    let st;
    try {
      st = await stat(path);
    } catch {
      continue;
    }
    const version = `${st.size}:${st.mtimeMs}`;
    if (posted.get(path) === version) continue;
    if (waitStable) {
      const since = seen.get(path);
      if (since?.version !== version) {
        seen.set(path, { version, at: Date.now() });
        continue;
      }
      if (Date.now() - since.at < intervalMs) continue;
    }
    seen.delete(path);
    ready.push({ path, version });
  }
  // Segments a live packager deleted are forgotten: the maps stay the size of the folder.
  for (const path of posted.keys()) if (!present.has(path)) posted.delete(path);
  for (const path of seen.keys()) if (!present.has(path)) seen.delete(path);
  return ready;
}

/** Posts one batch; answers false when it should be tried again later. */
async function post(batch) {
  let res;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ hashes: batch.map((b) => ({ url: b.url, sha256: b.sha256 })) }),
    });
  } catch (err) {
    console.error(
      `push-hashes: ${endpoint.origin} not reached (${err.cause?.code ?? err.message}); retrying`,
    );
    return false;
  }
  const body = await res.json().catch(() => ({}));
  if (res.status === 202) {
    console.log(`push-hashes: ${body.accepted} accepted, ${body.rejected} rejected`);
    for (const e of body.errors ?? []) console.error(`push-hashes: refused ${e.url}: ${e.message}`);
    return true;
  }
  if (res.status === 401) {
    console.error(`push-hashes: ${body.message ?? 'the token was refused'} (401)`);
    process.exit(1);
  }
  if (res.status === 429) {
    const wait = Number(res.headers.get('retry-after') ?? 1);
    console.error(`push-hashes: ${body.message ?? 'too many requests'}; waiting ${wait} s`);
    await sleep(wait * 1000);
    return false;
  }
  // A 400 would come again with the same body: reported, not retried.
  console.error(`push-hashes: HTTP ${res.status}: ${JSON.stringify(body)}`);
  return res.status < 500;
}

async function scan() {
  const ready = await readyFiles();
  for (let i = 0; i < ready.length; i += PER_REQUEST) {
    const batch = [];
    for (const f of ready.slice(i, i + PER_REQUEST)) {
      try {
        batch.push({ ...f, url: urlOf(f.path), sha256: await sha256Of(f.path) });
      } catch {
        // Deleted between the listing and the read.
      }
    }
    if (batch.length === 0) continue;
    // Not marked posted when it failed: the next scan tries them again.
    if (await post(batch)) for (const f of batch) posted.set(f.path, f.version);
  }
}

if (opt.once) {
  await scan();
} else {
  let again = false;
  let running = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await scan();
      } while (again);
    } catch (err) {
      console.error(`push-hashes: ${err.message}`);
    } finally {
      running = false;
    }
  };
  // A change in the folder scans at once; the timer catches what the watcher misses (and, waiting for
  // stable files, the second look).
  try {
    watch(opt.dir, { recursive: true }, () => void run());
  } catch {
    // Some file systems cannot be watched: the timer alone scans them.
  }
  setInterval(() => void run(), intervalMs);
  await run();
  console.log(`push-hashes: watching ${opt.dir} for ${base.href}`);
  const stop = () => process.exit(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
