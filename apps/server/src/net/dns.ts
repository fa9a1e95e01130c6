import { lookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { CheckFailed, errorCode } from './failure.js';

/** The three look-ups domain verification and guarded fetches need. Each throws CheckFailed with a short
 *  reason. */
export interface DnsClient {
  /** Every TXT record of `name`, each as its list of character strings (not yet joined). */
  txt(name: string): Promise<string[][]>;
  cname(name: string): Promise<string[]>;
  /** A and AAAA addresses of `name`, for the SSRF guard and the pinned connection. */
  addresses(name: string): Promise<string[]>;
}

interface DnsClientOptions {
  /** `ip` or `ip:port` / `[ip6]:port` entries (DNS_SERVERS); unset means the system resolver. */
  servers?: string[] | undefined;
  timeoutMs: number;
}

/** Checks DNS_SERVERS entries up front: c-ares takes only addresses, and a bad entry is a config error. */
function assertDnsServers(servers: readonly string[]): void {
  for (const entry of servers) {
    const host = /^\[(.+)\](?::\d{1,5})?$/.exec(entry)?.[1] ?? entry.replace(/:\d{1,5}$/, '');
    if (isIP(host) === 0)
      throw new Error(`DNS server "${entry}" must be an IP address with an optional :port`);
  }
}

export function createDnsClient(options: DnsClientOptions): DnsClient {
  const servers = options.servers && options.servers.length > 0 ? [...options.servers] : undefined;
  if (servers) assertDnsServers(servers);
  const { timeoutMs } = options;

  /**
   * A fresh resolver per look-up: cancelling one on timeout must not cancel the other look-ups that
   * share the process.
   */
  async function withResolver<T>(what: string, run: (r: Resolver) => Promise<T>): Promise<T> {
    // Two tries inside the budget; c-ares gives up by itself, the timer below is the hard stop.
    const resolver = new Resolver({ timeout: Math.max(50, Math.floor(timeoutMs / 2)), tries: 2 });
    if (servers) resolver.setServers(servers);
    return withDeadline(run(resolver), timeoutMs, () => resolver.cancel(), what);
  }

  return {
    txt: (name) => withResolver(`TXT ${name}`, (r) => r.resolveTxt(name)),
    cname: (name) => withResolver(`CNAME ${name}`, (r) => r.resolveCname(name)),
    addresses: (name) =>
      servers
        ? withResolver(`address ${name}`, (r) => resolveBothFamilies(r, name))
        : withDeadline(systemLookup(name), timeoutMs, () => undefined, `address ${name}`),
  };
}

async function resolveBothFamilies(resolver: Resolver, name: string): Promise<string[]> {
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
  const found = [
    ...(v4.status === 'fulfilled' ? v4.value : []),
    ...(v6.status === 'fulfilled' ? v6.value : []),
  ];
  if (found.length > 0) return found;
  // Report the IPv4 failure: it is the one people read (NXDOMAIN, timeout) when neither family answers.
  throw v4.status === 'rejected' ? v4.reason : new CheckFailed(`no address for ${name}`);
}

/** The system resolver path: dns.lookup also honours /etc/hosts, as any client of the site would. */
async function systemLookup(name: string): Promise<string[]> {
  const found = await lookup(name, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

async function withDeadline<T>(work: Promise<T>, ms: number, cancel: () => void, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cancel();
      reject(new CheckFailed(`DNS ${what}: timed out`));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (error) {
    throw error instanceof CheckFailed ? error : new CheckFailed(`DNS ${what}: ${dnsErrorText(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Short texts for the c-ares codes a user's domain can actually produce. */
function dnsErrorText(error: unknown): string {
  switch (errorCode(error)) {
    case 'ENOTFOUND':
      return 'no such name';
    case 'ENODATA':
      return 'no record of this type';
    case 'ETIMEOUT':
    case 'ECANCELLED':
      return 'timed out';
    case 'ESERVFAIL':
      return 'server failure';
    case 'EREFUSED':
    case 'ECONNREFUSED':
      return 'refused by the DNS server';
    case undefined:
      return 'look-up failed';
    default:
      return `look-up failed (${errorCode(error)})`;
  }
}
