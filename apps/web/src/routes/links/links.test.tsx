import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  EMAIL_EVENT_LINK_KINDS,
  LinkKind,
  MSG,
  MSG_TEAMS,
  PATHS,
  STORAGE_KEYS,
  type TEmailEventType,
} from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { type Recorded, startTestServer } from '../../test/server';
import ChangeEmailRoute from '../changeEmail';
import DeleteUserAccountRoute from '../deleteUserAccount';
import EmailCancelHandlerRoute from '../emailCancelHandler';
import EmailEventHandlerRoute from '../emailEventHandler';
import EmailInviteHandlerRoute from '../emailInviteHandler';
import { teamIdOfSegment } from './EmailCancelScreen';

type Server = Awaited<ReturnType<typeof startTestServer>>;
let server: Server | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const login = {
  status: 200,
  body: {
    message: MSG.loggedIn,
    access_token: 'tok-new',
    data: { access_token: 'tok-new', token_type: 'Bearer', expires_at: 1, user_id: 4 },
  },
};
const signIn = () => localStorage.setItem(STORAGE_KEYS.token, 'tok');
const EVENT = '/email_event_handler/:type/:hash';
type Reply = { status: number; body?: unknown } | undefined;
const isCheck = (r: Recorded) => r.url.startsWith(PATHS.auth.checkHash(''));
/** The server's check_hash answering every hash as a live link of `kind`; the rest goes to `handler`. */
const liveAs =
  (kind: string, handler: (r: Recorded) => Reply) =>
  (r: Recorded): Reply =>
    isCheck(r) ? { status: 200, body: { message: MSG.hashValid, data: { kind } } } : handler(r);
const actions = () => server?.requests.filter((r) => !isCheck(r)) ?? [];

describe('/email_event_handler', () => {
  it.each([
    ['email', 'POST', PATHS.account.changeEmailAccept, MSG_TEAMS.emailChanged],
    ['delete-user', 'DELETE', PATHS.account.deleteAccept, MSG_TEAMS.accountDeleted],
    ['delete-team-accept', 'DELETE', PATHS.teamLifecycle.deleteConfirm, MSG_TEAMS.teamDeletedByLink],
    ['suspended-team-accept', 'PUT', PATHS.teamLifecycle.suspendConfirm, MSG_TEAMS.teamSuspendedByLink],
  ])(
    'signed in, %s: performs %s %s with the hash and shows the success text',
    async (type, method, path, text) => {
      server = await startTestServer(
        liveAs(EMAIL_EVENT_LINK_KINDS[type as TEmailEventType], (r) =>
          r.method === method && r.url === path ? { status: 200, body: { message: 'success' } } : undefined,
        ),
      );
      signIn();
      renderScreen(<EmailEventHandlerRoute />, `/email_event_handler/${type}/h4sh`, EVENT);
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(server.requests[0]?.url).toBe(PATHS.auth.checkHash('h4sh'));
      expect(actions()[0]).toMatchObject({
        method,
        url: path,
        body: { hash: 'h4sh' },
        authorization: 'Bearer tok',
      });
      if (type === 'delete-user') expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    },
  );

  it('a dead hash is "This link is expired" at once, signed in or not: no action, no sign-in asked', async () => {
    server = await startTestServer(() => ({ status: 404, body: { message: MSG.hashInvalid } }));
    renderScreen(<EmailEventHandlerRoute />, '/email_event_handler/delete-team-accept/dead', EVENT);
    expect(await screen.findByText(MSG.linkExpiredTitle)).toBeInTheDocument();
    expect(screen.queryByText(MSG_TEAMS.confirmAction)).not.toBeInTheDocument();
    expect(actions()).toEqual([]);
  });

  it('a live hash of another kind is expired too', async () => {
    server = await startTestServer(
      liveAs(LinkKind.Recovery, () => ({ status: 200, body: { message: 'ok' } })),
    );
    signIn();
    renderScreen(<EmailEventHandlerRoute />, '/email_event_handler/email/other', EVENT);
    expect(await screen.findByText(MSG.linkExpiredTitle)).toBeInTheDocument();
    expect(actions()).toEqual([]);
  });

  it('an action failing on a 404 after the check is expired too', async () => {
    server = await startTestServer(
      liveAs(LinkKind.DeleteTeam, () => ({ status: 404, body: { message: 'Not found' } })),
    );
    signIn();
    renderScreen(<EmailEventHandlerRoute />, '/email_event_handler/delete-team-accept/raced', EVENT);
    expect(await screen.findByText(MSG.linkExpiredTitle)).toBeInTheDocument();
  });

  it('"Can\'t perform this action" when the server refuses', async () => {
    server = await startTestServer(
      liveAs(LinkKind.SuspendTeam, () => ({ status: 409, body: { message: 'no' } })),
    );
    signIn();
    renderScreen(<EmailEventHandlerRoute />, '/email_event_handler/suspended-team-accept/h', EVENT);
    expect(await screen.findByText(MSG.cantPerformTitle)).toBeInTheDocument();
  });

  it('signed out: "Confirm action" form, validated only on submit, then the action after login', async () => {
    server = await startTestServer(
      liveAs(LinkKind.ChangeEmail, (r) => {
        if (r.url === PATHS.auth.login) return login;
        if (r.url === PATHS.account.changeEmailAccept) return { status: 200, body: { message: 'success' } };
        return undefined;
      }),
    );
    renderScreen(<EmailEventHandlerRoute />, '/email_event_handler/email/h1', EVENT);
    expect(await screen.findByText(MSG_TEAMS.confirmAction)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    await userEvent.type(screen.getByLabelText('E-mail'), 'bad');
    await userEvent.tab();
    expect(screen.queryByText(MSG.invalidEmail)).not.toBeInTheDocument();
    expect(screen.queryByText(MSG.required)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(MSG.invalidEmail)).toBeInTheDocument();
    expect(screen.getByText(MSG.required)).toBeInTheDocument(); // password
    await userEvent.clear(screen.getByLabelText('E-mail'));
    await userEvent.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(MSG_TEAMS.emailChanged)).toBeInTheDocument();
    expect(server.requests.at(-1)?.authorization).toBe('Bearer tok-new');
  });

  it('/changeEmail/{hash} and /deleteUserAccount/{hash}: success or "This link is expired"', async () => {
    server = await startTestServer((r) => {
      if (r.url === PATHS.auth.checkHash('abc'))
        return { status: 200, body: { message: MSG.hashValid, data: { kind: LinkKind.ChangeEmail } } };
      if (r.url === PATHS.auth.checkHash('def'))
        return { status: 200, body: { message: MSG.hashValid, data: { kind: LinkKind.DeleteUser } } };
      return r.url === PATHS.account.deleteAccept
        ? { status: 200, body: { message: 'success' } }
        : { status: 403, body: { message: 'x' } };
    });
    signIn();
    const first = renderScreen(<ChangeEmailRoute />, '/changeEmail/abc', '/changeEmail/:hash');
    expect(await screen.findByText(MSG.linkExpiredTitle)).toBeInTheDocument();
    first.unmount();
    renderScreen(<DeleteUserAccountRoute />, '/deleteUserAccount/def', '/deleteUserAccount/:hash');
    expect(await screen.findByText(MSG_TEAMS.accountDeleted)).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});

describe('/email_cancel_handler', () => {
  it('takes the number of the "name=number" segment', () => {
    expect(teamIdOfSegment('Acme=12')).toBe(12);
    expect(teamIdOfSegment('a=b=7')).toBe(7);
    expect(teamIdOfSegment('oops')).toBeNull();
  });

  it('cancels the deletion with the hash and goes to /settings/', async () => {
    server = await startTestServer(
      liveAs(LinkKind.DeleteTeam, (r) =>
        r.url === PATHS.teamLifecycle.deleteCancel(12) ? { status: 200, body: { message: 'ok' } } : undefined,
      ),
    );
    signIn();
    renderScreen(
      <EmailCancelHandlerRoute />,
      '/email_cancel_handler/cancel_team_deleting/Acme=12/hh',
      '/email_cancel_handler/:type/:teamId/:hash',
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings/'));
    expect(actions()[0]?.body).toEqual({ hash: 'hh' });
  });

  it('a dead hash is "This link is expired" before any sign-in', async () => {
    server = await startTestServer(() => ({ status: 404, body: { message: MSG.hashInvalid } }));
    renderScreen(
      <EmailCancelHandlerRoute />,
      '/email_cancel_handler/cancel_team_suspended/X=3/dead',
      '/email_cancel_handler/:type/:teamId/:hash',
    );
    expect(await screen.findByText(MSG.linkExpiredTitle)).toBeInTheDocument();
    expect(screen.queryByLabelText('E-mail')).not.toBeInTheDocument();
  });

  it('signed out asks for login; a refusal is "Can\'t perform this action"', async () => {
    server = await startTestServer(
      liveAs(LinkKind.SuspendTeam, (r) =>
        r.url === PATHS.auth.login ? login : { status: 409, body: { message: 'no' } },
      ),
    );
    renderScreen(
      <EmailCancelHandlerRoute />,
      '/email_cancel_handler/cancel_team_suspended/X=3/hh',
      '/email_cancel_handler/:type/:teamId/:hash',
    );
    await userEvent.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(MSG.cantPerformTitle)).toBeInTheDocument();
    expect(server.requests.at(-1)?.url).toBe(PATHS.teamLifecycle.suspendRevoke(3));
  });
});

describe('/email_invite_handler', () => {
  const INVITE = '/email_invite_handler/:type/:hash';
  const accepted = (teamId: number) => ({
    status: 200,
    body: {
      message: 'ok',
      access_token: 'tok-inv',
      data: {
        team_id: teamId,
        session: { access_token: 'tok-inv', token_type: 'Bearer', expires_at: 1, user_id: 8 },
      },
    },
  });

  it('new: "This field is required", min 6, mismatch; then signs in, selects the team, goes to /settings', async () => {
    server = await startTestServer(
      liveAs(LinkKind.Invite, (r) =>
        r.method === 'PUT' && r.url === PATHS.invitations.acceptByLink('inv1') ? accepted(5) : undefined,
      ),
    );
    renderScreen(<EmailInviteHandlerRoute />, '/email_invite_handler/new/inv1?teamIdInvite=5', INVITE);
    const submit = () => userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByRole('button', { name: 'Create account' });
    expect(server.requests[0]?.url).toBe(PATHS.auth.checkHash('inv1'));
    await submit();
    expect(await screen.findAllByText(MSG.fieldRequired)).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('New password'), 'abc');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'abc');
    await submit();
    expect(await screen.findByText(MSG.passwordMin)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New password'), 'defg');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'xyz1');
    await submit();
    expect(await screen.findByText(MSG.passwordsDoNotMatch)).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'abcdefg');
    await userEvent.type(screen.getByLabelText('Name'), ' Grace ');
    await submit();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings'));
    expect(actions()[0]?.body).toEqual({
      name: 'Grace',
      surname: '',
      password: 'abcdefg',
      confirm: 'abcdefg',
    });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok-inv');
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBe('5');
  });

  it('old, signed in: accepts with the Bearer, team current, /settings', async () => {
    server = await startTestServer(
      liveAs(LinkKind.Invite, (r) => (r.method === 'PUT' ? accepted(6) : undefined)),
    );
    signIn();
    renderScreen(<EmailInviteHandlerRoute />, '/email_invite_handler/old/inv2?teamIdInvite=6', INVITE);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings'));
    expect(actions()[0]?.authorization).toBe('Bearer tok');
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBe('6');
  });

  it('old, signed out: logs in first', async () => {
    server = await startTestServer(
      liveAs(LinkKind.Invite, (r) =>
        r.url === PATHS.auth.login ? login : r.method === 'PUT' ? accepted(6) : undefined,
      ),
    );
    renderScreen(<EmailInviteHandlerRoute />, '/email_invite_handler/old/inv2?teamIdInvite=6', INVITE);
    await userEvent.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings'));
  });

  it.each([
    ['new', false],
    ['old', false],
    ['old', true],
  ])(
    '%s (signed in: %s), a dead or foreign hash: "This link is expired" at once, no form, no accept',
    async (type, signedIn) => {
      server = await startTestServer((r) =>
        isCheck(r) && r.url.endsWith('/mail-change')
          ? { status: 200, body: { message: MSG.hashValid, data: { kind: LinkKind.ChangeEmail } } }
          : { status: 404, body: { message: MSG.linkExpiredTitle } },
      );
      if (signedIn) signIn();
      for (const hash of ['dead', 'mail-change']) {
        const view = renderScreen(
          <EmailInviteHandlerRoute />,
          `/email_invite_handler/${type}/${hash}?teamIdInvite=5`,
          INVITE,
        );
        expect(await screen.findByText(MSG.linkExpiredTitle)).toBeInTheDocument();
        expect(screen.queryByRole('button', { name: /Create account|Login/ })).not.toBeInTheDocument();
        view.unmount();
      }
      expect(actions()).toEqual([]);
    },
  );

  it('decline: "The invite was declined", or "Can\'t perform this action"', async () => {
    server = await startTestServer((r) =>
      r.method === 'DELETE' && r.url.endsWith('/good')
        ? { status: 200, body: { message: 'ok' } }
        : { status: 404, body: { message: 'x' } },
    );
    const first = renderScreen(
      <EmailInviteHandlerRoute />,
      '/email_invite_handler/decline/good?teamIdInvite=5',
      INVITE,
    );
    expect(await screen.findByText(MSG_TEAMS.inviteDeclined)).toBeInTheDocument();
    first.unmount();
    renderScreen(<EmailInviteHandlerRoute />, '/email_invite_handler/decline/bad', INVITE);
    expect(await screen.findByText(MSG.cantPerformTitle)).toBeInTheDocument();
  });
});
