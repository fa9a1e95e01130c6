import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, STORAGE_KEYS, ZMessage } from '@tlprt/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeAllModals } from '../components/modalBus';
import { PopupHost } from '../components/PopupHost';
import { supportEmail } from '../config';
import { startTestServer } from '../test/server';
import { api, call, configureApi } from './client';
import { ApiError } from './errors';
import { setNavigator } from './navigation';
import { confirmPopup, dismissPopup, getPopup, showCantPerform } from './popups';

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe('API client: status → popup mapping', () => {
  let server: Server | null = null;
  const navigate = vi.fn();
  beforeEach(() => {
    setNavigator(navigate);
    navigate.mockClear();
    localStorage.setItem(STORAGE_KEYS.token, 'tok');
  });
  afterEach(async () => {
    act(() => dismissPopup());
    setNavigator(null);
    await server?.close();
    server = null;
  });

  const reply = async (status: number, body: unknown) => {
    server = await startTestServer(() => ({ status, body }));
  };

  it('sends the bearer token on authenticated calls and parses the body with its schema', async () => {
    await reply(200, { message: 'ok', extra: 1 });
    await expect(call({ path: '/auth/v1/logout', schema: ZMessage, auth: 'bearer' })).resolves.toEqual({
      message: 'ok',
    });
    expect(server?.requests[0]?.authorization).toBe('Bearer tok');
  });

  it('sends no token on guest calls', async () => {
    await reply(200, { message: 'ok' });
    await call({ path: '/auth/guest/x', schema: ZMessage, auth: 'guest' });
    expect(server?.requests[0]?.authorization).toBeUndefined();
  });

  it('500 → server-error modal', async () => {
    await reply(500, { message: 'boom' });
    await expect(api.check()).rejects.toMatchObject({ status: 500 });
    expect(getPopup()).toEqual({ kind: 'serverError' });
  });

  it('500 on a guest call → server-error modal too', async () => {
    await reply(500, { message: 'boom' });
    await expect(api.login({ login: 'a@b.io', password: 'x' })).rejects.toBeInstanceOf(ApiError);
    expect(getPopup()).toEqual({ kind: 'serverError' });
  });

  it('network failure → server-error modal', async () => {
    configureApi({ baseUrl: 'http://127.0.0.1:9' });
    await expect(api.check()).rejects.toMatchObject({ status: 0 });
    expect(getPopup()).toEqual({ kind: 'serverError' });
    configureApi({ baseUrl: '' });
  });

  it('a success body that breaks the contract → server-error modal', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await reply(200, { unexpected: true });
    await expect(api.check()).rejects.toMatchObject({ status: 500 });
    expect(getPopup()).toEqual({ kind: 'serverError' });
  });

  it('403 on an authenticated call → access-forbidden popup; OK clears the current team', async () => {
    localStorage.setItem(STORAGE_KEYS.currentTeamId, '12');
    await reply(403, { message: MSG.forbidden });
    await expect(api.getUser(1)).rejects.toMatchObject({ status: 403 });
    expect(getPopup()).toEqual({ kind: 'forbidden' });
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    confirmPopup();
    vi.unstubAllGlobals();
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBeNull();
    expect(getPopup()).toBeNull();
  });

  it('401 on an authenticated call → token removed and back to /', async () => {
    await reply(401, { message: MSG.unauthorized });
    await expect(api.check()).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
    expect(getPopup()).toBeNull();
  });

  it('guest errors go back to the caller: no popup, message and field errors kept', async () => {
    await reply(401, { message: MSG.incorrectLogin });
    const err = await api.login({ login: 'a@b.io', password: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).body.message).toBe(MSG.incorrectLogin);
    expect(getPopup()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok');

    await server?.close();
    await reply(400, { message: MSG.validationFailed, errors: { login: MSG.invalidEmail } });
    const err2 = (await api
      .recoverPassword({ login: 'x', url: 'http://h/' })
      .catch((e: unknown) => e)) as ApiError;
    expect(err2.status).toBe(400);
    expect(err2.fieldErrors).toEqual({ login: MSG.invalidEmail });
    expect(getPopup()).toBeNull();
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
    expect(getPopup()).toBeNull();
  });
});

describe('popup host', () => {
  const renderHost = () =>
    render(
      <MantineProvider>
        <PopupHost />
      </MantineProvider>,
    );
  afterEach(() => act(() => dismissPopup()));

  it('shows the server-error texts with Ok', async () => {
    let server: Server | null = await startTestServer(() => ({ status: 500, body: { message: 'x' } }));
    renderHost();
    await act(async () => {
      await api.check().catch(() => {});
    });
    expect(await screen.findByText(MSG.serverErrorTitle)).toBeInTheDocument();
    expect(screen.getByText(MSG.serverErrorText)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ok' }));
    expect(getPopup()).toBeNull();
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
    expect(getPopup()).toBeNull();
  });
});
