import type { LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { type AddressClass, classifyAddress } from './address.js';
import { abortable, CheckFailed, errorCode } from './failure.js';
import { normalizeHost } from './host.js';

export interface SafeFetchOptions {
  /** The only ports fetched: http and https each have one (VERIFY_HTTP_PORT, 443 by default). */
  ports: { http: number; https: number };
  /** Any port the URL names instead (a webhook target the customer chose; `ports` are then the
   *  defaults of a URL without one). */
  anyPort?: boolean;
  allowPrivate: boolean;
  /** The address policy; classifyAddress unless a test narrows it. */
  classify?: (address: string) => AddressClass;
  /** Whole budget of one fetch, redirects and address look-ups included. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  /** A and AAAA look-up through the caller's resolver (DNS_SERVERS or the system's). */
  resolveAddresses(host: string): Promise<string[]>;
  /** Request headers added to (or replacing) the defaults: a Range, another Accept. The encoding and
   *  connection headers stay ours whatever is given. */
  headers?: Readonly<Record<string, string>>;
  /** GET unless told: HEAD asks for the headers alone (the integrity service reads a digest there);
   *  POST sends `body` (a webhook delivery). */
  method?: 'GET' | 'HEAD' | 'POST';
  /** The request body, sent with its Content-Length (POST); a followed redirect sends it again. */
  body?: Buffer;
  /** 'follow' (the default): redirects are followed, each hop checked, up to maxRedirects. 'manual':
   *  a redirect is the answer, its status and Location handed back, never followed. */
  redirect?: 'follow' | 'manual';
  /** Besides the address checks, every hop's host (the first and each redirect's) must pass this, looked
   *  at before its name is even resolved: the integrity service keeps its fetches on the team's hosts,
   *  domain verification on the site checked. */
  allowHost?(hostname: string): boolean | Promise<boolean>;
  /** What the hosts allowHost passes are, for the failure's reason ("the team's"); "the allowed ones"
   *  unless told. */
  allowedHosts?: string;
  /** A budget several fetches share (a HEAD, then a GET): its abort ends this one too, its reason
   *  (a CheckFailed) the failure. timeoutMs still bounds this fetch alone. */
  signal?: AbortSignal;
}

/** The last response's status line and headers (after redirects). */
export interface ResponseHead {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
}

/** Takes one chunk of the body as it arrives; false stops the reading (the connection is dropped). */
export type ChunkSink = (chunk: Buffer) => boolean;

export interface StreamedPage extends ResponseHead {
  /** Body bytes received from the server, every chunk counted whole (the one that passed maxBytes
   *  too): what the fetch cost the server that answered. */
  received: number;
  /** The body was read to its end. */
  complete: boolean;
  /** The server had more than maxBytes to send: reading stopped there. */
  truncated: boolean;
}

export interface FetchedPage {
  url: string;
  status: number;
  /** The headers of the last response (after redirects). */
  headers: IncomingHttpHeaders;
  /** At most maxBytes bytes of the body. */
  body: Buffer;
  /** The server had more than maxBytes to send. */
  truncated: boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * GET `start` with the SSRF guard of docs/DESIGN.md §6: every hop's host is resolved once, each address is
 * classified, and the connection goes to the checked address (no second look-up that a rebinding
 * DNS server could answer differently). Throws CheckFailed with a short reason.
 */
export async function safeFetch(start: URL, options: SafeFetchOptions): Promise<FetchedPage> {
  const chunks: Buffer[] = [];
  let kept = 0;
  const page = await safeStream(start, options, () => (chunk) => {
    // Only what fits is kept: a page is never held past maxBytes.
    const room = options.maxBytes - kept;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(part);
    kept += part.length;
    return true;
  });
  return {
    url: page.url,
    status: page.status,
    headers: page.headers,
    body: Buffer.concat(chunks, kept),
    truncated: page.truncated,
  };
}

/**
 * The guarded fetch of safeFetch, with the body handed over as it arrives instead of gathered:
 * `onHead` sees the last response's head and answers the sink for its body, or null to read none of it.
 * Memory per fetch stays at a chunk or so whatever the size; the sink sees at most maxBytes bytes (past
 * them the page is truncated), all within the one time budget of the fetch.
 */
export async function safeStream(
  start: URL,
  options: SafeFetchOptions,
  onHead: (head: ResponseHead) => ChunkSink | null,
): Promise<StreamedPage> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new CheckFailed(`timed out after ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  try {
    const { head, response } = await followRedirects(start, options, signal);
    let sink: ChunkSink | null;
    try {
      sink = onHead(head);
    } catch (error) {
      response.destroy();
      throw error;
    }
    if (sink === null) {
      response.destroy();
      return { ...head, received: 0, complete: options.method === 'HEAD', truncated: false };
    }
    return { ...head, ...(await readBody(response, sink, options.maxBytes, signal)) };
  } finally {
    clearTimeout(timer);
  }
}

async function followRedirects(
  start: URL,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<{ head: ResponseHead; response: IncomingMessage }> {
  const visited = new Set<string>();
  let url = start;
  for (let hop = 0; ; hop++) {
    visited.add(url.href);
    if (options.allowHost && !(await abortable(Promise.resolve(options.allowHost(url.hostname)), signal)))
      throw new CheckFailed(
        `${hop === 0 ? 'a host' : 'redirect to a host'} outside ${options.allowedHosts ?? 'the allowed ones'}`,
      );
    const target = await checkedTarget(url, options, signal);
    const response = await requestOnce(target, options, signal);
    const location = response.headers.location;
    if (
      options.redirect === 'manual' ||
      !REDIRECT_STATUSES.has(response.statusCode ?? 0) ||
      location === undefined
    ) {
      return {
        head: { url: url.href, status: response.statusCode ?? 0, headers: response.headers },
        response,
      };
    }
    // Redirect bodies are never needed; dropping the socket also keeps a huge one from being read.
    response.destroy();
    if (hop >= options.maxRedirects) throw new CheckFailed(`more than ${options.maxRedirects} redirects`);
    url = nextUrl(url, location);
    if (visited.has(url.href)) throw new CheckFailed('redirect loop');
  }
}

function nextUrl(current: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new CheckFailed('invalid redirect location');
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:')
    throw new CheckFailed('redirect to a non-web URL');
  next.hash = '';
  return next;
}

interface Target {
  url: URL;
  host: string;
  port: number;
  address: string;
  family: 4 | 6;
}

/** Validates one hop: scheme, port, host syntax, then resolves and classifies its addresses. */
async function checkedTarget(url: URL, options: SafeFetchOptions, signal: AbortSignal): Promise<Target> {
  if (url.username || url.password) throw new CheckFailed('URL with credentials refused');
  const port = options.anyPort && url.port !== '' ? Number(url.port) : allowedPort(url, options.ports);
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  let host: string;
  if (isIP(literal) !== 0) {
    host = literal;
    addresses = [literal];
  } else {
    const normalized = normalizeHost(url.hostname);
    if (normalized === null) throw new CheckFailed('invalid host in URL');
    host = normalized;
    addresses = await abortable(options.resolveAddresses(host), signal);
  }
  const address = pickAddress(addresses, options.allowPrivate, options.classify);
  return { url, host, port, address, family: isIP(address) === 6 ? 6 : 4 };
}

/**
 * Only the configured port of each scheme is fetched. Without the rule a redirect could point the
 * server at any service port of a public host (mail, databases). The URL parser drops a scheme's
 * default port, so an empty port means "the default", which is the configured one.
 */
function allowedPort(url: URL, ports: SafeFetchOptions['ports']): number {
  const configured = url.protocol === 'https:' ? ports.https : ports.http;
  if (url.port === '' || Number(url.port) === configured) return configured;
  throw new CheckFailed(`port ${url.port} is not allowed`);
}

/**
 * Refuses the host when any of its addresses is not public: an attacker who controls DNS could
 * otherwise mix one internal address into a public set. Prefers IPv4, which every server can reach.
 */
function pickAddress(
  addresses: readonly string[],
  allowPrivate: boolean,
  classify: (address: string) => AddressClass = classifyAddress,
): string {
  if (addresses.length === 0) throw new CheckFailed('the host has no address');
  if (!allowPrivate) {
    for (const address of addresses) {
      const kind = classify(address);
      if (kind !== 'public') throw new CheckFailed(`refused ${kind} address ${address}`);
    }
  }
  return addresses.find((a) => isIP(a) === 4) ?? (addresses[0] as string);
}

/** A lookup that always answers the address already checked, so the socket cannot go anywhere else. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) {
      const all: LookupAddress[] = [{ address, family }];
      callback(null, all);
    } else {
      callback(null, address, family);
    }
  };
}

function requestOnce(
  target: Target,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = client.request(
      {
        // The host name (not the address) so that Host, SNI and certificate checks name the site.
        host: target.host,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: options.method ?? 'GET',
        lookup: pinnedLookup(target.address, target.family),
        // A private agent per request: no pooled socket from another host or another check is reused.
        agent: false,
        signal,
        headers: {
          'User-Agent': options.userAgent,
          Accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
          ...options.headers,
          ...(options.body ? { 'Content-Length': String(options.body.length) } : {}),
          // Compressed bodies would need decoding and would defeat the byte limit.
          'Accept-Encoding': 'identity',
          Connection: 'close',
        },
      },
      resolve,
    );
    request.on('error', (error) => reject(requestFailure(error, signal)));
    request.end(options.body);
  });
}

/**
 * Hands the body to `sink` chunk by chunk, at most `maxBytes` bytes of it: past them, or when the sink
 * says stop, the connection is dropped. Nothing is kept here, so a large body never sits in memory.
 */
function readBody(
  response: IncomingMessage,
  sink: ChunkSink,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ received: number; complete: boolean; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    let received = 0;
    let settled = false;
    const finish = (error: unknown, complete = false, truncated = false): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (!complete) response.destroy();
      if (error) reject(error);
      else resolve({ received, complete, truncated });
    };
    const onAbort = (): void => finish(requestFailure(signal.reason, signal));
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => {
      if (settled) return;
      const room = maxBytes - received;
      received += chunk.length;
      try {
        if (chunk.length > room) {
          if (room > 0) sink(chunk.subarray(0, room));
          finish(null, false, true);
        } else if (!sink(chunk)) {
          finish(null);
        }
      } catch (error) {
        // A sink's own error ends this fetch, never the process (it runs in an event handler).
        finish(error);
      }
    });
    response.on('end', () => finish(null, true));
    response.on('error', (error) => finish(requestFailure(error, signal)));
    response.on('close', () => finish(new CheckFailed('connection closed before the end of the page')));
  });
}

/** Turns socket and TLS errors into short reasons; an abort is always our own timeout. */
function requestFailure(error: unknown, signal: AbortSignal): CheckFailed {
  if (signal.aborted) {
    return signal.reason instanceof CheckFailed ? signal.reason : new CheckFailed('timed out');
  }
  if (error instanceof CheckFailed) return error;
  const code = errorCode(error) ?? '';
  if (code === 'ECONNREFUSED') return new CheckFailed('connection refused');
  if (code === 'ECONNRESET') return new CheckFailed('connection reset');
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new CheckFailed('host unreachable');
  if (code.startsWith('HPE_')) return new CheckFailed('invalid HTTP response');
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH/.test(code))
    return new CheckFailed('TLS certificate refused');
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code === 'EPROTO') {
    return new CheckFailed('TLS handshake failed');
  }
  return new CheckFailed(code ? `connection failed (${code})` : 'connection failed');
}
