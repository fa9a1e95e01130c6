import {
  PEAK_SERIES,
  POINT_VALUES,
  SERIES,
  type SeriesDef,
  STORED_COLUMNS,
  type StoredColumn,
} from '@tlprt/contract';

/** The packed blocks' format: pure, no SQL (the SQL that packs them: block-queries.ts). */

/**
 * A key's points of one span (BLOCK_SPAN_S: an hour of minutes, a day of 20-minute points, 3 days of
 * hourly ones) packed in one value (the *_blocks tables, migration 0011): a day of minutes is read as
 * 25 values per key instead of 1,440 rows, whose grouping was most of a query's time. Each stored point
 * is READ.whole.size bytes, oldest first: its index in the span (1 byte), then each stored column
 * (STORED_COLUMNS, in order) in its width, big-endian. Built as hex by the database itself (block-queries.ts
 * packPoints: a 4-byte value capped at NARROW_CAP, a cut's sums at SUM_CAP). The layout
 * follows the series table: BLOCK_LAYOUT names it, and layout.ts rewrites the blocks when it changes.
 *
 * Beside it each block keeps the chart's cut (`drawn`, migration 0017): the block's sums of the columns
 * the chart shows as the window's totals only (8 bytes each, SUMMED_COLUMNS), then its points with the
 * drawn columns only (DRAWN_COLUMNS, DRAWN_ENTRY bytes a point). A chart reads that cut of every block
 * wholly inside its window and the whole points of the (at most two) blocks at its edges: a day of 25
 * keys reads 2 MB instead of 4.5 MB and decodes a third of the values.
 */
const entryLayout = (columns: readonly StoredColumn[]) => {
  const offsets = new Int32Array(columns.length);
  let at = 1;
  for (let i = 0; i < columns.length; i++) {
    offsets[i] = at;
    at += (columns[i] as StoredColumn).width;
  }
  return { size: at, offsets, wide: Uint8Array.from(columns, (c) => (c.width === 8 ? 1 : 0)) };
};
const isDrawn = (c: StoredColumn) => (SERIES[c.series] as SeriesDef).drawn === true;
export const DRAWN_COLUMNS = STORED_COLUMNS.filter(isDrawn);
export const SUMMED_COLUMNS = STORED_COLUMNS.filter((c) => !isDrawn(c));
// A block's sum of a peak series over its span is not the window's peak over several keys.
for (const c of SUMMED_COLUMNS) {
  if (c.merge !== 'sum')
    throw new Error(`series column ${c.column}: a column the chart does not draw must be a sum`);
}
/** Each drawn and summed column's index among a point's values. */
const DRAWN_INDEX = Int32Array.from(DRAWN_COLUMNS, (c) => STORED_COLUMNS.indexOf(c));
const SUMMED_INDEX = Int32Array.from(SUMMED_COLUMNS, (c) => STORED_COLUMNS.indexOf(c));
const FULL = entryLayout(STORED_COLUMNS);
const DRAWN = entryLayout(DRAWN_COLUMNS);
/** The bytes of a chart cut's head: the block's sums of the columns not drawn. */
const SUMS_HEAD = SUMMED_COLUMNS.length * 8;
export const BLOCK_LAYOUT = [
  STORED_COLUMNS.map((c) => `${c.column}:${c.width}`).join(','),
  `drawn ${DRAWN_COLUMNS.map((c) => c.column).join(',')}`,
].join(';');

/** The most a 4-byte entry value holds (unsigned): the packing caps a narrow column's value here. */
export const NARROW_CAP = 4_294_967_295;

/** The index of the viewers (every session) among a point's values. */
export const VIEWERS = (PEAK_SERIES.find((p) => p.bit === 0) as (typeof PEAK_SERIES)[number]).index;
const ALL_INDEX = Int32Array.from(STORED_COLUMNS, (_, i) => i);
/** The two ways a block is read: its whole points, or the chart's cut (the block's sums of the columns
 *  not drawn, then the drawn ones a point). */
export const READ = {
  whole: { ...FULL, index: ALL_INDEX, head: 0, viewersColumn: VIEWERS },
  cut: { ...DRAWN, index: DRAWN_INDEX, head: SUMS_HEAD, viewersColumn: DRAWN_INDEX.indexOf(VIEWERS) },
} as const;
if (READ.cut.viewersColumn < 0) throw new Error('the viewers series must be drawn');
/** One of the two ways a block is read. */
export type BlockRead = (typeof READ)[keyof typeof READ];

/** A block's values decoded: for the chart's cut first its sums (SUMMED_COLUMNS), then for each slot of
 *  the span (a point's place in it: span / size of them) the read's columns, 0 where no row was. */
export function decodeBlock(points: Uint8Array, read: BlockRead, slots: number): Float64Array {
  // The hottest loop of a cold chart (a day of 25 keys: 36,000 entries): plain indexes, no look-ups.
  const v = new DataView(points.buffer, points.byteOffset, points.byteLength);
  const { size, offsets, wide, head } = read;
  const columns = offsets.length;
  const sums = head / 8;
  const out = new Float64Array(sums + slots * columns);
  for (let j = 0; j < sums; j++) out[j] = v.getUint32(j * 8) * 4_294_967_296 + v.getUint32(j * 8 + 4);
  for (let o = head; o + size <= points.byteLength; o += size) {
    const base = sums + v.getUint8(o) * columns;
    for (let c = 0; c < columns; c++) {
      const at = o + (offsets[c] as number);
      out[base + c] = wide[c] === 1 ? v.getUint32(at) * 4_294_967_296 + v.getUint32(at + 4) : v.getUint32(at);
    }
  }
  return out;
}

/** Adds (sign 1) or subtracts (sign -1) a decoded block's points within the `n` points of size `step`
 *  from `from` into `out`, and the sums of a chart's cut into `summed`; answers the viewers it added up
 *  (before the sign). */
export function addBlock(
  out: Float64Array,
  summed: Float64Array,
  from: number,
  step: number,
  n: number,
  start: number,
  values: Float64Array,
  sign: number,
  read: BlockRead,
): number {
  const { index, head, viewersColumn } = read;
  const sums = head / 8;
  for (let j = 0; j < sums; j++) {
    const c = SUMMED_INDEX[j] as number;
    summed[c] = (summed[c] as number) + sign * (values[j] as number);
  }
  const columns = index.length;
  const first = (start - from) / step;
  let viewers = 0;
  for (let base = sums, i = first; base < values.length; base += columns, i++) {
    if (i < 0 || i >= n) continue;
    const p = i * POINT_VALUES;
    viewers += values[base + viewersColumn] as number;
    for (let c = 0; c < columns; c++) {
      const value = values[base + c] as number;
      if (value !== 0) {
        const k = p + (index[c] as number);
        out[k] = (out[k] as number) + sign * value;
      }
    }
  }
  return viewers;
}
