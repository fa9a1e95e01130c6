import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG_TEAMS, PATHS, STORAGE_KEYS } from '@tlprt/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useMyInvitations } from '../../features/teams/invitations/queries';
import { setNavigator } from '../../platform/api/navigation';
import { dispatchLive } from '../../platform/live/bus';
import { buildInvitation, buildTeam, buildUser } from '../../test/fixtures';
import { renderSignedIn, startApi } from '../../test/session';
import { LiveReactions } from './reactions';

/** Something on screen observes the user's invitations (the settings screen does). */
function WatchInvitations() {
  useMyInvitations();
  return null;
}

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
const navigate = vi.fn();
const reload = vi.fn();

beforeEach(async () => {
  navigate.mockClear();
  reload.mockClear();
  setNavigator(navigate);
  vi.stubGlobal('location', { ...window.location, reload });
  api = await startApi({
    user: buildUser({ TeamsRender: [buildTeam({ id: 5 }), buildTeam({ id: 6, name: 'Second' })] }),
  });
  renderSignedIn(
    <>
      <LiveReactions />
      <WatchInvitations />
      <div>signed in</div>
    </>,
    '/statistics',
    5,
  );
  await screen.findByText('signed in');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  setNavigator(null);
  await api?.close();
  api = null;
});

const fire = (event: Record<string, unknown>) => act(() => dispatchLive({ code: 0, ...event } as never));
const checks = () => api?.requests.filter((r) => r.url === PATHS.auth.check).length ?? 0;
const ok = () => userEvent.click(screen.getByRole('button', { name: 'OK' }));

describe('live-event reactions (spec §4)', () => {
  it.each([10, 41, 60, 62, 90, 91, 92])('%i refreshes the team data', async (code) => {
    const before = checks();
    fire({ code, team_id: 5 });
    await waitFor(() => expect(checks()).toBeGreaterThan(before));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('12 goes to settings', async () => {
    fire({ code: 12 });
    expect(navigate).toHaveBeenCalledWith('/settings');
  });

  it('31: "this team has been deleted"; OK clears the current team and goes to settings', async () => {
    fire({ code: 31, team_id: 5 });
    expect(await screen.findByText(MSG_TEAMS.evTeamDeletedTitle)).toBeInTheDocument();
    expect(screen.getByText(MSG_TEAMS.evTeamDeletedText)).toBeInTheDocument();
    await ok();
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/settings');
  });

  it('40: "signed off the team"; OK as for 31', async () => {
    fire({ code: 40, team_id: 5, deleted_user: 1 });
    expect(await screen.findByText(MSG_TEAMS.evRemovedTitle)).toBeInTheDocument();
    expect(screen.getByText(MSG_TEAMS.evRemovedText)).toBeInTheDocument();
    await ok();
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/settings');
  });

  const searches = () => api?.requests.filter((r) => r.url === PATHS.invitations.mine).length ?? 0;

  it('80: says who invited the user to which team (not the signed-off popup); OK opens Profile settings', async () => {
    await waitFor(() => expect(searches()).toBe(1));
    if (!api) throw new Error('no api');
    api.state.invitations = [
      buildInvitation({
        id: 9,
        role: 30,
        team: { id: 77, name: 'Partner Labs' },
        inviting_user: { id: 3, email: 'ann@partner.example', name: 'Ann' },
      }),
    ];
    fire({ code: 80, invited_user: 1, team_id: 77, invite_id: 9 });
    expect(await screen.findByText(MSG_TEAMS.evInvitedTitle)).toBeInTheDocument();
    expect(
      screen.getByText(MSG_TEAMS.evInvitedText('ann@partner.example', 'Partner Labs', 'Key master')),
    ).toBeInTheDocument();
    expect(screen.queryByText(MSG_TEAMS.evRemovedTitle)).not.toBeInTheDocument();
    expect(searches()).toBe(2);
    await ok();
    expect(navigate).toHaveBeenCalledWith('/settings');
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBe('5');
  });

  it('80 for an invitation that is no longer pending: the list is refreshed, no popup', async () => {
    await waitFor(() => expect(searches()).toBe(1));
    fire({ code: 80, invited_user: 1, team_id: 77, invite_id: 404 });
    await waitFor(() => expect(searches()).toBe(2));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('81: the invitations are searched again, no popup', async () => {
    await waitFor(() => expect(searches()).toBe(1));
    fire({ code: 81, invited_user: 1, invited_info: {} });
    await waitFor(() => expect(searches()).toBe(2));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('32 / 3032: "Team blocked"', async () => {
    fire({ code: 32, team_id: 5, new_status: 3032 });
    expect(await screen.findByText(MSG_TEAMS.evTeamBlocked)).toBeInTheDocument();
  });

  it('32 / 4032: "this team has been suspended"', async () => {
    fire({ code: 32, team_id: 5, new_status: 4032 });
    expect(await screen.findByText(MSG_TEAMS.evTeamSuspendedTitle)).toBeInTheDocument();
    expect(screen.getByText(MSG_TEAMS.evTeamSuspendedText)).toBeInTheDocument();
  });

  it('32 / 1032: reload', async () => {
    fire({ code: 32, team_id: 5, new_status: 1032 });
    expect(reload).toHaveBeenCalled();
  });

  it('70 for me: "Your role in this team has been changed"; OK sets the settings head flag', async () => {
    const before = checks();
    fire({ code: 70, team_id: 5, changed_role_user: 1, new_role: 30 });
    expect(await screen.findByText(MSG_TEAMS.evRoleChangedTitle)).toBeInTheDocument();
    expect(screen.getByText(MSG_TEAMS.evRoleChangedText)).toBeInTheDocument();
    await waitFor(() => expect(checks()).toBeGreaterThan(before)); // the role updates live
    await ok();
    expect(localStorage.getItem(STORAGE_KEYS.settingsHeadFlag)).toBe('1');
    expect(localStorage.getItem(STORAGE_KEYS.settingsTab)).toBe('1');
  });

  it('70 for another member: refresh only', async () => {
    const before = checks();
    fire({ code: 70, team_id: 5, changed_role_user: 2, new_role: 30 });
    await waitFor(() => expect(checks()).toBeGreaterThan(before));
    expect(screen.queryByText(MSG_TEAMS.evRoleChangedTitle)).not.toBeInTheDocument();
  });

  it('61: "A domain has been deleted", then reload', async () => {
    fire({ code: 61, deleted_domain: 3 });
    expect(await screen.findByText(MSG_TEAMS.evDomainDeleted)).toBeInTheDocument();
    await ok();
    expect(reload).toHaveBeenCalled();
  });
});
