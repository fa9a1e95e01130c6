import { isIP } from 'node:net';

/** What an IP address is, as far as the SSRF guard cares. Only 'public' may be fetched in production. */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'reserved'
  | 'invalid';

type Range = readonly [base: string, prefix: number, kind: Exclude<AddressClass, 'public' | 'invalid'>];

/** IPv4 blocks that must never be reached from the server (RFC 6890 special-purpose registry). */
const IPV4_BLOCKED: readonly Range[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** IPv6 blocks that are never a public web server. */
const IPV6_BLOCKED: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'reserved'],
  ['100::', 64, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved'],
  ['ff00::', 8, 'multicast'],
];

/**
 * IPv6 blocks that carry an IPv4 address in their low 32 bits (or, for 6to4, bits 16..47): the
 * embedded address decides, so ::ffff:10.0.0.1 is as private as 10.0.0.1.
 */
const IPV6_EMBEDDING: readonly (readonly [base: string, prefix: number, v4Shift: bigint])[] = [
  ['::ffff:0:0', 96, 0n],
  ['64:ff9b::', 96, 0n],
  ['2002::', 16, 80n],
  // The deprecated IPv4-compatible form (::a.b.c.d); :: and ::1 are matched before this.
  ['::', 96, 0n],
];

export function classifyAddress(ip: string): AddressClass {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const version = isIP(bare.split('%')[0] ?? '');
  if (version === 4) return classifyV4(ipv4ToInt(bare));
  if (version === 6) return classifyV6(ipv6ToBigInt(bare));
  return 'invalid';
}

export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}

function classifyV4(value: number): AddressClass {
  for (const [base, prefix, kind] of IPV4_BLOCKED) {
    if (inV4Range(value, ipv4ToInt(base), prefix)) return kind;
  }
  return 'public';
}

function classifyV6(value: bigint): AddressClass {
  for (const [base, prefix, kind] of IPV6_BLOCKED) {
    if (inV6Range(value, ipv6ToBigInt(base), prefix)) return kind;
  }
  for (const [base, prefix, shift] of IPV6_EMBEDDING) {
    if (inV6Range(value, ipv6ToBigInt(base), prefix))
      return classifyV4(Number((value >> shift) & 0xffffffffn));
  }
  return 'public';
}

function inV4Range(value: number, base: number, prefix: number): boolean {
  // `>>> 0` keeps the comparison unsigned; a shift by 32 is a no-op in JS, hence the explicit /0 case.
  if (prefix === 0) return true;
  const mask = (0xffffffff << (32 - prefix)) >>> 0;
  return (value & mask) >>> 0 === (base & mask) >>> 0;
}

function inV6Range(value: bigint, base: bigint, prefix: number): boolean {
  const shift = BigInt(128 - prefix);
  return value >> shift === base >> shift;
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

/** Expands any valid IPv6 text (with ::, an embedded dotted IPv4 tail, or a zone id) to 128 bits. */
function ipv6ToBigInt(ip: string): bigint {
  let text = ip.split('%')[0] ?? '';
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4ToInt(dotted.slice(1).join('.'));
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  const groups = [...headParts, ...Array<string>(zeros).fill('0'), ...tailParts];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}
