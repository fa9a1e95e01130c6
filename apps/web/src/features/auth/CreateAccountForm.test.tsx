import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, PATHS, STORAGE_KEYS } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { startTestServer } from '../../test/server';
import { CreateAccountForm } from './CreateAccountForm';

const start = () => userEvent.click(screen.getByRole('button', { name: 'Start' }));

const team = {
  id: 41,
  name: 'Acme',
  website: '',
  role: 10,
  favourite: false,
  version: 0,
  statusId: 10,
  suspended: 0,
  suspendedProcess: 0,
  timezoneId: 37,
  timeZone: 'UTC',
  utcOffset: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const user = {
  id: 5,
  email: 'a@b.io',
  name: 'Ann',
  surname: 'Lee',
  phone: '',
  image: 0,
  supervisor: false,
  userStatusId: 10,
  changePasswordAt: null,
  statusChangeEmail: 0,
  newChangeEmail: null,
  deleteProgress: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  TeamsRender: [],
};

describe('create account form', () => {
  let server: Awaited<ReturnType<typeof startTestServer>> | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('says "All fields are required" when all three are empty', async () => {
    renderScreen(<CreateAccountForm userId={5} />);
    await start();
    expect(await screen.findByText(MSG.allRequired)).toBeInTheDocument();
  });

  it('says "Required field" under each empty field (blank counts as empty)', async () => {
    renderScreen(<CreateAccountForm userId={5} />);
    await userEvent.type(screen.getByLabelText('Name'), '   ');
    await userEvent.type(screen.getByLabelText('Workspace name'), 'Acme');
    await start();
    expect(await screen.findAllByText(MSG.required)).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('Name'), 'Ann');
    expect(screen.getAllByText(MSG.required)).toHaveLength(1);
  });

  it('saves the name, creates the workspace, and goes to /settings', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'tok');
    server = await startTestServer((req) => {
      if (req.method === 'PUT' && req.url === PATHS.users.update(5))
        return { status: 200, body: { message: 'updated', data: user } };
      if (req.method === 'POST' && req.url === PATHS.teams.create)
        return { status: 201, body: { message: 'created', data: team } };
      return undefined;
    });
    renderScreen(<CreateAccountForm userId={5} />, '/createAccount');
    await userEvent.type(screen.getByLabelText('Name'), ' Ann ');
    await userEvent.type(screen.getByLabelText('Last name'), 'Lee');
    await userEvent.type(screen.getByLabelText('Workspace name'), 'Acme');
    await start();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings'));
    expect(server.requests.map((r) => [r.method, r.url, r.body, r.authorization])).toEqual([
      ['PUT', PATHS.users.update(5), { id: 5, name: 'Ann', surname: 'Lee' }, 'Bearer tok'],
      ['POST', PATHS.teams.create, { name: 'Acme' }, 'Bearer tok'],
    ]);
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBe('41');
  });
});
