import { readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { CheckFailed } from '../../net/failure.js';
import { type SafeFetchOptions, safeFetch } from '../../net/safe-fetch.js';

/** Bytes `start`..`end` of a segment, both included (HLS EXT-X-BYTERANGE, p2p-media-loader). */
export interface ByteRange {
  start: number;
  end: number;
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/i;

/**
 * The bytes the origin serves for `url` (and `range`), read through the SSRF-guarded fetch. Without a
 * range only a 200 counts. With one, a 206 whose Content-Range is the asked range, or a 200 whose body
 * is cut to it (an origin that ignores Range). Throws CheckFailed with a short reason.
 */
export async function fetchSegment(
  url: URL,
  range: ByteRange | undefined,
  options: SafeFetchOptions,
): Promise<Buffer> {
  if (range && range.end - range.start + 1 > options.maxBytes)
    throw new CheckFailed(`the range is larger than ${options.maxBytes} bytes`);
  const page = await safeFetch(url, {
    ...options,
    headers: { Accept: '*/*', ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) },
  });
  if (!range) {
    if (page.status !== 200) throw new CheckFailed(`HTTP ${page.status}`);
    if (page.truncated) throw new CheckFailed(`larger than ${options.maxBytes} bytes`);
    return page.body;
  }
  if (page.status === 200) return cutToRange(page.body, page.truncated, range, options.maxBytes);
  if (page.status !== 206) throw new CheckFailed(`HTTP ${page.status}`);
  const m = CONTENT_RANGE.exec(String(page.headers['content-range'] ?? ''));
  if (!m) throw new CheckFailed('206 without a single Content-Range');
  const start = Number(m[1]);
  const end = Number(m[2]);
  const size = m[3] === '*' ? undefined : Number(m[3]);
  // A range that runs past the end is answered up to the last byte: peers got the same bytes from the
  // CDN, so that shorter answer is the reference too.
  const endsEarlyAtTheEnd = size !== undefined && end === size - 1 && end < range.end;
  if (start !== range.start || (end !== range.end && !endsEarlyAtTheEnd))
    throw new CheckFailed(`the origin answered bytes ${start}-${end} for ${range.start}-${range.end}`);
  if (page.truncated || page.body.length !== end - start + 1)
    throw new CheckFailed('the body does not match its Content-Range');
  return page.body;
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
