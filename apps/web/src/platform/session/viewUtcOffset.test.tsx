import { screen } from '@testing-library/react';
import { TIME_ZONES } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTeam, buildUser } from '../../test/fixtures';
import { renderSignedIn, startApi } from '../../test/session';
import { utcLabel } from '../dates';
import { useViewUtcOffset, viewUtcOffset } from './viewUtcOffset';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

const idOf = (name: string) => TIME_ZONES.find((z) => z.name === name)?.id ?? 0;

function Probe() {
  return <p data-testid="zone">{utcLabel(useViewUtcOffset())}</p>;
}

describe('the view’s UTC offset', () => {
  it("is the person's own zone when set, else the team's", () => {
    const january = new Date('2026-01-15T12:00:00Z');
    const july = new Date('2026-07-15T12:00:00Z');
    expect(viewUtcOffset(idOf('Asia/Kolkata'), 2, january)).toBe(5.5);
    expect(viewUtcOffset(idOf('Australia/Adelaide'), 2, january)).toBe(10.5);
    expect(viewUtcOffset(idOf('Australia/Adelaide'), 2, july)).toBe(9.5);
    expect(viewUtcOffset(null, 2, january)).toBe(2);
    expect(viewUtcOffset(undefined, -7, january)).toBe(-7);
    // An id the list no longer has falls back to the team's.
    expect(viewUtcOffset(9999, 3, january)).toBe(3);
  });

  it('follows the session: the person’s zone over the current team’s', async () => {
    const team = buildTeam({ utcOffset: 2 });
    api = await startApi({ user: buildUser({ TeamsRender: [team], timezoneId: idOf('Asia/Kolkata') }) });
    renderSignedIn(<Probe />);
    expect(await screen.findByTestId('zone')).toHaveTextContent('UTC+5:30');
  });

  it("is the team's when the person has none", async () => {
    api = await startApi({ user: buildUser({ TeamsRender: [buildTeam({ utcOffset: 2 })] }) });
    renderSignedIn(<Probe />);
    expect(await screen.findByTestId('zone')).toHaveTextContent('UTC+2');
  });
});
