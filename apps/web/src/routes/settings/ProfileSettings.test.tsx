import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, MSG, MSG_TEAMS, PATHS, Role, roleName, STORAGE_KEYS } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { invitationKeys } from '../../features/teams/invitations/queries';
import { queryClient } from '../../platform/api/queryClient';
import { buildInvitation, buildTeam, buildUser } from '../../test/fixtures';
import { on, type Routes, renderSignedIn, startApi } from '../../test/session';
import { ProfileSettings } from './ProfileSettings';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

async function open(opts: { user?: ReturnType<typeof buildUser>; routes?: Routes } = {}) {
  api = await startApi({ user: opts.user, routes: opts.routes });
  renderSignedIn(<ProfileSettings />);
  await screen.findByText('Profile details');
  return api;
}
const click = (name: string) => userEvent.click(screen.getByRole('button', { name }));
const pw = () => within(screen.getByRole('region', { name: 'Change password' }));
const em = () => within(screen.getByRole('region', { name: 'Change e-mail' }));

describe('change password', () => {
  it('"All fields are required", then each field required, min 6 and the retype mismatch', async () => {
    await open();
    await click('Change password');
    expect(await screen.findByText(MSG.allRequired)).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('New password'), 'abcdef');
    await userEvent.type(screen.getByLabelText('Retype new password'), 'abcdef');
    await click('Change password');
    expect(await screen.findByText(MSG.required)).toBeInTheDocument(); // current

    await userEvent.type(pw().getByLabelText('Current password'), 'old-secret');
    await userEvent.clear(screen.getByLabelText('New password'));
    await click('Change password');
    expect(await screen.findByText(MSG.required)).toBeInTheDocument(); // new

    await userEvent.type(screen.getByLabelText('New password'), 'abc');
    await click('Change password');
    expect(await screen.findAllByText(MSG.passwordMin)).not.toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.type(screen.getByLabelText('New password'), 'abcdefg');
    await userEvent.clear(screen.getByLabelText('Retype new password'));
    await click('Change password');
    expect(await screen.findByText(MSG.required)).toBeInTheDocument(); // retype

    await userEvent.type(screen.getByLabelText('Retype new password'), 'abcdefx');
    await click('Change password');
    expect(await screen.findByText(MSG.passwordsDoNotMatch)).toBeInTheDocument();
  });

  it('shows the server "Incorrect password" under the current field and clears it on edit', async () => {
    const server = await open({
      routes: {
        [on(ENDPOINTS.account.changePassword, 1)]: {
          status: 400,
          body: { message: MSG.incorrectPassword, errors: { password: MSG.incorrectPassword } },
        },
      },
    });
    await userEvent.type(pw().getByLabelText('Current password'), 'wrong-one');
    await userEvent.type(screen.getByLabelText('New password'), 'brand-new');
    await userEvent.type(screen.getByLabelText('Retype new password'), 'brand-new');
    await click('Change password');
    const current = pw().getByLabelText('Current password');
    await waitFor(() => expect(server.requests.some((r) => r.url.includes('change_password'))).toBe(true));
    // under the current-password field (its wrapper holds the error line)
    const error = await pw().findByText(MSG.incorrectPassword);
    expect(current.closest('.mantine-PasswordInput-root')).toContainElement(error);
    expect(server.requests.at(-1)?.body).toMatchObject({
      user_id: 1,
      password: 'wrong-one',
      new_password: 'brand-new',
      confirm: 'brand-new',
    });
    await userEvent.type(current, 'x');
    expect(screen.queryByText(MSG.incorrectPassword)).not.toBeInTheDocument();
  });
});

describe('change e-mail', () => {
  it('new e-mail required and valid, current password required; server messages shown', async () => {
    await open({
      routes: {
        [on(ENDPOINTS.account.changeEmail, 1)]: {
          status: 409,
          body: { message: MSG_TEAMS.emailInUse },
        },
      },
    });
    await click('Change e-mail');
    expect(await screen.findAllByText(MSG.required)).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('New e-mail'), 'bad');
    await userEvent.type(em().getByLabelText('Current password'), 'secret1');
    await click('Change e-mail');
    expect(await screen.findByText(MSG.invalidEmail)).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('New e-mail'));
    await userEvent.type(screen.getByLabelText('New e-mail'), 'taken@example.com');
    await click('Change e-mail');
    expect(await screen.findByText(MSG_TEAMS.emailInUse)).toBeInTheDocument();
  });

  it('a pending change shows the new address with Resend and Revoke', async () => {
    await open({ user: buildUser({ statusChangeEmail: 10, newChangeEmail: 'next@example.com' }) });
    expect(screen.getByText('next@example.com')).toBeInTheDocument();
    expect(screen.queryByLabelText('New e-mail')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revoke' })).toBeInTheDocument();
  });

  it('Resend sends the link again and says so; Revoke cancels the change', async () => {
    const server = await open({
      user: buildUser({ statusChangeEmail: 10, newChangeEmail: 'next@example.com' }),
      routes: {
        [on(ENDPOINTS.account.changeEmailResend)]: { status: 200, body: { message: 'ok' } },
        [on(ENDPOINTS.account.changeEmailRevoke)]: { status: 200, body: { message: 'ok' } },
      },
    });
    await click('Resend');
    expect(await screen.findByText(MSG_TEAMS.linkSent)).toBeInTheDocument();
    expect(server.requests.find((r) => r.url.endsWith('/change_email/resend'))?.body).toMatchObject({
      url: `${window.location.origin}/email_event_handler/email/`,
    });
    await click('Revoke');
    await waitFor(() =>
      expect(server.requests.some((r) => r.url.endsWith('/change_email/revoke'))).toBe(true),
    );
  });
});

describe('create team', () => {
  it('team name required and max 30; success creates and selects the team', async () => {
    const server = await open({
      routes: {
        [on(ENDPOINTS.teams.create)]: {
          status: 201,
          body: { message: 'created', data: buildTeam({ id: 9, name: 'New one' }) },
        },
      },
    });
    await click('Create team');
    const dialog = await screen.findByRole('dialog', { name: 'Create new team' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create team' }));
    expect(await within(dialog).findByText(MSG.required)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Team name'), 'x'.repeat(31));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create team' }));
    expect(await within(dialog).findByText(MSG.tooLong(30))).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Team name'));
    await userEvent.type(within(dialog).getByLabelText('Team name'), 'New one');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create team' }));
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBe('9'));
    expect(server.requests.find((r) => r.url === PATHS.teams.create)?.body).toEqual({ name: 'New one' });
  });

  it('is hidden for user status 30 and 40', async () => {
    await open({ user: buildUser({ userStatusId: 40 }) });
    expect(screen.queryByRole('button', { name: 'Create team' })).not.toBeInTheDocument();
  });
});

/** The deletion check's answer when `teams` keep the account (their sole Admin, or another role). */
const blockedBy = (teams: Array<{ id: number; name: string; role: number }>): Routes => ({
  [on(ENDPOINTS.account.deletionInfo, 1)]: {
    status: 200,
    body: {
      message: 'ok',
      data: { status: 401, statusMessage: 'cannot delete', teams: [], arrayCannotDelete: teams },
    },
  },
});

describe('delete account', () => {
  it('cannot delete: the modal lists the blocking teams with the sole-admin message', async () => {
    await open({ routes: blockedBy([{ id: 5, name: 'Busy Team', role: Role.Admin }]) });
    await click('Delete account');
    const dialog = await screen.findByRole('dialog', { name: MSG_TEAMS.unableDeleteAccountTitle });
    expect(await within(dialog).findByText(MSG_TEAMS.soleAdminText)).toBeInTheDocument();
    expect(within(dialog).getByText('Busy Team')).toBeInTheDocument();
    expect(within(dialog).getByText('Admin')).toBeInTheDocument();
  });

  it('names each blocking team’s role as the roles table does, not every non-admin "Viewer"', async () => {
    await open({
      routes: blockedBy([
        { id: 5, name: 'Busy Team', role: Role.Admin },
        { id: 6, name: 'Keys Team', role: Role.KeyMaster },
      ]),
    });
    await click('Delete account');
    const list = await screen.findByRole('list', { name: 'Teams blocking the deletion' });
    expect(within(list).getByText(roleName(Role.KeyMaster))).toBeInTheDocument();
    expect(within(list).queryByText(roleName(Role.Viewer))).not.toBeInTheDocument();
  });

  it('can delete: password "Required field", server message clearing on edit, then "We have sent…"', async () => {
    const server = await open({
      routes: {
        [on(ENDPOINTS.account.deletionInfo, 1)]: {
          status: 200,
          body: {
            message: 'ok',
            data: { status: 200, statusMessage: 'ok', teams: [], arrayCannotDelete: [] },
          },
        },
        [on(ENDPOINTS.account.remove, 1)]: (r) =>
          (r.body as { password: string }).password === 'secret1'
            ? { status: 200, body: { message: 'ok' } }
            : {
                status: 400,
                body: { message: MSG.incorrectPassword, errors: { password: MSG.incorrectPassword } },
              },
      },
    });
    await click('Delete account');
    const dialog = await screen.findByRole('dialog', { name: 'Delete account' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(MSG.required)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'nope');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(MSG.incorrectPassword)).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Password'));
    expect(within(dialog).queryByText(MSG.incorrectPassword)).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'secret1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MSG_TEAMS.linkSent)).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'DELETE')?.body).toMatchObject({
      url: `${window.location.origin}/email_event_handler/delete-user/`,
    });
  });

  it('deleteProgress shows "Deleting in progress!" with Resend and Revoke; hidden for supervisors', async () => {
    await open({ user: buildUser({ deleteProgress: 1 }) });
    expect(screen.getByText(MSG_TEAMS.deletingInProgress)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revoke' })).toBeInTheDocument();
  });

  it('supervisors see no account deletion', async () => {
    await open({ user: buildUser({ supervisor: true }) });
    expect(screen.queryByRole('button', { name: 'Delete account' })).not.toBeInTheDocument();
  });
});

describe('invitations block', () => {
  const invites = [
    buildInvitation({ id: 1, role: 30, team: { id: 51, name: 'Team A' } }),
    buildInvitation({ id: 2, role: 10, team: { id: 52, name: 'Team B' } }),
    buildInvitation({ id: 3, role: 40, team: { id: 53, name: 'Team C' } }),
    buildInvitation({ id: 4, role: 40, team: { id: 54, name: 'Team D' } }),
    buildInvitation({ id: 5, role: 40, status: 30, team: { id: 55, name: 'Declined one' } }),
  ];
  const list = {
    [on(ENDPOINTS.invitations.mine)]: { status: 200, body: { message: 'ok', data: invites } },
  };

  it('shows pending ones only, 3 then Show all / Hide, roles in colour', async () => {
    await open({ routes: list });
    expect(await screen.findAllByTestId('invitation-card')).toHaveLength(3);
    expect(screen.queryByText('Declined one')).not.toBeInTheDocument();
    const colours = screen.getAllByTestId('invitation-role').map((b) => [b.textContent, b.dataset.color]);
    expect(colours).toEqual([
      ['Key master', 'blue'],
      ['Admin', 'yellow'],
      ['Viewer', 'gray'],
    ]);
    await click('Show all');
    expect(screen.getAllByTestId('invitation-card')).toHaveLength(4);
    await click('Hide');
    expect(screen.getAllByTestId('invitation-card')).toHaveLength(3);
  });

  it('Accept → Congratulations with Later / Get me there!; Decline → Decline accepted!; failure text', async () => {
    await open({
      routes: {
        ...list,
        [on(ENDPOINTS.invitations.accept, 51, 1)]: {
          status: 200,
          body: { message: 'ok', data: { team_id: 51 } },
        },
        [on(ENDPOINTS.invitations.cancel, 52, 2)]: { status: 200, body: { message: 'ok' } },
        [on(ENDPOINTS.invitations.accept, 53, 3)]: { status: 404, body: { message: 'Not found' } },
      },
    });
    const card = async (team: string) => screen.findByRole('generic', { name: `Invitation to ${team}` });
    await userEvent.click(within(await card('Team A')).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(MSG_TEAMS.inviteCongratsTitle)).toBeInTheDocument();
    expect(screen.getByText(/Do you want to see this team\?/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Later' })).toBeInTheDocument();

    await userEvent.click(within(await card('Team B')).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText(MSG_TEAMS.declineAccepted)).toBeInTheDocument();

    await userEvent.click(within(await card('Team C')).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(MSG_TEAMS.inviteFailedTitle)).toBeInTheDocument();
    expect(screen.getByText(MSG_TEAMS.inviteFailedText)).toBeInTheDocument();

    // hiding a card removes it
    await userEvent.click(within(await card('Team B')).getByRole('button', { name: 'Ok' }));
    expect(screen.queryByText(MSG_TEAMS.declineAccepted)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Get me there!' }));
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBe('51');
    expect(localStorage.getItem(STORAGE_KEYS.settingsTab)).toBe('1');
  });

  it('the accepted card stays while the joined team and the emptied invitations list arrive', async () => {
    const joined = buildTeam({ id: 51, name: 'Team A', role: 30 });
    const state = { user: buildUser({ TeamsRender: [] }), invitations: invites.slice(0, 1) };
    api = await startApi({
      user: state.user,
      routes: {
        [on(ENDPOINTS.invitations.mine)]: () => ({
          status: 200,
          body: { message: 'ok', data: state.invitations },
        }),
        [on(ENDPOINTS.invitations.accept, 51, 1)]: () => {
          // As the server does: the user is in the team, the invitation no longer pending, and the
          // live event 81 makes the page search the invitations again before the answer arrives.
          state.invitations = [];
          state.user = { ...state.user, TeamsRender: [joined] };
          void queryClient.invalidateQueries({ queryKey: invitationKeys.all });
          return { status: 200, body: { message: 'ok', data: { team_id: 51 } } };
        },
        [on(ENDPOINTS.auth.check)]: () => ({ status: 200, body: { message: 'ok', data: state.user } }),
      },
    });
    renderSignedIn(<ProfileSettings />);
    const card = await screen.findByRole('generic', { name: 'Invitation to Team A' });
    await userEvent.click(within(card).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(MSG_TEAMS.inviteCongratsTitle)).toBeInTheDocument();
    await waitFor(() => expect(api?.requests.filter((r) => r.url === PATHS.auth.check)).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getByText(MSG_TEAMS.inviteCongratsTitle)).toBeInTheDocument();
    expect(screen.getByText(/Do you want to see this team\?/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG_TEAMS.inviteLater })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG_TEAMS.inviteGo })).toBeInTheDocument();
  });

  it('no team and no invitation: the banner', async () => {
    await open({ user: buildUser({ TeamsRender: [] }) });
    expect(await screen.findByText(MSG_TEAMS.noTeamBanner)).toBeInTheDocument();
  });
});

describe('profile image', () => {
  it('offers 12 images and saves the index', async () => {
    const server = await open({
      routes: {
        [on(ENDPOINTS.users.update, 1)]: (r) => ({
          status: 200,
          body: { message: 'ok', data: buildUser({ image: (r.body as { image: number }).image }) },
        }),
      },
    });
    await click('Change image');
    const dialog = await screen.findByRole('dialog', { name: 'Profile image' });
    expect(within(dialog).getAllByRole('radio')).toHaveLength(12);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Image 7' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ id: 1, image: 7 }),
    );
  });
});
