import { createHash, type Hash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { CheckFailed, reasonOf } from '../../net/failure.js';
import {
  type ChunkSink,
  type ResponseHead,
  type SafeFetchOptions,
  type StreamedPage,
  safeStream,
} from '../../net/safe-fetch.js';
import { statedSha256 } from './digest.js';

/** Bytes `start`..`end` of a segment, both included (HLS EXT-X-BYTERANGE, p2p-media-loader). */
export interface ByteRange {
  start: number;
  end: number;
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/i;

export interface OriginReadOptions extends SafeFetchOptions {
  /** Every host a read goes to, the first and each redirect's, must pass: the team's hosts. */
  allowHost(hostname: string): boolean | Promise<boolean>;
}

/** A segment's hash as its origin gave it. */
export interface OriginHash {
  /** SHA-256, hex. */
  sha256: string;
  /** `stated`: a digest header of the origin (no body read); `fetched`: the body's bytes hashed. */
  source: 'stated' | 'fetched';
  /** Body bytes received from the origin (headers not counted): the verification's cost. */
  originBytes: number;
}

/** A read that failed, with the body bytes it had received all the same (they were paid for). */
export class OriginReadFailed extends CheckFailed {
  constructor(
    message: string,
    readonly originBytes: number,
  ) {
    super(message);
  }
}

/** Asks origins that can to state the digest (RFC 9530 §4): the value is the algorithm's preference. */
const WANT_SHA256 = 'sha-256=10';

/**
 * The SHA-256 of what the origin serves for `url` (and `range`), from the cheapest source it offers:
 * a whole file's digest stated in a HEAD's headers (`Repr-Digest`, or S3's single-part checksum), else a
 * GET whose headers state it (read no further), else the body hashed as it streams in, never held
 * whole. A range always needs its bytes (a digest covers the whole file): a 206 with exactly the asked
 * Content-Range, or a 200 of which only bytes start..end are hashed (reading stops after them). One time
 * budget covers the HEAD and the GET. Throws OriginReadFailed with a short reason and the bytes received.
 */
export async function readOriginHash(
  url: URL,
  range: ByteRange | undefined,
  options: OriginReadOptions,
): Promise<OriginHash> {
  if (range && range.end - range.start + 1 > options.maxBytes)
    throw new OriginReadFailed(`the range is larger than ${options.maxBytes} bytes`, 0);
  const budget = new AbortController();
  const timer = setTimeout(
    () => budget.abort(new CheckFailed(`timed out after ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  const shared: OriginReadOptions = {
    ...options,
    signal: options.signal ? AbortSignal.any([budget.signal, options.signal]) : budget.signal,
  };
  try {
    if (!range) {
      const stated = await statedByHead(url, shared);
      if (stated !== undefined) return { sha256: stated, source: 'stated', originBytes: 0 };
    }
    return range ? await hashRange(url, range, shared) : await hashWhole(url, shared);
  } finally {
    clearTimeout(timer);
  }
}

/** The digest a HEAD states, or undefined: refused, failed, or without one the GET will do. */
async function statedByHead(url: URL, options: OriginReadOptions): Promise<string | undefined> {
  try {
    const page = await safeStream(
      url,
      {
        ...options,
        method: 'HEAD',
        headers: { Accept: '*/*', 'x-amz-checksum-mode': 'ENABLED', 'Want-Repr-Digest': WANT_SHA256 },
      },
      () => null,
    );
    return page.status === 200 ? statedSha256(page.headers, 'HEAD') : undefined;
  } catch (error) {
    // The shared budget ran out: the GET could not do better.
    if (options.signal?.aborted) throw new OriginReadFailed(reasonOf(error), 0);
    return undefined;
  }
}

/** A whole file: its digest if the GET's headers state one, else its body hashed as it arrives. */
async function hashWhole(url: URL, options: OriginReadOptions): Promise<OriginHash> {
  const hash = createHash('sha256');
  let stated: string | undefined;
  const page = await streamed(
    url,
    options,
    {
      Accept: '*/*',
      'x-amz-checksum-mode': 'ENABLED',
      'Want-Repr-Digest': WANT_SHA256,
      'Want-Content-Digest': WANT_SHA256,
    },
    (head) => {
      if (head.status !== 200) return null;
      stated = statedSha256(head.headers, 'GET');
      return stated === undefined ? hashing(hash) : null;
    },
  );
  if (page.status !== 200) throw new OriginReadFailed(`HTTP ${page.status}`, page.received);
  if (stated !== undefined) return { sha256: stated, source: 'stated', originBytes: page.received };
  if (page.truncated) throw new OriginReadFailed(`larger than ${options.maxBytes} bytes`, page.received);
  return { sha256: hash.digest('hex'), source: 'fetched', originBytes: page.received };
}

/** Bytes start..end: a 206 that is exactly them, or a 200 cut to them as it streams. */
async function hashRange(url: URL, range: ByteRange, options: OriginReadOptions): Promise<OriginHash> {
  const hash = createHash('sha256');
  /** Bytes of the answer's body seen so far (a 200: the whole file's offset). */
  let offset = 0;
  let expected = 0;
  let passedEnd = false;
  const page = await streamed(
    url,
    options,
    { Accept: '*/*', Range: `bytes=${range.start}-${range.end}` },
    (head) => {
      if (head.status === 206) {
        expected = partialLength(head, range);
        return (chunk) => {
          offset += chunk.length;
          // More than the Content-Range said: wrong whatever follows.
          if (offset > expected) return false;
          hash.update(chunk);
          return true;
        };
      }
      if (head.status !== 200) return null;
      return (chunk) => {
        const from = Math.max(range.start - offset, 0);
        const to = Math.min(range.end + 1 - offset, chunk.length);
        if (from < to) hash.update(chunk.subarray(from, to));
        offset += chunk.length;
        passedEnd = offset > range.end;
        return !passedEnd;
      };
    },
  );
  const fail = (reason: string): never => {
    throw new OriginReadFailed(reason, page.received);
  };
  if (page.status === 206) {
    if (page.truncated || !page.complete || offset !== expected)
      fail('the body does not match its Content-Range');
  } else if (page.status === 200) {
    // A range that runs past the end is answered up to the last byte, as a 206 would.
    if (!passedEnd) {
      if (page.truncated) fail(`larger than ${options.maxBytes} bytes before the end of the range`);
      if (range.start >= offset) fail('the range starts past the end of the segment');
    }
  } else {
    fail(`HTTP ${page.status}`);
  }
  return { sha256: hash.digest('hex'), source: 'fetched', originBytes: page.received };
}

/** The body length a 206 announces, checked against the asked range. */
function partialLength(head: ResponseHead, range: ByteRange): number {
  const m = CONTENT_RANGE.exec(String(head.headers['content-range'] ?? ''));
  if (!m) throw new CheckFailed('206 without a single Content-Range');
  const start = Number(m[1]);
  const end = Number(m[2]);
  const size = m[3] === '*' ? undefined : Number(m[3]);
  // A range that runs past the end is answered up to the last byte: peers got the same bytes from the
  // CDN, so that shorter answer is the reference too.
  const endsEarlyAtTheEnd = size !== undefined && end === size - 1 && end < range.end;
  if (start !== range.start || (end !== range.end && !endsEarlyAtTheEnd))
    throw new CheckFailed(`the origin answered bytes ${start}-${end} for ${range.start}-${range.end}`);
  return end - start + 1;
}

function hashing(hash: Hash): ChunkSink {
  return (chunk) => {
    hash.update(chunk);
    return true;
  };
}

/** One guarded GET streamed to `onHead`'s sink; a failure keeps the body bytes received until then. */
async function streamed(
  url: URL,
  options: OriginReadOptions,
  headers: Record<string, string>,
  onHead: (head: ResponseHead) => ChunkSink | null,
): Promise<StreamedPage> {
  let received = 0;
  try {
    return await safeStream(url, { ...options, method: 'GET', headers }, (head) => {
      const sink = onHead(head);
      if (sink === null) return null;
      return (chunk) => {
        received += chunk.length;
        return sink(chunk);
      };
    });
  } catch (error) {
    throw new OriginReadFailed(reasonOf(error), received);
  }
}

/** The asked bytes of a whole body, or up to its end when the range runs past it (as a 206 would). */
function cutToRange(body: Buffer, truncated: boolean, range: ByteRange, maxBytes: number): Buffer {
  if (body.length > range.end) return body.subarray(range.start, range.end + 1);
  if (truncated) throw new CheckFailed(`larger than ${maxBytes} bytes before the end of the range`);
  if (range.start >= body.length) throw new CheckFailed('the range starts past the end of the segment');
  return body.subarray(range.start);
}

/**
 * The file of the server's own demo stream a path under its prefix names, or undefined for anything
 * that could leave the folder: every segment is decoded once and must be a plain name (no `.`, `..`,
 * slash, backslash or NUL after decoding), and the joined path must still be inside the folder.
 */
export function demoFilePath(root: string, rest: string): string | undefined {
  const parts = rest.split('/');
  const names: string[] = [];
  for (const part of parts) {
    let name: string;
    try {
      name = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) return undefined;
    names.push(name);
  }
  const base = resolve(root);
  const file = resolve(join(base, ...names));
  return file.startsWith(base + sep) ? file : undefined;
}

/** A demo stream file's bytes (and range), with the same limits and range rules as a fetch. */
export async function readDemoFile(
  file: string,
  range: ByteRange | undefined,
  maxBytes: number,
): Promise<Buffer> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new CheckFailed('HTTP 404');
  if (info.size > maxBytes && !range) throw new CheckFailed(`larger than ${maxBytes} bytes`);
  if (range && range.end - range.start + 1 > maxBytes)
    throw new CheckFailed(`the range is larger than ${maxBytes} bytes`);
  const body = await readFile(file);
  return range ? cutToRange(body, false, range, maxBytes) : body;
}
