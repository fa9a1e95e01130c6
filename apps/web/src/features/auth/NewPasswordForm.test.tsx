import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, PATHS, STORAGE_KEYS } from '@tlprt/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../../test/render';
import { startTestServer } from '../../test/server';
import { NewPasswordForm } from './NewPasswordForm';

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Submit' }));
const newPassword = () => screen.getByLabelText('New password');
const confirm = () => screen.getByLabelText('Confirm new password');

describe('new password form', () => {
  let server: Awaited<ReturnType<typeof startTestServer>> | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('says "All fields are required" when both are empty', async () => {
    renderScreen(<NewPasswordForm hash="abc" mode="create" onExpired={() => {}} />);
    await submit();
    expect(await screen.findByText(MSG.allRequired)).toBeInTheDocument();
  });

  it('requires at least 6 symbols in each field', async () => {
    renderScreen(<NewPasswordForm hash="abc" mode="create" onExpired={() => {}} />);
    await userEvent.type(newPassword(), '12345');
    await userEvent.type(confirm(), '12345');
    await submit();
    expect(await screen.findAllByText(MSG.passwordMin)).toHaveLength(2);
  });

  it('says "Required field" for an empty confirmation', async () => {
    renderScreen(<NewPasswordForm hash="abc" mode="create" onExpired={() => {}} />);
    await userEvent.type(newPassword(), '123456');
    await submit();
    expect(await screen.findByText(MSG.required)).toBeInTheDocument();
  });

  it('says "Passwords do not match" and clears it on edit', async () => {
    renderScreen(<NewPasswordForm hash="abc" mode="reset" onExpired={() => {}} />);
    await userEvent.type(newPassword(), '123456');
    await userEvent.type(confirm(), '123457');
    await submit();
    expect(await screen.findByText(MSG.passwordsDoNotMatch)).toBeInTheDocument();
    await userEvent.type(confirm(), '8');
    expect(screen.queryByText(MSG.passwordsDoNotMatch)).not.toBeInTheDocument();
  });

  it('has eye toggles that reveal the password', async () => {
    renderScreen(<NewPasswordForm hash="abc" mode="create" onExpired={() => {}} />);
    expect(newPassword()).toHaveAttribute('type', 'password');
    const [toggle] = screen.getAllByRole('button', { name: 'Toggle visibility' });
    if (!toggle) throw new Error('no eye toggle');
    await userEvent.click(toggle);
    expect(newPassword()).toHaveAttribute('type', 'text');
  });

  it('create mode: stores the session and goes to /createAccount', async () => {
    server = await startTestServer(() => ({
      status: 200,
      body: {
        message: MSG.passwordSet,
        access_token: 't2',
        data: { access_token: 't2', token_type: 'Bearer', expires_at: 1, user_id: 3 },
      },
    }));
    renderScreen(<NewPasswordForm hash="abc" mode="create" onExpired={() => {}} />, '/createPassword/abc');
    await userEvent.type(newPassword(), '123456');
    await userEvent.type(confirm(), '123456');
    await submit();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/createAccount'));
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: PATHS.auth.setNewPassword,
      body: { hash: 'abc', password: '123456', confirm: '123456' },
    });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t2');
  });

  it('a 404 from the server means the link expired', async () => {
    server = await startTestServer(() => ({ status: 404, body: { message: MSG.notFound } }));
    const onExpired = vi.fn();
    renderScreen(<NewPasswordForm hash="abc" mode="reset" onExpired={onExpired} />);
    await userEvent.type(newPassword(), '123456');
    await userEvent.type(confirm(), '123456');
    await submit();
    await waitFor(() => expect(onExpired).toHaveBeenCalled());
    expect(server.requests[0]?.url).toBe(PATHS.auth.passwordRecoveryAccept);
  });
});
