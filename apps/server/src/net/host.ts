import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/** One DNS label after punycode: no leading or trailing hyphen, at most 63 characters (RFC 1035). */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Characters that show the input is a URL, a host with a port, or an address literal, not a bare host. */
const NOT_A_BARE_HOST = /[\s/\\:@?#[\]%]/;
const MAX_HOST_LENGTH = 253;

/**
 * The ASCII (punycode), lower-case form of a bare hostname, or null when the input is not one.
 * IP literals and single labels are refused: only a domain name can carry DNS records to verify.
 * A trailing root dot is dropped so "example.com." and "example.com" are the same domain.
 */
export function normalizeHost(input: string): string | null {
  if (typeof input !== 'string') return null;
  const trimmed = input.trim().replace(/\.$/, '');
  // The cap before punycode keeps a megabyte of input away from domainToASCII.
  if (trimmed === '' || trimmed.length > MAX_HOST_LENGTH * 4 || NOT_A_BARE_HOST.test(trimmed)) return null;
  const ascii = domainToASCII(trimmed);
  if (ascii === '' || ascii.length > MAX_HOST_LENGTH || isIP(ascii) !== 0) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  // An all-digit last label would make URL parsers read the host as an IPv4 address.
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return null;
  return ascii;
}

/** a.b.example.com → [a.b.example.com, b.example.com, example.com, com]: the domains it may belong to. */
export function hostAndParents(host: string): string[] {
  const parts = host.split('.');
  return parts.map((_, i) => parts.slice(i).join('.')).filter(Boolean);
}
