import { isIP } from 'node:net';
import { MSG_ALERTS } from '@tlprt/contract';
import type { AppContext } from '../../../context.js';
import { classifyAddress } from '../../../net/address.js';
import { createDnsClient, type DnsClient } from '../../../net/dns.js';
import { normalizeHost } from '../../../net/host.js';

/** Whether an address may receive deliveries: public ones always, the others only where
 *  VERIFY_ALLOW_PRIVATE allows them (tests, a closed network). */
export function addressAllowed(address: string, allowPrivate: boolean): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (allowPrivate && kind !== 'invalid');
}

/** The resolver of webhook hosts: the one domain verification uses (DNS_SERVERS or the system's). */
export function webhookDns(ctx: AppContext): DnsClient {
  return createDnsClient({ servers: ctx.config.dnsServers, timeoutMs: ctx.config.webhookTimeoutMs });
}

/**
 * null when `url` may receive deliveries (its host resolves to public addresses, or private ones where
 * VERIFY_ALLOW_PRIVATE allows them), else the field's message. Asked at save; each delivery checks
 * again on the address it connects to (the answer may differ by then: DNS rebinding), so this is the
 * early, readable refusal, not the guard itself.
 */
export async function checkWebhookTarget(
  ctx: AppContext,
  url: string,
  dns: DnsClient = webhookDns(ctx),
): Promise<string | null> {
  if (!URL.canParse(url)) return MSG_ALERTS.webhookUrl;
  const hostname = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  const allowPrivate = ctx.config.verifyAllowPrivate;
  if (isIP(hostname) !== 0) return addressAllowed(hostname, allowPrivate) ? null : MSG_ALERTS.webhookPrivate;
  // RFC 6761: these names are this machine whatever DNS says (the fetch would refuse a single label).
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return MSG_ALERTS.webhookPrivate;
  const host = normalizeHost(hostname);
  if (host === null) return MSG_ALERTS.webhookUnresolved;
  let addresses: string[];
  try {
    addresses = await dns.addresses(host);
  } catch {
    return MSG_ALERTS.webhookUnresolved;
  }
  if (addresses.length === 0) return MSG_ALERTS.webhookUnresolved;
  // Every address counts: one private answer among public ones would be the one a rebinding serves.
  return addresses.every((a) => addressAllowed(a, allowPrivate)) ? null : MSG_ALERTS.webhookPrivate;
}
