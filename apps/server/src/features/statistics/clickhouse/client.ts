import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { endianness } from 'node:os';
import { chName } from './sql.js';

/** The errors of a ClickHouse that is not there (refused, reset, timed out, name not found): an outage,
 *  never a reason to drop what a flush holds. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/**
 * ClickHouse's own codes for a server that cannot take the write now (the disk full, the table
 * read-only, too many parts, memory, a timeout): an outage too. Other codes (a bad statement, a type)
 * are the batch's fault.
 */
const UNAVAILABLE_CODES = new Set([159, 164, 209, 210, 241, 242, 243, 252, 425]);

/** Whether a ClickHouse call failed because ClickHouse cannot be used now. */
export function isClickHouseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
  if (/timeout|socket hang up|ECONNRESET|ECONNREFUSED/i.test(err.message)) return true;
  const server = /Code: (\d+)/.exec(err.message);
  return server !== null && UNAVAILABLE_CODES.has(Number(server[1]));
}

// RowBinary's numbers are little-endian, and binary() reads them through the host's typed arrays.
if (endianness() !== 'LE') throw new Error('the ClickHouse client needs a little-endian host');

/** Errors of a request that never reached ClickHouse. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

/**
 * Whether a write failed after ClickHouse may have received it, so that it may have been applied: the
 * answer lost (a reset, a timeout, the socket closed), not refused by ClickHouse (an error status) nor
 * never sent (no connection).
 */
export function answerLost(err: unknown): boolean {
  if (!(err instanceof Error) || (err as { status?: number }).status !== undefined) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return !(code && NEVER_SENT.has(code));
}

/** How long a statement may take before it counts as an outage. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Below the server's keep_alive_timeout (3 s on 18.16), so that a kept socket is rarely one the
 *  server is closing; a read that meets one anyway is sent again (request()). */
const IDLE_SOCKET_MS = 2_000;

/** A column of a binary read: a String, a Float64, or an Array(UInt64) of that many values. */
export type Cell = 'string' | 'double' | number;

/** Names and rows, as ClickHouse's JSONCompact format answers a select. */
interface Compact {
  meta: Array<{ name: string }>;
  data: unknown[][];
}

/**
 * A connection to the statistics' ClickHouse database over its HTTP interface: a statement is the body
 * of a POST, its rows come back as JSON (64-bit integers as strings: Number() them), inserts go as
 * JSONEachRow. Statements carry their values written in by sql.ts (18.16 has no query parameters).
 *
 * Our own rather than the official @clickhouse/client: on this interface the client added 2–3 ms to
 * every statement and doubled the time to read a month's 721 rows (measured on 18.16 here: `select 1`
 * 0.8 ms with node:http on a kept-alive socket, 3.4 ms through the client), which is most of a chart's
 * answer time. What is needed of the interface is a POST and its status.
 */
export class ClickHouse {
  readonly database: string;
  private readonly endpoint: URL;
  private readonly headers: Record<string, string>;
  private readonly agent: HttpAgent;
  private readonly transport: typeof httpRequest;

  constructor(url: string) {
    const u = new URL(url);
    this.database = chName(decodeURIComponent(u.pathname.replace(/^\/+|\/+$/g, '')) || 'default');
    this.headers = {};
    if (u.username)
      this.headers.authorization = `Basic ${Buffer.from(
        `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`,
      ).toString('base64')}`;
    this.endpoint = new URL(`${u.protocol}//${u.host}/`);
    const https = u.protocol === 'https:';
    const agentOptions = { keepAlive: true, maxSockets: 10, timeout: IDLE_SOCKET_MS };
    this.agent = https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    this.transport = https ? httpsRequest : httpRequest;
  }

  /** Creates the database when missing (a statement outside it). */
  async ensureDatabase(): Promise<void> {
    await this.request(`create database if not exists ${this.database}`, { database: 'default' });
  }

  /** A statement with no rows back (DDL, insert … select); `queryId` names it (system.processes). */
  async command(query: string, queryId?: string): Promise<void> {
    await this.request(query, { queryId });
  }

  /** Rows as objects of their column names (64-bit integers come back as strings: Number() them). */
  async rows<T = Record<string, string | number>>(query: string): Promise<T[]> {
    const { meta, data } = JSON.parse(
      (await this.request(`${query}\nformat JSONCompact`, { read: true })).toString('utf8'),
    ) as Compact;
    const names = meta.map((m) => m.name);
    return data.map((values) => {
      const row: Record<string, unknown> = {};
      names.forEach((name, i) => {
        row[name] = values[i];
      });
      return row as T;
    });
  }

  /**
   * The rows of a select whose columns are `row`'s: a String, a Float64 (`toFloat64(…)`) or an
   * Array(UInt64) of that many values. The numbers come back row-major as doubles (an array's values in
   * place), the strings in order. Read as RowBinary: neither side writes or parses text, a third of a
   * month's read on 18.16 (the values are whole numbers, exact as doubles up to 2^53; above, rounded as
   * Number() of their text would round them).
   */
  async binary(query: string, row: readonly Cell[]): Promise<{ values: Float64Array; names: string[] }> {
    const raw = await this.request(`${query}\nformat RowBinary`, { read: true });
    const values = new Float64Array(Math.floor(raw.length / 8));
    const names: string[] = [];
    // An array's 64-bit values as 32-bit halves: its bytes copied to an aligned buffer, little-endian
    // as RowBinary and every host Node runs on.
    const widest = Math.max(0, ...row.map((c) => (typeof c === 'number' ? c : 0)));
    const halves = new Uint32Array(2 * widest);
    const halfBytes = new Uint8Array(halves.buffer);
    let at = 0;
    let k = 0;
    const length = () => {
      let n = 0;
      for (let shift = 0; ; shift += 7) {
        const byte = raw[at++] as number;
        n += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) return n;
      }
    };
    while (at < raw.length) {
      for (const cell of row) {
        if (cell === 'double') {
          values[k++] = raw.readDoubleLE(at);
          at += 8;
        } else if (cell === 'string') {
          const n = length();
          names.push(raw.toString('utf8', at, at + n));
          at += n;
        } else {
          const n = length();
          if (n !== cell) throw new Error(`ClickHouse answered an array of ${n} values, not ${cell}`);
          raw.copy(halfBytes, 0, at, at + n * 8);
          for (let i = 0; i < n; i++)
            values[k++] = (halves[2 * i + 1] as number) * 4_294_967_296 + (halves[2 * i] as number);
          at += n * 8;
        }
      }
    }
    return { values: values.subarray(0, k), names };
  }

  /** Inserts rows as JSONEachRow: one statement, one block; `queryId` names it (system.processes). */
  async insert(table: string, values: readonly object[], queryId?: string): Promise<void> {
    if (values.length === 0) return;
    const lines = values.map((v) => JSON.stringify(v)).join('\n');
    await this.request(`insert into ${chName(table)} format JSONEachRow\n${lines}`, { queryId });
  }

  /** Whether the server answers at all. */
  async answers(): Promise<boolean> {
    try {
      return (await this.request('select 1', { read: true })).toString('utf8').trim() === '1';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }

  /**
   * POSTs a statement and answers the response's bytes; throws ClickHouse's message (with its "Code: N"
   * and the `status`) on an error status, Node's error (with its code) when the server cannot be
   * reached or the answer is lost. A read on a kept-alive socket that the server closed meanwhile is
   * sent once more on a new one; a write never is (it may have been applied: answerLost).
   */
  private async request(
    body: string,
    o: { database?: string; queryId?: string | undefined; read?: boolean } = {},
  ): Promise<Buffer> {
    try {
      return await this.post(body, o.database ?? this.database, o.queryId);
    } catch (err) {
      if (!o.read || !(err as { reusedSocket?: boolean }).reusedSocket) throw err;
      return this.post(body, o.database ?? this.database, o.queryId);
    }
  }

  private post(body: string, database: string, queryId: string | undefined): Promise<Buffer> {
    const url = new URL(this.endpoint);
    url.searchParams.set('database', database);
    if (queryId) url.searchParams.set('query_id', queryId);
    // The whole answer before its status: an error met while rows stream would otherwise follow a 200.
    url.searchParams.set('wait_end_of_query', '1');
    return new Promise((resolve, reject) => {
      const req = this.transport(
        url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...this.headers, 'content-length': Buffer.byteLength(body) },
          timeout: REQUEST_TIMEOUT_MS,
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            if (res.statusCode === 200) resolve(raw);
            else {
              const message = `ClickHouse answered ${res.statusCode}: ${raw.toString('utf8').trim()}`;
              reject(Object.assign(new Error(message), { status: res.statusCode }));
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`ClickHouse timeout after ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', (err) => {
        // Reset on a socket kept from an earlier request, before any answer: a read is sent again.
        if (req.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET')
          Object.assign(err, { reusedSocket: true });
        reject(err);
      });
      req.end(body);
    });
  }
}
