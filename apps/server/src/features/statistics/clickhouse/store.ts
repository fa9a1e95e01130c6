import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.js';
import { isStorageUnavailable } from '../../../db/writable.js';
import { type JournalMark, type MinuteAgg, StatsOutage } from '../aggregator.js';
import { BREAKDOWN_DAY, type BreakdownRow } from '../breakdown-queries.js';
import { readJournalMark, storeJournalMark } from '../journal-queries.js';
import { teamsOfKeys } from '../queries.js';
import type { StatsStore } from '../store.js';
import { RETENTION_S, statsDb } from '../tables.js';
import {
  adoptBlocks,
  blocksOf,
  breakdownBlocksOf,
  pruneVersions,
  readVersions,
  setVersions,
  type TeamBlock,
} from './block-versions.js';
import { readBreakdownDaysCh } from './breakdown-days.js';
import {
  addStagedSums,
  BREAKDOWN_RECEIPTS,
  BREAKDOWN_TABLES_KEPT,
  BreakdownsAnswerLost,
  breakdownReceipt,
  breakdownTables,
  readBreakdownCh,
  readBreakdownSeriesCh,
  type StagedSums,
  writeBreakdownsCh,
} from './breakdowns.js';
import { ClickHouse, isClickHouseUnavailable } from './client.js';
import {
  insertMinutes,
  minuteSumsCh,
  readPointsCh,
  receiptOf,
  refreshRollups,
  type StoredSums,
  SumsAnswerLost,
  segmentOf,
  type Touched,
} from './points.js';
import { ensureStatsTables } from './schema.js';
import { chInt, chInts, chName, chString } from './sql.js';

/** How long each table's rows are kept (docs/DESIGN.md §2), and how it is partitioned. */
const KEPT: ReadonlyArray<readonly [table: string, keepSeconds: number, by: 'day' | 'month']> = [
  ['stats_minute', RETENTION_S.minute, 'day'],
  ['stats_minute_viewers', RETENTION_S.minute, 'day'],
  ['stats_minute_presets', RETENTION_S.minute, 'day'],
  ['stats_minute_points', RETENTION_S.minute, 'day'],
  ['stats_team_minute', RETENTION_S.minute, 'day'],
  // A receipt serves the start after a crash; the journal keeps no segment this long.
  ['stats_receipts', RETENTION_S.minute, 'day'],
  ['stats_20m', RETENTION_S.twenty, 'month'],
  ['stats_team_20m', RETENTION_S.twenty, 'month'],
  ['stats_hour', RETENTION_S.hour, 'month'],
  ['stats_team_hour', RETENTION_S.hour, 'month'],
  ...BREAKDOWN_TABLES_KEPT,
];

/** A write's name (a sums insert's receipt and query id, a breakdown write's stage rows): its time,
 *  and random bits so that two nodes' writes of the same millisecond stay apart. */
export const newWriteId = () => `${Date.now()}-${randomBytes(8).toString('hex')}`;

/** The first second after a partition (`20261128`: a day, `202611`: a month). */
function partitionEnd(partition: string, by: 'day' | 'month'): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})?$/.exec(partition);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 1)];
  return (by === 'day' ? Date.UTC(y, mo - 1, d + 1) : Date.UTC(y, mo, 1)) / 1000;
}

/**
 * The statistics in ClickHouse (CLICKHOUSE_URL): the flush's key-minutes and breakdowns written to it,
 * every range, breakdown and export read from it. Accounts, teams, keys and the journal's marks stay in
 * the database: a key's team is looked up there once (a key never changes team).
 *
 * No transaction spans ClickHouse and the database. A write is ordered so that a failure before its one
 * non-idempotent insert loses nothing (the aggregator keeps the batch and retries), and everything
 * after it is retried here (the rollups) or is only a position: the journal's mark, which rides in that
 * same insert as its receipt (appliedMark), so a node killed after it replays none of it.
 */
class ClickHouseStore implements StatsStore {
  readonly kind = 'clickhouse' as const;
  private readonly teams = new Map<number, number>();
  /** Rollups whose refresh failed after their minutes were written: refreshed before the next write. */
  private pending: Touched[] = [];
  /** The sums insert whose answer was lost, if any: settled before the next write (settleLost). */
  private lost: { id: string; receipt: string; whole: StoredSums } | null = null;
  /** Sums stored by writes whose answer was lost, not yet written again by the aggregator's batch. */
  private stored: StoredSums | undefined;
  /** The same for the breakdowns: the hour insert whose answer was lost, and the sums found stored
   *  (taken off the rows the next write holds again). */
  private lostBreakdowns: { id: string; sums: StagedSums } | null = null;
  private storedBreakdowns: StagedSums | undefined;

  /** The tables' check (ensureStatsTables): done at start, or, when ClickHouse did not answer then,
   *  by the first call that reaches it (every call waits for it; one that fails leaves it undefined,
   *  tried again by the next call). */
  private tables: Promise<void> | undefined;

  constructor(
    private readonly ch: ClickHouse,
    private readonly db: Db,
    private readonly log?: Pick<FastifyBaseLogger, 'warn' | 'error'>,
    tablesMade = true,
  ) {
    if (tablesMade) this.tables = Promise.resolve();
  }

  /** Makes the tables once ClickHouse answers, when it did not at start (openClickHouseStore). */
  private async ready(): Promise<void> {
    this.tables ??= prepare(this.ch, this.db).then(
      () => this.log?.warn("the statistics' ClickHouse answers: its tables are checked"),
      (err: unknown) => {
        this.tables = undefined;
        throw err;
      },
    );
    await this.tables;
  }

  /** ready() before a write: tables ClickHouse cannot make now are an outage (the write is kept and
   *  retried), never a fault of the rows (which the aggregator would drop). */
  private async readyToWrite(): Promise<void> {
    try {
      await this.ready();
    } catch (err) {
      throw new StatsOutage(err);
    }
  }

  /** key id → team id for the keys (a key missing here went with its team). */
  private async teamOf(keyIds: Iterable<number>): Promise<Map<number, number>> {
    const missing = [...new Set(keyIds)].filter((k) => !this.teams.has(k));
    if (missing.length)
      for (const [k, t] of await teamsOfKeys(statsDb(this.db), missing)) this.teams.set(k, t);
    return this.teams;
  }

  private version(): number {
    return Date.now();
  }

  /** Refreshes the rollups of the touched minutes, their blocks' versions set anew before and after
   *  (block-versions.ts: a read between the two takes rows that the second one outdates). */
  private async refresh(t: Touched): Promise<void> {
    const blocks = blocksOf(t.teamIds, t.from, t.to);
    await this.setVersions(blocks);
    await refreshRollups(this.ch, t, this.version());
    await this.setVersions(blocks);
  }

  /** New versions for blocks (block-versions.ts); a database that cannot take them now is an outage. */
  private async setVersions(blocks: readonly TeamBlock[]): Promise<void> {
    try {
      await setVersions(statsDb(this.db), blocks);
    } catch (err) {
      throw isStorageUnavailable(err) ? new StatsOutage(err) : err;
    }
  }

  /** Refreshes the rollups still pending; a refresh ClickHouse refuses for its statement is logged and
   *  dropped (the next write of those keys refreshes them again), one that ClickHouse or the database
   *  cannot take now is kept. */
  private async refreshPending(): Promise<void> {
    while (this.pending.length) {
      const t = this.pending[0] as Touched;
      try {
        await this.refresh(t);
      } catch (err) {
        if (isClickHouseUnavailable(err) || isStorageUnavailable(err)) throw new StatsOutage(err);
        this.log?.error({ err }, 'statistics rollups dropped: ClickHouse refused their refresh');
      }
      this.pending.shift();
    }
  }

  /**
   * Settles the sums insert whose answer was lost: once ClickHouse is done with it, its receipt says
   * whether it was stored, and if it was, its sums are what the aggregator's next batch (which holds
   * them again) must not write twice. Throws StatsOutage while ClickHouse cannot tell yet.
   */
  private async settleLost(): Promise<void> {
    const lost = this.lost;
    if (!lost) return;
    const stored = await this.wasStored(lost.id, lost.receipt);
    this.lost = null;
    if (stored) this.stored = lost.whole;
  }

  /** Whether the insert `id` whose answer was lost was stored, once ClickHouse is done with it: its
   *  receipt is there. Throws StatsOutage while ClickHouse cannot tell yet. */
  private async wasStored(id: string, receipt: string): Promise<boolean> {
    const [running] = await this.ch.rows(
      `select count() as n from system.processes where query_id = ${chString(id)}`,
    );
    if (Number(running?.n) > 0)
      throw new StatsOutage(new Error('ClickHouse is still applying a write whose answer was lost'));
    const [found] = await this.ch.rows(
      `select count() as n from stats_receipts where receipt = ${chString(receipt)}`,
    );
    const stored = Number(found?.n) > 0;
    if (stored) this.log?.warn('statistics write whose answer was lost had been stored: counted once');
    return stored;
  }

  async writeBatch(batch: MinuteAgg[], mark?: JournalMark): Promise<void> {
    await this.readyToWrite();
    await this.settleLost();
    await this.refreshPending();
    if (batch.length) {
      const id = newWriteId();
      let touched: Touched | null;
      try {
        touched = await insertMinutes(this.ch, await this.teamOf(batch.map((a) => a.keyId)), batch, {
          id,
          mark,
          stored: this.stored,
        });
      } catch (err) {
        if (!(err instanceof SumsAnswerLost)) throw err;
        this.lost = { id, receipt: receiptOf(id, mark), whole: err.whole };
        throw new StatsOutage(err.reason);
      }
      if (touched) {
        try {
          await this.refresh(touched);
        } catch (err) {
          this.pending.push(touched);
          this.log?.warn({ err }, 'statistics rollups not refreshed yet: retried with the next flush');
        }
      }
    }
    if (!mark) return;
    try {
      await storeJournalMark(statsDb(this.db), mark);
    } catch (err) {
      // The rows are in ClickHouse with their receipt: failing here would have them written again.
      this.log?.warn(
        { err },
        'statistics journal mark not stored in the database (its receipt is in ClickHouse)',
      );
    }
  }

  /** How far a journal is stored: the database's mark or the last receipt in ClickHouse, the later. */
  async appliedMark(journal: string): Promise<number> {
    await this.readyToWrite();
    const stored = await readJournalMark(statsDb(this.db), journal);
    const rows = await this.ch.rows<{ receipt: string }>(
      `select receipt from stats_receipts where startsWith(receipt, ${chString(`${journal}:`)})`,
    );
    return Math.max(stored, ...rows.map((r) => segmentOf(r.receipt, journal)));
  }

  async writeBreakdowns(rows: readonly BreakdownRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.readyToWrite();
    const lost = this.lostBreakdowns;
    if (lost) {
      if (await this.wasStored(lost.id, breakdownReceipt(lost.id))) {
        this.storedBreakdowns ??= new Map();
        addStagedSums(this.storedBreakdowns, lost.sums);
      }
      this.lostBreakdowns = null;
    }
    const teamOf = await this.teamOf(rows.map((r) => r.keyId));
    const id = newWriteId();
    // The days' versions set anew before and after (block-versions.ts), after a failure too: it may
    // have written some of the days.
    const days = breakdownBlocksOf(rows, teamOf);
    await this.setVersions(days);
    try {
      await writeBreakdownsCh(this.ch, teamOf, rows, id, this.storedBreakdowns);
    } catch (err) {
      await this.setVersions(days).catch(() => undefined);
      if (!(err instanceof BreakdownsAnswerLost)) throw err;
      this.lostBreakdowns = { id, sums: err.sums };
      throw new StatsOutage(err.reason);
    }
    await this.setVersions(days);
    // The rows written held every sum found stored (the aggregator gives a failed write's rows back
    // whole, or not at all once their hour is pruned): nothing is left to take off.
    this.storedBreakdowns = undefined;
  }

  /** With the node's cache, the blocks' versions are read first: those read before at the same version
   *  are not read from ClickHouse again (block-versions.ts). */
  readPoints: StatsStore['readPoints'] = async (q, cache) => {
    await this.ready();
    if (!cache) return readPointsCh(this.ch, q);
    const versions = await readVersions(statsDb(this.db), q.teamId, q.step, q.from, q.to);
    return readPointsCh(this.ch, q, { versions, cache });
  };
  /** A breakdown of days with the node's cache: its days' versions first (block-versions.ts). */
  readBreakdown: StatsStore['readBreakdown'] = async (q, cache) => {
    await this.ready();
    if (!cache || q.size !== BREAKDOWN_DAY) return readBreakdownCh(this.ch, q);
    const versions = await readVersions(statsDb(this.db), q.teamId, BREAKDOWN_DAY, q.from, q.to);
    return readBreakdownDaysCh(this.ch, q, { versions, cache });
  };
  readBreakdownSeries: StatsStore['readBreakdownSeries'] = (q) =>
    this.ready().then(() => readBreakdownSeriesCh(this.ch, q));

  async minuteSums(keyIds: readonly number[], from: number, to: number) {
    await this.ready();
    const teams = await this.teamOf(keyIds);
    const teamIds = new Set(keyIds.flatMap((k) => (teams.has(k) ? [teams.get(k) as number] : [])));
    return minuteSumsCh(this.ch, [...teamIds], keyIds, from, to);
  }

  async keysWithHistory(keyIds: readonly number[]): Promise<Set<number>> {
    if (keyIds.length === 0) return new Set();
    await this.ready();
    const rows = await this.ch.rows<{ key_id: number }>(
      `select distinct key_id from stats_hour where key_id in (${chInts(keyIds)})`,
    );
    return new Set(rows.map((r) => Number(r.key_id)));
  }

  /** Drops the partitions wholly past their table's retention; answers the partitions dropped per table. */
  async prune(nowMs: number): Promise<Record<string, number>> {
    await this.ready();
    const now = Math.floor(nowMs / 1000);
    const parts = await this.ch.rows<{ table: string; partition: string }>(
      `select distinct table, partition from system.parts
       where database = ${chString(this.ch.database)} and active`,
    );
    const dropped: Record<string, number> = {};
    for (const [table, keep, by] of KEPT) {
      dropped[table] = 0;
      for (const p of parts) {
        if (p.table !== table) continue;
        const end = partitionEnd(String(p.partition).replace(/'/g, ''), by);
        if (end === null || end > now - keep) continue;
        await this.ch.command(`alter table ${chName(table)} drop partition ${chInt(Number(p.partition))}`);
        dropped[table]++;
      }
    }
    await pruneVersions(statsDb(this.db), now);
    return dropped;
  }

  isUnavailable = isClickHouseUnavailable;
  answers = () => this.ch.answers();
  close = () => this.ch.close();
}

/** The statistics' tables and views in ClickHouse (ensureStatsTables' own and the breakdowns'). */
const STATS_TABLES = [...breakdownTables(), BREAKDOWN_RECEIPTS];

/** Makes the tables that are missing and gives their blocks versions when they have none. */
async function prepare(ch: ClickHouse, db: Db): Promise<void> {
  await ensureStatsTables(ch, STATS_TABLES);
  await adoptBlocks(ch, statsDb(db));
}

/**
 * Opens the statistics' ClickHouse and makes its tables when missing. A ClickHouse that does not answer
 * does not stop the start (its outage is one as any other: the ingest goes on into the journal and
 * memory), and the tables are made once it does; one that refuses them fails the start, naming
 * CLICKHOUSE_URL.
 */
export async function openClickHouseStore(
  url: string,
  db: Db,
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>,
): Promise<StatsStore> {
  const ch = new ClickHouse(url);
  try {
    await prepare(ch, db);
  } catch (err) {
    if (isClickHouseUnavailable(err)) {
      log?.warn({ err }, "the statistics' ClickHouse does not answer: starting without it until it does");
      return new ClickHouseStore(ch, db, log, false);
    }
    await ch.close();
    throw new Error(`CLICKHOUSE_URL: the statistics' ClickHouse cannot be used: ${(err as Error).message}`);
  }
  return new ClickHouseStore(ch, db, log);
}
