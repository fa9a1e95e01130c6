import { describe, expect, it } from 'vitest';
import { READ } from '../src/features/statistics/block-format.js';
import { TEAM_MINUTE_BLOCKS } from '../src/features/statistics/levels.js';
import { blockRead, packedRead, planRead, type TeamRows } from '../src/features/statistics/read-plan.js';

// What a read of a team's points takes (read-plan.ts): which blocks, with which sign, which of the
// team's rows, and which blocks a chart reads as their cut.

const TEAM = 7;
/** A time aligned to every block span (an hour, a day, 3 days). */
const H = 1_700_006_400 - (1_700_006_400 % 259_200);

describe('planRead', () => {
  const cases: Array<{
    name: string;
    step: number;
    keys: number[];
    leftOut: number[];
    teamRows: TeamRows;
    blocks: Array<[table: string, ids: number[], sign: number]>;
    direct: boolean;
  }> = [
    {
      name: 'minutes of a few keys: their own blocks',
      step: 60,
      keys: [1],
      leftOut: [2, 3],
      teamRows: 'none',
      blocks: [['stats_minute_blocks', [1], 1]],
      direct: true,
    },
    {
      name: 'minutes of most keys: the team total less the keys left out',
      step: 60,
      keys: [1, 2],
      leftOut: [3],
      teamRows: 'none',
      blocks: [
        [TEAM_MINUTE_BLOCKS, [TEAM], 1],
        ['stats_minute_blocks', [3], -1],
      ],
      direct: false,
    },
    {
      name: 'minutes of every key: the team total alone',
      step: 60,
      keys: [1, 2, 3],
      leftOut: [],
      teamRows: 'none',
      blocks: [[TEAM_MINUTE_BLOCKS, [TEAM], 1]],
      direct: false,
    },
    {
      name: 'minutes, as many asked as left out: their own blocks',
      step: 60,
      keys: [1, 2],
      leftOut: [3, 4],
      teamRows: 'none',
      blocks: [['stats_minute_blocks', [1, 2], 1]],
      direct: true,
    },
    {
      name: '20 minutes of every key: the team totals with its own peaks, no block',
      step: 1200,
      keys: [1, 2],
      leftOut: [],
      teamRows: 'totals',
      blocks: [],
      direct: false,
    },
    {
      name: '20 minutes of a few keys: their blocks and the team peaks',
      step: 1200,
      keys: [1],
      leftOut: [2, 3],
      teamRows: 'peaks',
      blocks: [['stats_20m_blocks', [1], 1]],
      direct: true,
    },
    {
      name: 'hours of most keys: the team rows with sums, less the keys left out',
      step: 3600,
      keys: [1, 2],
      leftOut: [3],
      teamRows: 'peaks-and-sums',
      blocks: [['stats_hour_blocks', [3], -1]],
      direct: false,
    },
  ];
  it.each(cases)('$name', (c) => {
    const plan = planRead(c.step, TEAM, c.keys, c.leftOut, H, H + 10 * c.step, false);
    expect(plan.teamRows).toBe(c.teamRows);
    expect(plan.direct).toBe(c.direct);
    expect(plan.blocks.map((b) => [b.table, [...b.ids], b.sign])).toEqual(c.blocks);
    expect(plan.blocks.every((b) => b.id === (b.table === TEAM_MINUTE_BLOCKS ? 'team_id' : 'key_id'))).toBe(
      true,
    );
  });

  it.each([
    { step: 60, span: 3600, slots: 60 },
    { step: 1200, span: 86_400, slots: 72 },
    { step: 3600, span: 259_200, slots: 72 },
  ])('sizes a window of step $step: its points, a block of $slots, the first block holding `from`', (l) => {
    const from = H + l.span + 3 * l.step;
    const plan = planRead(l.step, TEAM, [1], [], from, from + 9 * l.step, false);
    expect(plan.n).toBe(10);
    expect(plan.slots).toBe(l.slots);
    expect(plan.firstStart).toBe(H + l.span);
  });
});

describe("the chart's cut", () => {
  // Minutes from hh:30 of the first hour to hh:29 of the fourth: the 2nd and 3rd hours lie inside.
  const from = H + 1800;
  const to = H + 3 * 3600 + 1740;
  const rows: Array<{ start: number; drawnOnly: boolean; read: typeof READ.cut | typeof READ.whole }> = [
    { start: H, drawnOnly: true, read: READ.whole },
    { start: H + 3600, drawnOnly: true, read: READ.cut },
    { start: H + 2 * 3600, drawnOnly: true, read: READ.cut },
    { start: H + 3 * 3600, drawnOnly: true, read: READ.whole },
    { start: H + 3600, drawnOnly: false, read: READ.whole },
  ];
  it.each(rows)('reads the block at $start (drawnOnly $drawnOnly)', (r) => {
    const plan = planRead(60, TEAM, [1], [2], from, to, r.drawnOnly);
    expect(blockRead(plan, r.start)).toBe(r.read);
  });

  it("reads a window's last whole block as a cut when it ends with the window", () => {
    const plan = planRead(60, TEAM, [1], [2], H, H + 3600 - 60, true);
    expect(plan.lastInside).toBe(H);
    expect(blockRead(plan, H)).toBe(READ.cut);
  });

  it('reads the rows the read packs itself as a cut in a chart only', () => {
    expect(packedRead(planRead(1200, TEAM, [1], [], H, H + 1200, true))).toBe(READ.cut);
    expect(packedRead(planRead(1200, TEAM, [1], [], H, H + 1200, false))).toBe(READ.whole);
  });
});
