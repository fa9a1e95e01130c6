import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, MSG, MSG_TEAMS, PATHS, STORAGE_KEYS, type TTeamDetail } from '@tlprt/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamSettings } from '../../routes/settings/TeamSettings';
import { buildDetail, buildMember, buildTeam, buildUser } from '../../test/fixtures';
import { on, renderSignedIn, startApi } from '../../test/session';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});
beforeEach(() => localStorage.setItem(STORAGE_KEYS.settingsTab, '1'));

const ok = { status: 200, body: { message: 'ok' } };

async function open(over: Partial<TTeamDetail> = {}) {
  const team = buildTeam({ role: 10 });
  const detail = buildDetail(team, over);
  api = await startApi({
    user: buildUser({ TeamsRender: [team] }),
    detail,
    routes: {
      [on(ENDPOINTS.teams.leave, 5)]: ok,
      [on(ENDPOINTS.teams.update, 5)]: () => ({ status: 200, body: { message: 'ok', data: detail } }),
    },
  });
  renderSignedIn(<TeamSettings />);
  await screen.findByText('Team info');
  return api;
}

const leaveCalls = () => api?.requests.filter((r) => r.url === PATHS.teams.leave(5)) ?? [];

describe('Leave team (issue 39: the refusal before the password)', () => {
  it('a sole admin with other members is told at once, without a password field, and nothing is sent', async () => {
    await open();
    // The card says it already.
    expect(screen.getByText(MSG_TEAMS.unableLeaveText)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Leave team' }));
    const dialog = await screen.findByRole('dialog', { name: MSG_TEAMS.unableLeaveTitle });
    expect(within(dialog).getByText(MSG_TEAMS.unableLeaveText)).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    expect(leaveCalls()).toHaveLength(0);
  });

  it('the only member is told the same', async () => {
    await open({ users: [buildMember({ id: 1, roles: 10 })], members: 1, countAdmin: 1, countUser: 1 });
    await userEvent.click(screen.getByRole('button', { name: 'Leave team' }));
    expect(await screen.findByRole('dialog', { name: MSG_TEAMS.unableLeaveTitle })).toBeInTheDocument();
  });

  it('an admin beside another admin gets the password dialog and leaves', async () => {
    await open({
      users: [
        buildMember({ id: 1, roles: 10 }),
        buildMember({ id: 2, email: 'grace@example.com', roles: 10 }),
      ],
      countAdmin: 2,
    });
    expect(screen.queryByText(MSG_TEAMS.unableLeaveText)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Leave team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave team' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'secret1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(leaveCalls()).toHaveLength(1));
  });
});

describe("the team's Website (issue 39)", () => {
  it('refuses words under the field before sending; a host is saved', async () => {
    const server = await open();
    const input = screen.getByLabelText('Website');
    const puts = () => server.requests.filter((r) => r.method === 'PUT' && r.url === PATHS.teams.read(5));
    await userEvent.clear(input);
    await userEvent.type(input, 'not a url at all');
    await userEvent.tab();
    expect(await screen.findByText(MSG.invalidWebsite)).toBeInTheDocument();
    // (The name field may save on its own blur; the refused website is never sent.)
    const sentWebsites = () => puts().map((r) => (r.body as { website?: string }).website);
    expect(sentWebsites()).not.toContain('not a url at all');
    await userEvent.clear(input);
    await userEvent.type(input, 'https://video.example');
    expect(screen.queryByText(MSG.invalidWebsite)).not.toBeInTheDocument();
    await userEvent.tab();
    await waitFor(() => expect(sentWebsites()).toContain('https://video.example'));
    expect(sentWebsites()).not.toContain('not a url at all');
  });
});
