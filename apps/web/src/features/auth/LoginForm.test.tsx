import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, STORAGE_KEYS } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { startTestServer } from '../../test/server';
import { LoginForm } from './LoginForm';

const loginButton = () => screen.getByRole('button', { name: 'Login' });

describe('login form', () => {
  let server: Awaited<ReturnType<typeof startTestServer>> | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('says "All fields are required" when both fields are empty', async () => {
    renderScreen(<LoginForm />);
    await userEvent.click(loginButton());
    expect(await screen.findByText(MSG.allRequired)).toBeInTheDocument();
  });

  it('says "Required field" under an empty e-mail or password, and clears it on edit', async () => {
    renderScreen(<LoginForm />);
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(loginButton());
    expect(await screen.findByText(MSG.required)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('E-mail'), 'a');
    expect(screen.queryByText(MSG.required)).not.toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('E-mail'), '@b.io');
    await userEvent.click(loginButton());
    expect(await screen.findByText(MSG.required)).toBeInTheDocument();
  });

  it('says "Invalid e-mail" for a malformed address (after trimming)', async () => {
    renderScreen(<LoginForm />);
    await userEvent.type(screen.getByLabelText('E-mail'), '  not-an-email ');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(loginButton());
    expect(await screen.findByText(MSG.invalidEmail)).toBeInTheDocument();
  });

  it('shows the server rejection "Incorrect e-mail or password"', async () => {
    server = await startTestServer(() => ({ status: 401, body: { message: MSG.incorrectLogin } }));
    renderScreen(<LoginForm />);
    await userEvent.type(screen.getByLabelText('E-mail'), ' User@Example.com ');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-pass');
    await userEvent.click(loginButton());
    expect(await screen.findByText(MSG.incorrectLogin)).toBeInTheDocument();
    expect(server.requests[0]?.body).toEqual({ login: 'user@example.com', password: 'wrong-pass' });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('stores the token and goes to the stored route name', async () => {
    localStorage.setItem(STORAGE_KEYS.routeName, 'statistics');
    server = await startTestServer(() => ({
      status: 200,
      body: {
        message: MSG.loggedIn,
        access_token: 'tok-1',
        data: { access_token: 'tok-1', token_type: 'Bearer', expires_at: 1, user_id: 7 },
      },
    }));
    renderScreen(<LoginForm />);
    await userEvent.type(screen.getByLabelText('E-mail'), 'user@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(loginButton());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/statistics'));
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok-1');
    expect(localStorage.getItem(STORAGE_KEYS.currentUserId)).toBe('7');
  });
});
