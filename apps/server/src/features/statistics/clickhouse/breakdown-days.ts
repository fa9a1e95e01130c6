import { BREAKDOWN_MAX_ROWS, columnIndex, STORED_COLUMNS, type StoredColumn } from '@tlprt/contract';
import type { NamedBlock } from '../block-cache.js';
import type { BucketScope } from '../breakdown-queries.js';
import { sumCap } from '../sql-parts.js';
import type { BreakdownRows } from '../store.js';
import { type VersionedBlocks, versionedRows } from './block-versions.js';
import { bucketSource, PEAKED, readBreakdownCh } from './breakdowns.js';
import type { ClickHouse } from './client.js';
import { SUMMED } from './schema.js';

/**
 * A breakdown of whole days (a week, a month, a custom range) with the node's cache of its days
 * (block-versions.ts): each day's rows per name (its sums, its peaks) read from ClickHouse once per
 * version of the team's day, then merged here as readBreakdownCh merges them in SQL: sums added and
 * capped at sumCap, peaks the largest day's, the largest traffic first, then the name (bytewise).
 *
 * The merge is exact while every sum is below 2^53 (integers added as doubles); past it (9 PB a name
 * and window), the read is readBreakdownCh's, whose sums and ordering are exact in SQL.
 */

const S = SUMMED.length;
const WIDTH = S + PEAKED.length;
/** Where the three traffic sums a row is ordered by are among its sums, with their caps. */
const ORDERED = (['cdnBytes', 'p2pBytes', 'nodrBytes'] as const).map((series) => {
  const c = STORED_COLUMNS[columnIndex(series)] as StoredColumn;
  return [SUMMED.indexOf(c), sumCap(c)] as const;
});
const SUM_CAPS = SUMMED.map((c) => sumCap(c));

/** The day rows of `q` from the cache, the days it lacks read from ClickHouse (and kept). */
function dayRows(ch: ClickHouse, q: BucketScope, blocks: VersionedBlocks): Promise<NamedBlock[]> {
  const keys = q.allKeys ? 'all' : [...q.keyIds].sort((a, b) => a - b).join(',');
  return versionedRows(blocks, `chb:${q.teamId}:${q.dim}:${keys}`, { ...q, width: WIDTH }, (first, end) => {
    const source = bucketSource({ ...q, from: first, to: end - 1 });
    return ch.binary(`select name, toFloat64(bucket), ${source.s}, ${source.p} from ${source.from}`, [
      'string',
      'double',
      S,
      PEAKED.length,
    ]);
  });
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** readBreakdown of whole days on ClickHouse, with the cached days (see above). */
export async function readBreakdownDaysCh(
  ch: ClickHouse,
  q: BucketScope,
  blocks: VersionedBlocks,
): Promise<BreakdownRows> {
  const merged = new Map<string, Float64Array>();
  for (const { values, names } of await dayRows(ch, q, blocks)) {
    names.forEach((name, r) => {
      let m = merged.get(name);
      if (!m) {
        m = new Float64Array(WIDTH);
        merged.set(name, m);
      }
      const at = r * (WIDTH + 1) + 1;
      for (let i = 0; i < S; i++) m[i] = (m[i] as number) + (values[at + i] as number);
      for (let i = S; i < WIDTH; i++) m[i] = Math.max(m[i] as number, values[at + i] as number);
    });
  }
  const ordered: Array<{ name: string; order: number; m: Float64Array }> = [];
  for (const [name, m] of merged) {
    for (let i = 0; i < S; i++) if ((m[i] as number) > Number.MAX_SAFE_INTEGER) return readBreakdownCh(ch, q);
    let order = 0;
    for (const [i, cap] of ORDERED) order += Math.min(m[i] as number, cap);
    if (order > Number.MAX_SAFE_INTEGER) return readBreakdownCh(ch, q);
    ordered.push({ name, order, m });
  }
  ordered.sort((a, b) => b.order - a.order || Buffer.compare(utf8(a.name), utf8(b.name)));
  return ordered.slice(0, BREAKDOWN_MAX_ROWS).map(({ name, m }) => {
    const row: Record<string, number | string> = { name };
    SUMMED.forEach((c, i) => {
      row[c.column] = Math.min(m[i] as number, SUM_CAPS[i] as number);
    });
    PEAKED.forEach((c, i) => {
      row[c.column] = m[S + i] as number;
    });
    return row as BreakdownRows[number];
  });
}
