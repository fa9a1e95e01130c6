import { BLOCK_SPAN_S } from './tables.js';

/** The three levels of points: the per-key table, the team totals of it (the sum of the team's per-key
 *  rows), the per-key blocks of it (refreshBlocks), their time column, the seconds of one point and of
 *  one block. */
export const LEVELS = [
  {
    key: 'stats_minute',
    team: 'stats_team_minute',
    blocks: 'stats_minute_blocks',
    time: 'minute',
    size: 60,
    span: BLOCK_SPAN_S.minute,
  },
  {
    key: 'stats_20m',
    team: 'stats_team_20m',
    blocks: 'stats_20m_blocks',
    time: 'bucket',
    size: 1200,
    span: BLOCK_SPAN_S.twenty,
  },
  {
    key: 'stats_hour',
    team: 'stats_team_hour',
    blocks: 'stats_hour_blocks',
    time: 'bucket',
    size: 3600,
    span: BLOCK_SPAN_S.hour,
  },
] as const;
export type Level = (typeof LEVELS)[number];
export const levelOf = (size: number): Level => LEVELS.find((l) => l.size === size) ?? LEVELS[0];
/** The point sizes derived from the minutes. */
export const ROLLUP_SIZES = [1200, 3600] as const;
/** The sizes of the points the ranges read. */
export const POINT_SIZES = [60, ...ROLLUP_SIZES] as const;

/** The blocks of the team minute totals: a day of all of a team's keys read as 25 values. */
export const TEAM_MINUTE_BLOCKS = 'stats_team_minute_blocks';
