import { readFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * An operator's own networks (NETWORKS_FILE, docs/DESIGN.md §14): address ranges named by an autonomous system
 * number, checked before the shipped ASN table and for private addresses too (a campus, an ISP's own
 * deployment, the tests' namespaces). One range per line, `start,end,asn,"name"`, as the shipped
 * table (@ip-location-db/asn) writes it: start and end as numbers, an IPv4 address as its 32-bit value
 * and an IPv6 address as its 128-bit value or its upper 64 bits (networks are allocated far above /64,
 * and the tracker's address unit is the /64). Addresses in their usual notation are taken too. Blank
 * lines and lines starting with `#` are skipped.
 */
export interface OwnNetworks {
  /** Where the ranges came from, for messages. */
  readonly file: string;
  readonly v4: Ranges<number>;
  readonly v6: Ranges<bigint>;
}

interface Ranges<T extends number | bigint> {
  /** Sorted by start, never overlapping. */
  readonly start: T[];
  readonly end: T[];
  readonly asn: number[];
  readonly name: string[];
}

/** The network of an address: `AS<number>`, the matching unit, and the name the operator or table gave. */
export interface NamedNetwork {
  asn: number;
  name: string;
}

const MAX_V4 = 0xffff_ffffn;
const MAX_64 = (1n << 64n) - 1n;
const MAX_128 = (1n << 128n) - 1n;

type Bound = { v6: false; value: number } | { v6: true; value: bigint };

/** One start or end field; a message when it is none of the accepted forms. */
function boundOf(field: string): Bound | string {
  const f = field.trim();
  if (isIPv4(f)) return { v6: false, value: ipv4Value(f) };
  if (isIPv6(f)) return { v6: true, value: ipv6High(f) };
  if (!/^\d{1,39}$/.test(f)) return `"${f}" is not an address nor a number`;
  const n = BigInt(f);
  if (n <= MAX_V4) return { v6: false, value: Number(n) };
  if (n <= MAX_64) return { v6: true, value: n };
  if (n <= MAX_128) return { v6: true, value: n >> 64n };
  return `${f} is above the largest IPv6 address`;
}

export function ipv4Value(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** The upper 64 bits of an IPv6 address (an IPv4-mapped one is not asked for: see networkOf). */
export function ipv6High(ip: string): bigint {
  const [head = '', tail] = ip.toLowerCase().replace(/%.*$/, '').split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.slice(0, 4).reduce((n, g) => (n << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n);
}

/** The fields of one CSV line: commas split, a double-quoted field may hold commas and `""`. */
function fieldsOf(line: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q === -1) return undefined;
        value += line.slice(j, q);
        if (line[q + 1] === '"') {
          value += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      if (j < line.length && line[j] !== ',') return undefined;
      out.push(value);
      i = j + 1;
    } else {
      const c = line.indexOf(',', i);
      out.push(line.slice(i, c === -1 ? line.length : c));
      if (c === -1) break;
      i = c + 1;
    }
  }
  return out;
}

export class NetworksFileError extends Error {}

/**
 * The ranges of a NETWORKS_FILE text. A line that is not a range, a range whose end is below its start
 * or of two address families, and ranges that overlap are refused with the file and line named: a
 * table that silently dropped a line would match viewers to the wrong network.
 */
export function parseNetworks(text: string, file: string): OwnNetworks {
  type Row<T> = { start: T; end: T; asn: number; name: string; line: number };
  const v4: Row<number>[] = [];
  const v6: Row<bigint>[] = [];
  const lines = text.split('\n');
  const fail = (line: number, why: string) =>
    new NetworksFileError(`NETWORKS_FILE ${file}, line ${line}: ${why}`);
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const n = i + 1;
    const fields = fieldsOf(line);
    if (fields === undefined || fields.length < 3 || fields.length > 4)
      throw fail(n, 'expected start,end,asn,"name"');
    const [startField = '', endField = '', asnField = '', name = ''] = fields;
    const start = boundOf(startField);
    if (typeof start === 'string') throw fail(n, `start: ${start}`);
    const end = boundOf(endField);
    if (typeof end === 'string') throw fail(n, `end: ${end}`);
    if (start.v6 !== end.v6) throw fail(n, 'start and end are of different address families');
    if (start.value > end.value) throw fail(n, 'end is below start');
    const asn = asnField.trim();
    if (!/^\d{1,10}$/.test(asn) || Number(asn) < 1 || Number(asn) > 0xffff_ffff)
      throw fail(n, `asn: "${asn}" is not an AS number (1 to 4294967295)`);
    const row = { asn: Number(asn), name: name.trim(), line: n };
    if (start.v6 && end.v6) v6.push({ ...row, start: start.value, end: end.value });
    else v4.push({ ...row, start: start.value as number, end: end.value as number });
  });
  const sorted = <T extends number | bigint>(rows: Row<T>[]): Ranges<T> => {
    rows.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    for (let k = 1; k < rows.length; k++) {
      const prev = rows[k - 1] as Row<T>;
      const cur = rows[k] as Row<T>;
      if (cur.start <= prev.end) throw fail(cur.line, `overlaps the range of line ${prev.line}`);
    }
    return {
      start: rows.map((r) => r.start),
      end: rows.map((r) => r.end),
      asn: rows.map((r) => r.asn),
      name: rows.map((r) => r.name),
    };
  };
  return { file, v4: sorted(v4), v6: sorted(v6) };
}

/** NETWORKS_FILE read and parsed at start; an unreadable file is refused like a bad line. */
export function loadNetworksFile(file: string): OwnNetworks {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new NetworksFileError(`NETWORKS_FILE ${file}: ${(err as Error).message}`);
  }
  return parseNetworks(text, file);
}

function find<T extends number | bigint>(r: Ranges<T>, x: T): number {
  let lo = 0;
  let hi = r.start.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((r.start[mid] as T) <= x) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && x <= (r.end[hi] as T) ? hi : -1;
}

/** The operator's network holding `address`, if any. IPv4-mapped IPv6 addresses count as IPv4. */
export function ownNetworkOf(own: OwnNetworks, address: string): NamedNetwork | undefined {
  let a = address.toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) a = mapped[1] as string;
  let i = -1;
  let r: Ranges<number> | Ranges<bigint> | undefined;
  if (isIPv4(a)) {
    r = own.v4;
    i = find(own.v4, ipv4Value(a));
  } else if (isIPv6(a)) {
    r = own.v6;
    i = find(own.v6, ipv6High(a));
  }
  if (r === undefined || i < 0) return undefined;
  return { asn: r.asn[i] as number, name: r.name[i] as string };
}
