import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Which hops in front of the server are proxies the operator trusts (TRUST_PROXY): none, a number of
 * hops counted from the server, or the proxies' own addresses and ranges.
 */
export type TrustedProxies = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; list: string[] };

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
