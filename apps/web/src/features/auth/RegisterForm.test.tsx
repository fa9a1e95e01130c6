import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { startTestServer } from '../../test/server';
import { RegisterForm } from './RegisterForm';

describe('register form', () => {
  let server: Awaited<ReturnType<typeof startTestServer>> | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('has both checkboxes ticked by default and disables "Create account" without the terms', async () => {
    renderScreen(<RegisterForm />);
    const terms = screen.getByLabelText(MSG.registerTerms);
    const updates = screen.getByLabelText(MSG.registerUpdates);
    expect(terms).toBeChecked();
    expect(updates).toBeChecked();
    const button = screen.getByRole('button', { name: MSG.registerButton });
    expect(button).toBeEnabled();
    await userEvent.click(terms);
    expect(button).toBeDisabled();
    await userEvent.click(terms);
    expect(button).toBeEnabled();
  });

  it('says "invalid email" (this form\'s wording) and "Required field"', async () => {
    renderScreen(<RegisterForm />);
    const button = screen.getByRole('button', { name: MSG.registerButton });
    await userEvent.click(button);
    expect(await screen.findByText(MSG.required)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('E-mail'), 'nope');
    await userEvent.click(button);
    expect(await screen.findByText(MSG.invalidEmailLower)).toBeInTheDocument();
  });

  it('sends the link bases of this origin and goes to /pendingRegistration', async () => {
    server = await startTestServer(() => ({ status: 201, body: { message: MSG.registered } }));
    renderScreen(<RegisterForm />, '/register');
    await userEvent.type(screen.getByLabelText('E-mail'), 'new@example.com ');
    await userEvent.click(screen.getByLabelText(MSG.registerUpdates));
    await userEvent.click(screen.getByRole('button', { name: MSG.registerButton }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pendingRegistration'));
    const origin = window.location.origin;
    expect(server.requests[0]?.body).toEqual({
      login: 'new@example.com',
      createPath: `${origin}/createPassword/`,
      resetPath: `${origin}/resPassword/`,
      loginPath: `${origin}/`,
      offer: true,
      subscription: false,
    });
  });
});
