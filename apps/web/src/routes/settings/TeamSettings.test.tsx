import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, MSG, MSG_TEAMS, STORAGE_KEYS } from '@tlprt/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sidebar } from '../../app/layout/Sidebar';
import { SettingsTabs } from '../../platform/settings/SettingsTabs';
import { buildDetail, buildMember, buildTeam, buildUser } from '../../test/fixtures';
import { on, type Routes, renderSignedIn, startApi } from '../../test/session';
import { TeamSettings } from './TeamSettings';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});
beforeEach(() => localStorage.setItem(STORAGE_KEYS.settingsTab, '1'));

async function open(
  role: number,
  opts: { supervisor?: boolean; team?: Partial<ReturnType<typeof buildTeam>>; routes?: Routes } = {},
) {
  const team = buildTeam({ role, ...opts.team });
  api = await startApi({
    user: buildUser({ supervisor: opts.supervisor ?? false, TeamsRender: [team] }),
    detail: buildDetail(team),
    routes: opts.routes,
  });
  renderSignedIn(<TeamSettings />);
  await screen.findByText('Team info');
  return api;
}

const roleOptions = (label: string) =>
  within(screen.getByLabelText(label))
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('team settings: policy-driven controls', () => {
  it('Admin: editable info, invite block with Admin/Key master/Viewer (default Viewer), leave and delete', async () => {
    await open(10);
    expect(screen.getByLabelText('Team name')).not.toHaveAttribute('readonly');
    expect(screen.getByLabelText('Time zone')).not.toBeDisabled();
    expect(roleOptions('Role')).toEqual(['Admin', 'Key master', 'Viewer']);
    expect(screen.getByLabelText('Role')).toHaveValue('40');
    expect(screen.getByRole('button', { name: 'Leave team' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete team' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Version')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend team' })).not.toBeInTheDocument();
    // member rows: the e-mail, a role select, a remove button (not for myself), invited ones
    expect(screen.getByLabelText('Role of grace@example.com')).not.toBeDisabled();
    expect(roleOptions('Role of grace@example.com')).toEqual(['Admin', 'Key master', 'Viewer']);
    expect(screen.getByRole('button', { name: 'Remove grace@example.com' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove ada@example.com' })).not.toBeInTheDocument();
    expect(screen.getByText(MSG_TEAMS.invited)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revoke' })).toBeInTheDocument();
  });

  it('Key master: invites Key master/Viewer only, no leave, role selects locked, read-only info', async () => {
    await open(30);
    expect(roleOptions('Role')).toEqual(['Key master', 'Viewer']);
    expect(screen.queryByRole('button', { name: 'Leave team' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete team' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Role of grace@example.com')).toBeDisabled();
    expect(screen.getByLabelText('Team name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Time zone')).toBeDisabled();
    // the invitation was sent by user 1, not by this Key master (also user 1 here) → may manage it
    expect(screen.getByRole('button', { name: 'Revoke' })).toBeInTheDocument();
  });

  it('Viewer: no invite block, no leave, no remove', async () => {
    await open(40);
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Leave team' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument();
    expect(screen.getByTestId('my-role')).toHaveTextContent('Viewer');
  });

  it('Supervisor: version selector and Suspend team, no leave', async () => {
    await open(40, { supervisor: true });
    expect(screen.getByLabelText('Version')).not.toBeDisabled();
    expect(roleOptions('Version')).toEqual(['Version 1.0 (Default)', 'Version 1.1 (Nodr)']);
    expect(screen.getByRole('button', { name: 'Suspend team' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Leave team' })).not.toBeInTheDocument();
    expect(screen.getByTestId('my-role')).toHaveTextContent('Supervisor');
  });

  it('a pending invitee the answer lists in users and in invited is shown once, as invited', async () => {
    const team = buildTeam({ role: 10 });
    const detail = buildDetail(team);
    // As GET /v1/teams/{id} answers: invitees (invite_status 10) in `users` too (spec §3).
    api = await startApi({
      user: buildUser({ TeamsRender: [team] }),
      detail: { ...detail, users: [...detail.users, ...detail.invited] },
    });
    renderSignedIn(<TeamSettings />);
    await screen.findByText('Team info');
    const list = screen.getByRole('list', { name: 'Team members' });
    expect(within(list).getAllByText('new@example.com')).toHaveLength(1);
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByLabelText('Role of new@example.com')).not.toBeInTheDocument();
    expect(screen.getByText(MSG_TEAMS.invited)).toBeInTheDocument();
  });

  it('a Billing master member: the dropdown offers only Admin, Key master, Viewer and shows Billing master', async () => {
    const team = buildTeam({ role: 10 });
    api = await startApi({
      user: buildUser({ TeamsRender: [team] }),
      detail: buildDetail(team, {
        users: [
          buildMember({ id: 1, email: 'ada@example.com', roles: 10 }),
          buildMember({ id: 2, name: 'Grace', email: 'grace@example.com', roles: 20 }),
        ],
      }),
    });
    renderSignedIn(<TeamSettings />);
    await screen.findByText('Team info');
    const select = screen.getByLabelText('Role of grace@example.com') as HTMLSelectElement;
    expect(select).toHaveValue('20');
    expect(select.selectedOptions[0]?.textContent).toBe('Billing master');
    const offered = [...select.options].filter((o) => !o.hidden).map((o) => o.textContent);
    expect(offered).toEqual(['Admin', 'Key master', 'Viewer']);
  });

  it('a suspended team shows the banner and every control is view-only', async () => {
    await open(10, { team: { suspended: 1 } });
    expect(screen.getByTestId('suspended-banner')).toHaveTextContent(MSG_TEAMS.teamSuspendedNotice);
    expect(screen.getByLabelText('Team name')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Invite' })).toBeDisabled();
    expect(screen.getByLabelText('Role of grace@example.com')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Leave team' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete team' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();
  });
});

describe('team settings: invite form', () => {
  it('"All fields are required", "Invalid e-mail", then sends with the link bases and shows the result', async () => {
    const server = await open(10, {
      routes: {
        [on(ENDPOINTS.invitations.create, 5)]: { status: 201, body: { message: MSG_TEAMS.inviteSent } },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText(MSG.allRequired)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('E-mail'), 'nope');
    expect(screen.queryByText(MSG.allRequired)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText(MSG.invalidEmail)).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('E-mail'));
    await userEvent.type(screen.getByLabelText('E-mail'), ' Bob@Example.com ');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'Key master');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText(MSG_TEAMS.inviteSent)).toBeInTheDocument();
    const sent = server.requests.find((r) => r.url.endsWith('/invitation/create'));
    expect(sent?.body).toMatchObject({
      invited_email: 'bob@example.com',
      role: 30,
      teamId: 5,
      accept_url: `${window.location.origin}/email_invite_handler/old/`,
      accept_new_user_url: `${window.location.origin}/email_invite_handler/new/`,
      decline_url: `${window.location.origin}/email_invite_handler/decline/`,
    });
  });

  it('shows the response message of a failed invitation in the result modal', async () => {
    await open(10, {
      routes: {
        [on(ENDPOINTS.invitations.create, 5)]: { status: 409, body: { message: MSG_TEAMS.alreadyMember } },
      },
    });
    await userEvent.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText(MSG_TEAMS.alreadyMember)).toBeInTheDocument();
  });
});

describe('team settings: password modals and suspension', () => {
  it('too many wrong passwords (429): the message stays under the field, the modal open', async () => {
    await open(10, {
      routes: {
        [on(ENDPOINTS.teamLifecycle.deleteLock, 5)]: {
          status: 429,
          body: { message: MSG.tooManyRequests },
        },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Delete team' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'guess');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(MSG.tooManyRequests)).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('delete team: "Required field", the server message under the field clearing on edit, then the mail', async () => {
    const server = await open(10, {
      routes: {
        [on(ENDPOINTS.teamLifecycle.deleteLock, 5)]: (r) =>
          (r.body as { password: string }).password === 'right-one'
            ? { status: 200, body: { message: 'ok' } }
            : {
                status: 400,
                body: { message: MSG.incorrectPassword, errors: { password: MSG.incorrectPassword } },
              },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Delete team' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(MSG.required)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong');
    expect(within(dialog).queryByText(MSG.required)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(MSG.incorrectPassword)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'x');
    expect(within(dialog).queryByText(MSG.incorrectPassword)).not.toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Password'));
    await userEvent.type(within(dialog).getByLabelText('Password'), 'right-one');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MSG_TEAMS.linkSent)).toBeInTheDocument();
    expect(server.requests.find((r) => r.url.endsWith('/delete/lock'))?.body).toMatchObject({
      confirmPath: `${window.location.origin}/email_event_handler/delete-team-accept/`,
      cancelPath: `${window.location.origin}/email_cancel_handler/cancel_team_deleting/`,
    });
  });

  it('leave team: "Required field", then 409 opens "Unable to leave the team"', async () => {
    // A Billing master: the screen lets them try (a sole admin learns it before any password, see
    // features/teams/TeamDanger.test.tsx); the server's 409 still ends in the same modal.
    await open(20, {
      routes: {
        [on(ENDPOINTS.teams.leave, 5)]: { status: 409, body: { message: MSG_TEAMS.unableLeaveTitle } },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Leave team' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(MSG.required)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'secret1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MSG_TEAMS.unableLeaveText)).toBeInTheDocument();
    expect(screen.getByText(MSG_TEAMS.unableLeaveTitle)).toBeInTheDocument();
  });

  it('while deletion is requested: Resend and Cancel deletion instead of Delete team', async () => {
    await open(10, { team: { statusId: 30 } });
    expect(screen.queryByRole('button', { name: 'Delete team' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Cancel deletion/ })).toBeInTheDocument();
    // deletion locks invitations and roles
    expect(screen.getByRole('button', { name: 'Invite' })).toBeDisabled();
  });

  it('suspend: "incorrect team name" unless the typed text equals the team name', async () => {
    const server = await open(40, {
      supervisor: true,
      routes: { [on(ENDPOINTS.teamLifecycle.suspend, 5)]: { status: 200, body: { message: 'ok' } } },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Suspend team' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Team name'), 'Acme');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(MSG.incorrectTeamName)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Team name'), ' Video');
    expect(within(dialog).queryByText(MSG.incorrectTeamName)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MSG_TEAMS.suspensionPending, { selector: 'p' })).toBeInTheDocument();
    expect(server.requests.find((r) => r.url.endsWith('/suspended'))?.body).toMatchObject({
      name: 'Acme Video',
    });
  });

  it('suspension in progress shows Resend and Revoke; a suspended team offers Unsuspend team', async () => {
    await open(40, { supervisor: true, team: { suspendedProcess: 1 } });
    expect(screen.getByText(MSG_TEAMS.suspensionPending)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend team' })).not.toBeInTheDocument();
    // the invitation row has its own pair: the suspension card adds another
    expect(screen.getAllByRole('button', { name: 'Resend' })).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: 'Revoke' })).toHaveLength(2);
    await api?.close();
    cleanup();
    await open(40, { supervisor: true, team: { suspended: 1 } });
    expect(screen.getAllByRole('button', { name: 'Unsuspend team' }).length).toBeGreaterThan(0);
  });

  it('remove member asks for confirmation, then calls the API', async () => {
    const server = await open(10, {
      routes: { [on(ENDPOINTS.teams.removeMember, 5, 2)]: { status: 200, body: { message: 'ok' } } },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Remove grace@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.method === 'DELETE' && r.url.endsWith('/delete/user/2'))).toBe(
        true,
      ),
    );
  });

  it('role change of a member posts set_role; the last-admin 409 is shown', async () => {
    const server = await open(10, {
      routes: {
        [on(ENDPOINTS.teams.setRole, 5, 2, 30)]: { status: 200, body: { message: 'ok' } },
        [on(ENDPOINTS.teams.setRole, 5, 1, 40)]: { status: 409, body: { message: MSG.teamNeedsAdmin } },
      },
    });
    await userEvent.selectOptions(screen.getByLabelText('Role of grace@example.com'), 'Key master');
    await waitFor(() => expect(server.requests.some((r) => r.url.endsWith('/set_role/30'))).toBe(true));
    await userEvent.selectOptions(screen.getByLabelText('Role of ada@example.com'), 'Viewer');
    expect(await screen.findByText(MSG.teamNeedsAdmin)).toBeInTheDocument();
  });
});

describe('a supervisor working in a team picked in Team Management (no team of their own)', () => {
  it('has the Team settings tab and Statistics; members read-only; suspension, version and tags', async () => {
    const picked = buildTeam({ id: 42, name: 'Customer Co', role: 50 });
    const detail = buildDetail(picked, {
      users: [
        buildMember({ id: 7, email: 'owner@customer.example', roles: 10 }),
        buildMember({ id: 8, name: 'Grace', email: 'grace@example.com', roles: 40 }),
      ],
      tags: ['vip'],
    });
    api = await startApi({
      user: buildUser({ supervisor: true, TeamsRender: [] }),
      detail: null,
      routes: { [on(ENDPOINTS.teams.read, 42)]: { status: 200, body: { message: 'ok', data: detail } } },
    });
    renderSignedIn(
      <>
        <Sidebar onNavigate={() => {}} />
        <SettingsTabs variant="page" />
        <TeamSettings />
      </>,
      '/settings',
      42,
    );
    await screen.findByText('Team info');
    expect(screen.getByRole('tab', { name: 'Team settings' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Statistics' })).toBeInTheDocument();
    expect(screen.getByTestId('members-read-only')).toHaveTextContent(MSG_TEAMS.membersReadOnly);
    expect(screen.getByLabelText('Role of grace@example.com')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Remove grace@example.com' })).not.toBeInTheDocument();
    expect(screen.queryByText('Invite a member')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Suspend team' })).toBeInTheDocument();
    expect(screen.getByLabelText('Version')).not.toBeDisabled();
    expect(screen.getByText('vip')).toBeInTheDocument();
    expect(screen.getByLabelText('Add a tag to Customer Co')).toBeInTheDocument();
    // Spec §6: the delete-team block is the Admins' (and shown during deletion): not a supervisor's here.
    expect(screen.queryByRole('button', { name: 'Delete team' })).not.toBeInTheDocument();
  });

  it('sees the deletion state of a picked team whose deletion was requested', async () => {
    const picked = buildTeam({ id: 42, name: 'Customer Co', role: 50, statusId: 30 });
    api = await startApi({
      user: buildUser({ supervisor: true, TeamsRender: [] }),
      detail: null,
      routes: {
        [on(ENDPOINTS.teams.read, 42)]: { status: 200, body: { message: 'ok', data: buildDetail(picked) } },
      },
    });
    renderSignedIn(<TeamSettings />, '/settings', 42);
    await screen.findByText('Team info');
    expect(screen.getByText('Team deletion requested')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete team' })).not.toBeInTheDocument();
  });
});
