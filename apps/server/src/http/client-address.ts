import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Which hops in front of the server are proxies the operator trusts (TRUST_PROXY): none, a number of
 * hops counted from the server, or the proxies' own addresses and ranges.
 */
export type TrustedProxies =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'addresses'; list: string[] };

export type TrustFn = (address: string, hopIndex: number) => boolean;

/**
 * The trust function given to Fastify and used for every raw request (the tracker's upgrades), so all
 * per-address limits see the same client. proxy-addr walks X-Forwarded-For from the right and stops at
 * the first hop not trusted: entries a client writes on the left are never taken.
 */
export function trustFunction(trust: TrustedProxies): TrustFn | false {
  if (trust.kind === 'none') return false;
  // Fastify answers a bare number by trusting nothing (it cannot check the hops); as a function the
  // operator's statement "this many proxies stand in front" is taken as it is.
  if (trust.kind === 'hops') return (_address, hopIndex) => hopIndex < trust.hops;
  return proxyAddr.compile(trust.list);
}

/** The client address of a raw request under `trust` (the same answer as Fastify's `request.ip`). */
export function clientAddress(req: IncomingMessage, trust: TrustFn | false): string {
  if (trust === false) return req.socket.remoteAddress ?? '';
  return proxyAddr(req, trust);
}

/** Checks a TRUST_PROXY address list; throws with proxy-addr's message on a bad entry. */
export function assertProxyList(list: string[]): void {
  proxyAddr.compile(list);
}

/** The 8 groups of an IPv6 address as numbers (an IPv4 tail counted as two), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const parts = (s: string | undefined) => (s ? s.split(':') : []);
  const head = parts(halves[0]);
  const tail = parts(halves[1]);
  const last = halves.length === 2 ? tail : head;
  const v4 = last.at(-1);
  if (v4?.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    last.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const zeros = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<string>(zeros).fill('0'), ...tail].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * What the per-address limits count: an IPv4 address (IPv4-mapped IPv6 included) as itself, an IPv6
 * address by its /64, since one subscriber usually gets a whole /64 and could otherwise open sockets
 * from 2^64 addresses.
 */
export function addressGroup(address: string): string {
  const a = address.toLowerCase().replace(/%.*$/, '');
  if (isIPv4(a) || !isIPv6(a)) return a;
  const g = ipv6Groups(a);
  if (g === undefined) return a;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = g;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  }
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}
