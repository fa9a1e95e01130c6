import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { isStorageUnavailable } from '../../db/writable.js';
import { type JournalMark, type MinuteAgg, writeBatch } from './aggregator.js';
import type { BlockCache } from './block-cache.js';
import {
  type BreakdownRow,
  type BucketScope,
  readBreakdown,
  readBreakdownSeries,
  writeBreakdownsLocked,
} from './breakdown-queries.js';
import { openClickHouseStore } from './clickhouse/store.js';
import { readJournalMark } from './journal-queries.js';
import { databaseAnswers, keysWithHourlyPoints, minuteSums, type PointReads, readPoints } from './queries.js';
import { pruneStats } from './retention.js';
import { statsDb } from './tables.js';

/** A breakdown's rows (readBreakdown): a name and its stored columns. */
export type BreakdownRows = Array<{ name: string } & Record<string, number>>;
/** One name's buckets (readBreakdownSeries). */
export type BreakdownBuckets = Array<{ bucket: number } & Record<string, number>>;

/** Which points a read takes: see queries.ts readPoints. */
export interface PointsQuery {
  step: number;
  teamId: number;
  keyIds: readonly number[];
  leftOut: readonly number[];
  from: number;
  to: number;
  drawnOnly: boolean;
}

/**
 * Where the statistics are kept: the database (SQLite or PostgreSQL, the default) or ClickHouse
 * (CLICKHOUSE_URL, clickhouse/store.ts). Everything else (accounts, teams, keys, the journal's marks)
 * stays in the database either way. Both answer every read alike (statistics-parity.test.ts).
 */
export interface StatsStore {
  readonly kind: 'database' | 'clickhouse';
  /** Writes key-minutes with the journal's mark when given (the aggregator's BatchWriter). */
  writeBatch(batch: MinuteAgg[], mark?: JournalMark): Promise<void>;
  /** Adds a flush's breakdown rows (each key's hour). */
  writeBreakdowns(rows: readonly BreakdownRow[]): Promise<void>;
  readPoints(q: PointsQuery, cache?: BlockCache): Promise<PointReads>;
  /** `cache`: on ClickHouse, the days read before (the database reads its rows each time). */
  readBreakdown(q: BucketScope, cache?: BlockCache): Promise<BreakdownRows>;
  readBreakdownSeries(q: BucketScope & { name: string }): Promise<BreakdownBuckets>;
  /** Unix s of a minute → the stored columns summed over the keys (the alerts' reads). */
  minuteSums(
    keyIds: readonly number[],
    fromMinute: number,
    toMinute: number,
  ): Promise<Map<number, Float64Array>>;
  /** Those of the keys that have hourly points (history kept). */
  keysWithHistory(keyIds: readonly number[]): Promise<Set<number>>;
  /** How far a node's journal is stored (the last segment whose reports are in the statistics). */
  appliedMark(journal: string): Promise<number>;
  /** Drops what docs/DESIGN.md §2's retention no longer keeps, as of `nowMs`. */
  prune(nowMs: number): Promise<Record<string, number>>;
  /** Whether the store fails because it cannot be used now (an outage), not for the data. */
  isUnavailable(err: unknown): boolean;
  /** Whether the store answers at all (a failed write is only split when it does). */
  answers(): Promise<boolean>;
  close(): Promise<void>;
}

/** The statistics in the database itself. */
export function databaseStore(db: Db): StatsStore {
  const s = statsDb(db);
  return {
    kind: 'database',
    writeBatch: (batch, mark) => writeBatch(s, batch, mark),
    writeBreakdowns: (rows) => writeBreakdownsLocked(s, rows),
    readPoints: (q, cache) =>
      readPoints(s, q.step, q.teamId, q.keyIds, q.leftOut, q.from, q.to, q.drawnOnly, cache),
    readBreakdown: (q) => readBreakdown(s, q),
    readBreakdownSeries: (q) => readBreakdownSeries(s, q),
    minuteSums: (keyIds, from, to) => minuteSums(db, keyIds, from, to),
    keysWithHistory: (keyIds) => keysWithHourlyPoints(s, keyIds),
    appliedMark: (journal) => readJournalMark(s, journal),
    prune: (nowMs) => pruneStats(db, nowMs),
    isUnavailable: isStorageUnavailable,
    answers: () => databaseAnswers(db),
    close: async () => {},
  };
}

/** The statistics' store of a node: ClickHouse when CLICKHOUSE_URL is set (its tables made when
 *  missing), else the database. */
export function openStatsStore(
  config: Pick<Config, 'clickhouseUrl'>,
  db: Db,
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>,
): Promise<StatsStore> {
  return config.clickhouseUrl
    ? openClickHouseStore(config.clickhouseUrl, db, log)
    : Promise.resolve(databaseStore(db));
}
