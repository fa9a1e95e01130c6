import { type BlockRead, READ } from './block-format.js';
import { type Level, levelOf, TEAM_MINUTE_BLOCKS } from './levels.js';

/** What a read of a team's points takes (queries.ts readPoints runs it): pure, no SQL. */

/** Stored blocks a read adds (sign 1) or subtracts (-1): of some keys, or of a team's minute totals. */
export interface StoredBlocks {
  table: string;
  id: 'key_id' | 'team_id';
  ids: readonly number[];
  sign: 1 | -1;
}

/**
 * The team's 20-minute or hourly rows a read takes: none (minutes), `totals` (every key of the team
 * asked: its sums with its own peaks, nothing else), `peaks` (its viewers and own peaks a point, beside
 * the asked keys' blocks), `peaks-and-sums` (those and its sums, less the blocks of the keys left out).
 */
export type TeamRows = 'none' | 'totals' | 'peaks' | 'peaks-and-sums';

export interface ReadPlan {
  level: Level;
  step: number;
  from: number;
  to: number;
  /** The points of the window, and of a block (its span / step). */
  n: number;
  slots: number;
  /** The asked keys read as their own blocks (else as the team total less the keys left out). */
  direct: boolean;
  teamRows: TeamRows;
  /** The stored blocks read, each with its sign. */
  blocks: StoredBlocks[];
  /** The first block start a read of stored blocks selects (the block holding `from`). */
  firstStart: number;
  /** The chart's read: a block wholly inside the window is read as its cut (blockRead). */
  drawnOnly: boolean;
  /** The last start of a block wholly inside the window: starting in it, its last point not after it. */
  lastInside: number;
}

/**
 * Most of a team's keys (the "Active traffic" list, usually all of them) are read as the team total
 * less the blocks of the keys left out, fewer keys as their own blocks: both give the same numbers, a
 * team total being the plain sum of its per-key rows. 20-minute and hourly reads take the team's rows
 * (not blocks) in either case, for its own peaks.
 */
export function planRead(
  step: number,
  teamId: number,
  keyIds: readonly number[],
  leftOut: readonly number[],
  from: number,
  to: number,
  drawnOnly: boolean,
): ReadPlan {
  const level = levelOf(step);
  const direct = leftOut.length >= keyIds.length;
  const keys: StoredBlocks = {
    table: level.blocks,
    id: 'key_id',
    ids: direct ? keyIds : leftOut,
    sign: direct ? 1 : -1,
  };
  const team: StoredBlocks = { table: TEAM_MINUTE_BLOCKS, id: 'team_id', ids: [teamId], sign: 1 };
  let teamRows: TeamRows;
  let blocks: StoredBlocks[];
  if (step === 60) {
    teamRows = 'none';
    blocks = direct ? [keys] : leftOut.length > 0 ? [team, keys] : [team];
  } else if (leftOut.length === 0) {
    teamRows = 'totals';
    blocks = [];
  } else {
    teamRows = direct ? 'peaks' : 'peaks-and-sums';
    blocks = [keys];
  }
  return {
    level,
    step,
    from,
    to,
    n: (to - from) / step + 1,
    slots: level.span / level.size,
    direct,
    teamRows,
    blocks,
    firstStart: from - (from % level.span),
    drawnOnly,
    lastInside: to - (level.span - level.size),
  };
}

/** Whether the stored block starting at `start` is read as the chart's cut: a chart's read of a block
 *  wholly inside the window (the whole points of those at its edges). */
export const readsCut = (plan: ReadPlan, start: number) =>
  plan.drawnOnly && start >= plan.from && start <= plan.lastInside;

/** How the stored block starting at `start` is read. */
export const blockRead = (plan: ReadPlan, start: number): BlockRead =>
  readsCut(plan, start) ? READ.cut : READ.whole;

/** How the team's rows packed by the read itself are read: from the window's rows only, so a cut is
 *  the window's own. */
export const packedRead = (plan: ReadPlan): BlockRead => (plan.drawnOnly ? READ.cut : READ.whole);
