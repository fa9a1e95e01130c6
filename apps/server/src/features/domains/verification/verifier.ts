import type { Config } from '../../../config.js';
import { publicHostOf } from '../../../config.js';
import { createDnsClient, type DnsClient } from '../../../net/dns.js';
import { CheckFailed, reasonOf } from '../../../net/failure.js';
import { normalizeHost } from '../../../net/host.js';
import { type FetchedPage, type SafeFetchOptions, safeFetch } from '../../../net/safe-fetch.js';
import { isValidHash } from './host.js';
import {
  cnameLabel,
  cnameName,
  cnameTarget,
  htmlFileName,
  instructions,
  txtValue,
  type VerificationInstructions,
} from './instructions.js';
import { checkVerificationMeta } from './meta.js';

/** VerificationMethod ids the verifier checks; 5 (supervisor bypass) needs no check and is the caller's. */
export const CheckMethod = { CNAME: 1, dnsTXT: 2, HTML: 3, META: 4 } as const;
export type CheckMethodId = (typeof CheckMethod)[keyof typeof CheckMethod];

export type VerifyResult = { ok: true } | { ok: false; reason: string };

export interface VerifierOptions {
  /** DNS_SERVERS (`ip:port` entries); unset or empty means the system resolver. */
  dnsServers?: string[] | undefined;
  /** VERIFY_HTTP_PORT. */
  httpPort: number;
  /** Port of the https attempt that comes first; 443 unless a test points it elsewhere. */
  httpsPort?: number;
  /** VERIFY_ALLOW_PRIVATE: lets fetches reach loopback and private addresses (tests only). */
  allowPrivate: boolean;
  /** Host of PUBLIC_URL; CNAME records must point to `verify.<publicHost>`. */
  publicHost: string;
  /** Budget of one HTTP fetch (redirects included) and of one DNS look-up. Default 5 s. */
  timeoutMs?: number;
  /** Most bytes read of a page. Default 256 KiB. */
  maxBytes?: number;
  /** Most redirects followed. Default 3. */
  maxRedirects?: number;
  userAgent?: string;
}

export interface Verifier {
  verify(host: string, hash: string, method: CheckMethodId): Promise<VerifyResult>;
  /** The Add-domain screen's copyable texts for this verifier's public host. */
  instructions(host: string, hash: string): VerificationInstructions;
}

const DEFAULTS = {
  timeoutMs: 5000,
  maxBytes: 256 * 1024,
  maxRedirects: 3,
  httpsPort: 443,
  userAgent: 'tlprt-domain-verifier/1.0 (domain ownership check)',
} as const;

/** DNS labels hold at most 63 octets, which bounds the hash usable in the CNAME name. */
const MAX_DNS_LABEL = 63;

/** The verifier as the server's configuration describes it (docs/DESIGN.md §3). */
export function verifierOptionsFromConfig(config: Config): VerifierOptions {
  return {
    dnsServers: config.dnsServers,
    httpPort: config.verifyHttpPort,
    allowPrivate: config.verifyAllowPrivate,
    publicHost: publicHostOf(config.publicUrl),
  };
}

export function createVerifier(options: VerifierOptions): Verifier {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const dns = createDnsClient({ servers: options.dnsServers, timeoutMs });
  const fetchOptions: SafeFetchOptions = {
    ports: { http: options.httpPort, https: options.httpsPort ?? DEFAULTS.httpsPort },
    allowPrivate: options.allowPrivate,
    timeoutMs,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? DEFAULTS.maxRedirects,
    userAgent: options.userAgent ?? DEFAULTS.userAgent,
    resolveAddresses: (host) => dns.addresses(host),
  };

  async function verify(host: string, hash: string, method: CheckMethodId): Promise<VerifyResult> {
    // Input is checked before any network traffic: a bad host must not reach DNS or a socket.
    const bareHost = normalizeHost(host);
    if (bareHost === null) return { ok: false, reason: 'invalid host name' };
    if (!isValidHash(hash)) return { ok: false, reason: 'invalid verification hash' };
    try {
      switch (method) {
        case CheckMethod.CNAME:
          await checkCname(dns, bareHost, hash, options.publicHost);
          break;
        case CheckMethod.dnsTXT:
          await checkTxt(dns, bareHost, hash);
          break;
        case CheckMethod.HTML:
          await httpsThenHttp(bareHost, (scheme) =>
            checkHtmlFile(scheme, bareHost, hash, withinSite(fetchOptions, bareHost)),
          );
          break;
        case CheckMethod.META:
          await httpsThenHttp(bareHost, (scheme) =>
            checkMetaPage(scheme, bareHost, hash, withinSite(fetchOptions, bareHost)),
          );
          break;
        default:
          return { ok: false, reason: `method ${String(method)} cannot be checked` };
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: reasonOf(error) };
    }
  }

  return {
    verify,
    instructions: (host, hash) => instructions(host, hash, options.publicHost),
  };
}

/** dnsTXT: one TXT record (its chunks joined, as DNS splits long strings) carries the token. */
async function checkTxt(dns: DnsClient, host: string, hash: string): Promise<void> {
  const records = (await dns.txt(host)).map((chunks) => chunks.join(''));
  const token = txtValue(hash);
  if (records.some((record) => containsToken(record, token))) return;
  const ours = records.some((record) => record.includes(txtValue('')));
  throw new CheckFailed(ours ? 'the TXT record holds another hash' : 'no tlprt-verification TXT record');
}

/**
 * The token must stand as a whole word: `tlprt-verification=<hash>x` is another (longer) hash, and
 * a record may hold other text around it (some providers merge several values into one).
 */
function containsToken(record: string, token: string): boolean {
  const hashChar = /[A-Za-z0-9_-]/;
  for (let at = record.indexOf(token); at !== -1; at = record.indexOf(token, at + 1)) {
    const before = record.charAt(at - 1);
    const after = record.charAt(at + token.length);
    if (!hashChar.test(before) && !hashChar.test(after)) return true;
  }
  return false;
}

/** CNAME: `tlprt-<hash>.<host>` points at `verify.<public host>`. */
async function checkCname(dns: DnsClient, host: string, hash: string, publicHost: string): Promise<void> {
  if (cnameLabel(hash).length > MAX_DNS_LABEL) throw new CheckFailed('the hash is too long for a DNS label');
  const targets = await dns.cname(cnameName(host, hash));
  const expected = dnsName(cnameTarget(publicHost));
  if (targets.some((t) => dnsName(t) === expected)) return;
  throw new CheckFailed(`the CNAME points to ${targets.map(dnsName).join(', ') || 'nothing'}`);
}

/** DNS names compare case-insensitively and with or without the root dot. */
function dnsName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

type Scheme = 'https' | 'http';

/** docs/DESIGN.md §6: https first, then http; the check passes if either does. Both reasons are kept. */
async function httpsThenHttp(host: string, check: (scheme: Scheme) => Promise<void>): Promise<void> {
  const reasons: string[] = [];
  for (const scheme of ['https', 'http'] as const) {
    try {
      await check(scheme);
      return;
    } catch (error) {
      reasons.push(`${scheme}://${host}: ${reasonOf(error)}`);
    }
  }
  throw new CheckFailed(reasons.join('; '));
}

/**
 * The fetch options of a check of `host`'s own pages: redirects stay on the host, its subdomains or its
 * parents (`example.com` → `www.example.com` and back), never another site, whose page would otherwise
 * prove ownership of a host that merely redirects to it.
 */
function withinSite(options: SafeFetchOptions, host: string): SafeFetchOptions {
  const site = host.toLowerCase();
  return {
    ...options,
    allowedHosts: "the site's",
    allowHost: (hostname) => {
      const h = hostname.toLowerCase().replace(/\.$/, '');
      return h === site || h.endsWith(`.${site}`) || (h.includes('.') && site.endsWith(`.${h}`));
    },
  };
}

/**
 * HTML: `/tlprt-<hash>.html` answers 200, fits the byte limit, and holds the hash alone (whitespace
 * around it allowed): a page that merely contains it — a "not found" page answered 200 that echoes the
 * path asked for — proves nothing.
 */
async function checkHtmlFile(
  scheme: Scheme,
  host: string,
  hash: string,
  options: SafeFetchOptions,
): Promise<void> {
  const page = await fetchOk(new URL(`${scheme}://${host}/${htmlFileName(hash)}`), options);
  if (page.truncated) throw new CheckFailed(`the file is larger than ${options.maxBytes} bytes`);
  if (page.body.toString('utf8').trim() !== hash)
    throw new CheckFailed('the file does not hold the hash alone');
}

/** META: the home page answers 200 and its head holds the tag (only the first maxBytes are read). */
async function checkMetaPage(
  scheme: Scheme,
  host: string,
  hash: string,
  options: SafeFetchOptions,
): Promise<void> {
  const page = await fetchOk(new URL(`${scheme}://${host}/`), options);
  const result = checkVerificationMeta(page.body.toString('utf8'), page.truncated, hash);
  if (!result.ok) throw new CheckFailed(result.reason);
}

async function fetchOk(url: URL, options: SafeFetchOptions): Promise<FetchedPage> {
  const page = await safeFetch(url, options);
  if (page.status !== 200) throw new CheckFailed(`HTTP ${page.status} for ${new URL(page.url).pathname}`);
  return page;
}
