import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';
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

const open = (url: string, database: string) =>
  createClient({
    url,
    database,
    request_timeout: 30_000,
    // The client logs each failed request at error level itself; the statistics log an outage once.
    log: { level: ClickHouseLogLevel.OFF },
  });

/** A connection to the statistics' ClickHouse database: statements with their values written in by
 *  sql.ts, rows in and out as JSON (JSONEachRow, which 18.16 has). */
export class ClickHouse {
  readonly database: string;
  private readonly client: ClickHouseClient;
  private readonly server: string;

  constructor(url: string) {
    const u = new URL(url);
    this.database = chName(decodeURIComponent(u.pathname.replace(/^\/+|\/+$/g, '')) || 'default');
    u.pathname = '/';
    this.server = u.toString().replace(/\/$/, '');
    this.client = open(this.server, this.database);
  }

  /** Creates the database when missing (a statement outside it: the client names its database in
   *  every request). */
  async ensureDatabase(): Promise<void> {
    const outside = open(this.server, 'default');
    try {
      await outside.command({ query: `create database if not exists ${this.database}` });
    } finally {
      await outside.close();
    }
  }

  /** A statement with no rows back (DDL, insert … select). */
  async command(query: string): Promise<void> {
    await this.client.command({ query });
  }

  /** Rows as JSON objects (64-bit integers come back as strings: Number() them). */
  async rows<T = Record<string, string | number>>(query: string): Promise<T[]> {
    const r = await this.client.query({ query, format: 'JSONEachRow' });
    return (await r.json()) as T[];
  }

  /** Inserts rows as JSONEachRow: one statement, one block. */
  async insert(table: string, values: readonly object[]): Promise<void> {
    if (values.length === 0) return;
    await this.client.insert({ table: chName(table), values: values as object[], format: 'JSONEachRow' });
  }

  /** Whether the server answers at all. */
  async answers(): Promise<boolean> {
    try {
      await this.client.query({ query: 'select 1', format: 'JSONEachRow' }).then((r) => r.json());
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
