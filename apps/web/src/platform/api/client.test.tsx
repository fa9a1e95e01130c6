import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, MSG, STORAGE_KEYS } from '@tlprt/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer } from '../../test/server';
import { supportEmail } from '../config';
import { AppModalsProvider, openConfirm } from '../ui/AppModals';
import { api, configureApi, request } from './client';
import { ApiError } from './errors';
import { setNavigator } from './navigation';
import { closeAllModals, showCantPerform } from './popups';
import { queryClient } from './queryClient';

/** The modals manager the popups open in; `popup()` is the dialog shown, if any. */
const renderHost = () =>
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <AppModalsProvider>{null}</AppModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
const popup = () => screen.queryByRole('dialog');

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe('API client: status → popup mapping', () => {
  let server: Server | null = null;
  const navigate = vi.fn();
  beforeEach(() => {
    setNavigator(navigate);
    navigate.mockClear();
    localStorage.setItem(STORAGE_KEYS.token, 'tok');
    renderHost();
  });
  afterEach(async () => {
    setNavigator(null);
    await server?.close();
    server = null;
  });

  const reply = async (status: number, body: unknown) => {
    server = await startTestServer(() => ({ status, body }));
  };

  it('sends the bearer token on authenticated calls and parses the body with its schema', async () => {
    await reply(200, { message: 'ok', extra: 1 });
    await expect(request(ENDPOINTS.auth.logout)).resolves.toEqual({ message: 'ok' });
    expect(server?.requests[0]).toMatchObject({
      method: 'GET',
      url: '/auth/v1/logout',
      authorization: 'Bearer tok',
    });
  });

  it('sends no token on guest calls', async () => {
    await reply(200, { message: 'ok' });
    await request(ENDPOINTS.auth.recoveryPassword, { body: { login: 'a@b.io', url: 'http://h/' } });
    expect(server?.requests[0]).toMatchObject({ method: 'POST', url: '/auth/guest/recovery-password' });
    expect(server?.requests[0]?.authorization).toBeUndefined();
  });

  it('fills the path parameters and the query from the descriptor', async () => {
    await reply(404, { message: 'Not found' });
    await request(ENDPOINTS.audit.read, { query: { team_id: 7, page: 2 }, popups: false }).catch(() => {});
    await request(ENDPOINTS.auth.checkHash, { params: { hash: 'a/b' }, popups: false }).catch(() => {});
    expect(server?.requests.map((r) => r.url)).toEqual([
      '/api/v1/supervisor/audit?team_id=7&page=2',
      '/auth/guest/check_hash/a%2Fb',
    ]);
  });

  it('withToken sends the token to a guest endpoint that reads an optional one', async () => {
    await reply(200, { message: 'ok' });
    await request(ENDPOINTS.invitations.declineByLink, { params: { hash: 'h' }, withToken: true });
    expect(server?.requests[0]?.authorization).toBe('Bearer tok');
  });

  it('500 → server-error modal', async () => {
    await reply(500, { message: 'boom' });
    await expect(api.check()).rejects.toMatchObject({ status: 500 });
    expect(await screen.findByText(MSG.serverErrorTitle)).toBeInTheDocument();
  });

  it('500 on a guest call → server-error modal too', async () => {
    await reply(500, { message: 'boom' });
    await expect(api.login({ login: 'a@b.io', password: 'x' })).rejects.toBeInstanceOf(ApiError);
    expect(await screen.findByText(MSG.serverErrorTitle)).toBeInTheDocument();
  });

  it('network failure → server-error modal', async () => {
    configureApi({ baseUrl: 'http://127.0.0.1:9' });
    await expect(api.check()).rejects.toMatchObject({ status: 0 });
    expect(await screen.findByText(MSG.serverErrorTitle)).toBeInTheDocument();
    configureApi({ baseUrl: '' });
  });

  it('a success body that breaks the contract → server-error modal', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await reply(200, { unexpected: true });
    await expect(api.check()).rejects.toMatchObject({ status: 500 });
    expect(await screen.findByText(MSG.serverErrorTitle)).toBeInTheDocument();
  });

  it('failing calls of one screen show one server-error popup, not one each', async () => {
    await reply(500, { message: 'boom' });
    await Promise.all([api.check().catch(() => {}), api.check().catch(() => {})]);
    await screen.findByText(MSG.serverErrorTitle);
    await userEvent.click(screen.getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(popup()).toBeNull());
  });

  it('403 on an authenticated call → access-forbidden popup; OK clears the current team', async () => {
    localStorage.setItem(STORAGE_KEYS.currentTeamId, '12');
    await reply(403, { message: MSG.forbidden });
    await expect(api.getUser(1)).rejects.toMatchObject({ status: 403 });
    await screen.findByText(MSG.forbidden);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    vi.unstubAllGlobals();
    expect(reload).toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBeNull();
    await waitFor(() => expect(popup()).toBeNull());
  });

  it('403 closes the open modals; a server event closing the forbidden popup does not reload', async () => {
    localStorage.setItem(STORAGE_KEYS.currentTeamId, '12');
    act(() => openConfirm({ title: 'Delete origin', onConfirm: () => {} }));
    await screen.findByRole('dialog', { name: 'Delete origin' });
    await reply(403, { message: MSG.forbidden });
    await expect(api.getUser(1)).rejects.toMatchObject({ status: 403 });
    await screen.findByText(MSG.forbidden);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    act(() => closeAllModals());
    vi.unstubAllGlobals();
    await waitFor(() => expect(popup()).toBeNull());
    expect(reload).not.toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBe('12');
  });

  it('401 on an authenticated call → token removed and back to /', async () => {
    await reply(401, { message: MSG.unauthorized });
    await expect(api.check()).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
    expect(popup()).toBeNull();
  });

  it('guest errors go back to the caller: no popup, message and field errors kept', async () => {
    await reply(401, { message: MSG.incorrectLogin });
    const err = await api.login({ login: 'a@b.io', password: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).body.message).toBe(MSG.incorrectLogin);
    expect(popup()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok');

    await server?.close();
    await reply(400, { message: MSG.validationFailed, errors: { login: MSG.invalidEmail } });
    const err2 = (await api
      .recoverPassword({ login: 'x', url: 'http://h/' })
      .catch((e: unknown) => e)) as ApiError;
    expect(err2.status).toBe(400);
    expect(err2.fieldErrors).toEqual({ login: MSG.invalidEmail });
    expect(popup()).toBeNull();
  });

  it('check_hash: only "hash valid" of an expected kind is valid; a 404 is expired, without a popup', async () => {
    server = await startTestServer((r) =>
      r.url.endsWith('/good')
        ? { status: 200, body: { message: MSG.hashValid, data: { kind: 'register' } } }
        : { status: 404, body: { message: MSG.hashInvalid } },
    );
    await expect(api.checkHash('good', ['register', 'recovery'])).resolves.toBe(true);
    await expect(api.checkHash('good', ['delete-team'])).resolves.toBe(false);
    await expect(api.checkHash('bad', ['register'])).resolves.toBe(false);
    expect(popup()).toBeNull();
  });
});

describe('popups', () => {
  it('shows the server-error texts with Ok', async () => {
    let server: Server | null = await startTestServer(() => ({ status: 500, body: { message: 'x' } }));
    renderHost();
    await act(async () => {
      await api.check().catch(() => {});
    });
    expect(await screen.findByText(MSG.serverErrorTitle)).toBeInTheDocument();
    expect(screen.getByText(MSG.serverErrorText)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(popup()).toBeNull());
    await server.close();
    server = null;
  });

  it('offers "Can\'t perform this action" with the support contact to callers', async () => {
    renderHost();
    act(() => showCantPerform());
    expect(await screen.findByText(MSG.cantPerformTitle)).toBeInTheDocument();
    expect(screen.getByText(MSG.cantPerformText)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: supportEmail() })).toHaveAttribute(
      'href',
      `mailto:${supportEmail()}`,
    );
  });

  it('closes when a server event arrives (closeAllModals)', async () => {
    renderHost();
    act(() => showCantPerform());
    expect(await screen.findByText(MSG.cantPerformTitle)).toBeInTheDocument();
    act(() => closeAllModals());
    await waitFor(() => expect(popup()).toBeNull());
  });
});
