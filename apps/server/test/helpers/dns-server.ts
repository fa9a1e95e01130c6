import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * A real authoritative-style DNS server over UDP on 127.0.0.1 for tests. It answers A, AAAA, TXT and
 * CNAME questions from a record table; unknown names get NXDOMAIN, known names without the asked type
 * an empty NOERROR answer (NODATA), as real servers do. Only the wire format verification needs is
 * implemented (no compression in answers, no TCP).
 */
export interface ZoneRecords {
  A?: string[];
  AAAA?: string[];
  /** Each record is its list of character strings (chunks of at most 255 bytes). */
  TXT?: string[][];
  CNAME?: string;
}

export interface TestDns {
  port: number;
  /** `127.0.0.1:<port>`, ready for the verifier's dnsServers. */
  server: string;
  /** Replaces the records of `name` (case-insensitive, no trailing dot). */
  set(name: string, records: ZoneRecords): void;
  remove(name: string): void;
  /** Every question received, as `<name> <type>`. */
  queries: string[];
  close(): Promise<void>;
}

const TYPE = { A: 1, CNAME: 5, TXT: 16, AAAA: 28 } as const;
const TYPE_NAMES = new Map<number, string>(Object.entries(TYPE).map(([k, v]) => [v, k]));
const RCODE_NXDOMAIN = 3;
const RCODE_FORMERR = 1;

/** `port` 0 picks a free one; the browser tests use a fixed port the dashboard server is started with. */
export async function startTestDns(initial: Record<string, ZoneRecords> = {}, port = 0): Promise<TestDns> {
  const zone = new Map<string, ZoneRecords>();
  const key = (name: string): string => name.toLowerCase().replace(/\.$/, '');
  for (const [name, records] of Object.entries(initial)) zone.set(key(name), records);
  const queries: string[] = [];

  const socket: Socket = createSocket('udp4');
  socket.on('message', (message: Buffer, peer: RemoteInfo) => {
    const reply = answer(message, zone, queries);
    if (reply) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
  const bound = socket.address().port;

  return {
    port: bound,
    server: `127.0.0.1:${bound}`,
    set: (name, records) => zone.set(key(name), records),
    remove: (name) => zone.delete(key(name)),
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

interface Question {
  name: string;
  type: number;
  /** The raw question section, echoed back verbatim (resolvers compare it with what they sent). */
  raw: Buffer;
}

function answer(message: Buffer, zone: Map<string, ZoneRecords>, log: string[]): Buffer | null {
  if (message.length < 12) return null;
  const id = message.readUInt16BE(0);
  const flags = message.readUInt16BE(2);
  const question = readQuestion(message);
  if (!question) return header(id, flags, RCODE_FORMERR, 0, 0);
  log.push(`${question.name} ${TYPE_NAMES.get(question.type) ?? question.type}`);
  const records = zone.get(question.name.toLowerCase());
  if (!records) return Buffer.concat([header(id, flags, RCODE_NXDOMAIN, 1, 0), question.raw]);
  const answers = answerRecords(question, records, zone);
  return Buffer.concat([header(id, flags, 0, 1, answers.length), question.raw, ...answers]);
}

/**
 * The resource records for one question. A CNAME answers every type (with the target's records of the
 * asked type when they are in the table), which is how resolvers see an alias.
 */
function answerRecords(question: Question, records: ZoneRecords, zone: Map<string, ZoneRecords>): Buffer[] {
  const { name, type } = question;
  if (records.CNAME !== undefined) {
    const alias = rr(name, TYPE.CNAME, encodeName(records.CNAME));
    if (type === TYPE.CNAME) return [alias];
    const target = zone.get(records.CNAME.toLowerCase().replace(/\.$/, ''));
    const chased = target ? answerRecords({ ...question, name: records.CNAME }, target, zone) : [];
    return [alias, ...chased];
  }
  if (type === TYPE.A)
    return (records.A ?? []).filter((ip) => isIPv4(ip)).map((ip) => rr(name, type, ipv4(ip)));
  if (type === TYPE.AAAA) {
    return (records.AAAA ?? []).filter((ip) => isIPv6(ip)).map((ip) => rr(name, type, ipv6(ip)));
  }
  if (type === TYPE.TXT) return (records.TXT ?? []).map((chunks) => rr(name, type, txt(chunks)));
  return [];
}

function readQuestion(message: Buffer): Question | null {
  if (message.readUInt16BE(4) < 1) return null;
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length) {
    const length = message.readUInt8(offset);
    offset += 1;
    if (length === 0) break;
    // Questions from a resolver never use compression pointers; treat one as malformed.
    if (length > 63 || offset + length > message.length) return null;
    labels.push(message.toString('latin1', offset, offset + length));
    offset += length;
  }
  if (offset + 4 > message.length) return null;
  const type = message.readUInt16BE(offset);
  return { name: labels.join('.'), type, raw: message.subarray(12, offset + 4) };
}

function header(id: number, queryFlags: number, rcode: number, qdcount: number, ancount: number): Buffer {
  const out = Buffer.alloc(12);
  out.writeUInt16BE(id, 0);
  // QR=1, AA=1, keep the opcode and RD of the query, RA=1.
  const flags = 0x8000 | (queryFlags & 0x7800) | 0x0400 | (queryFlags & 0x0100) | 0x0080 | rcode;
  out.writeUInt16BE(flags, 2);
  out.writeUInt16BE(qdcount, 4);
  out.writeUInt16BE(ancount, 6);
  return out;
}

function rr(name: string, type: number, data: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(1, 2); // class IN
  fixed.writeUInt32BE(60, 4); // TTL
  fixed.writeUInt16BE(data.length, 8);
  return Buffer.concat([encodeName(name), fixed, data]);
}

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  const parts = labels.map((label) => {
    const bytes = Buffer.from(label, 'latin1');
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  });
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function ipv4(ip: string): Buffer {
  return Buffer.from(ip.split('.').map(Number));
}

function ipv6(ip: string): Buffer {
  const [head = '', tail] = ip.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  const groups = [...headParts, ...Array<string>(zeros).fill('0'), ...tailParts];
  const out = Buffer.alloc(16);
  for (const [i, g] of groups.entries()) out.writeUInt16BE(Number.parseInt(g, 16), i * 2);
  return out;
}

function txt(chunks: string[]): Buffer {
  return Buffer.concat(
    chunks.map((chunk) => {
      const bytes = Buffer.from(chunk, 'utf8');
      if (bytes.length > 255) throw new Error('a TXT character string holds at most 255 bytes');
      return Buffer.concat([Buffer.from([bytes.length]), bytes]);
    }),
  );
}
