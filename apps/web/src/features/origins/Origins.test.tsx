import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, MSG, MSG_DOMAINS, PATHS, STORAGE_KEYS, type TOrigin } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import OriginsRoute from '../../routes/origins';
import { buildOrigin, buildTeam, buildUser } from '../../test/fixtures';
import { on, renderSignedIn, startApi } from '../../test/session';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});
const ok = { status: 200, body: { message: 'ok' } };
const calls = (method: string, url: string) =>
  api?.requests.filter((r) => r.method === method && r.url === url) ?? [];
const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 50)));

async function open(state: { origins: TOrigin[] }, role = 10) {
  const team = buildTeam({ role });
  api = await startApi({
    user: buildUser({ TeamsRender: [team] }),
    routes: {
      [on(ENDPOINTS.origins.list, 5)]: () => ({
        status: 200,
        body: { message: 'ok', data: state.origins },
      }),
      [on(ENDPOINTS.origins.create, 5)]: (req) => {
        const name = (req.body as { name: string }).name;
        const o = buildOrigin({ id: 9, name });
        state.origins = [...state.origins, o];
        return { status: 201, body: { message: 'created', data: o } };
      },
      [on(ENDPOINTS.origins.toggle, 5, 1)]: () => ({
        status: 200,
        body: { message: 'ok', data: state.origins.find((o) => o.id === 1) },
      }),
      [on(ENDPOINTS.origins.remove, 5, 1)]: () => {
        state.origins = state.origins.filter((o) => o.id !== 1);
        return ok;
      },
    },
  });
  renderSignedIn(<OriginsRoute />, '/origins', 5);
}

describe('Origins', () => {
  it('"Add origin" opens a name input: required, max 30, Add creates it, Cancel closes', async () => {
    const state = { origins: [] as TOrigin[] };
    await open(state);
    expect(await screen.findByText('No origins yet')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.routeName)).toBe('origins');
    await userEvent.click(screen.getByRole('button', { name: MSG_DOMAINS.addOrigin }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Origin name')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: MSG_DOMAINS.addOrigin }));
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(MSG.required)).toBeInTheDocument();
    const input = screen.getByLabelText('Origin name');
    expect(input).toHaveAttribute('maxLength', '30');
    await userEvent.type(input, `  ${'x'.repeat(40)}`);
    expect((input as HTMLInputElement).value.length).toBe(30);
    await userEvent.clear(input);
    await userEvent.type(input, '  Main storage ');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls('POST', PATHS.origins.create(5))).toHaveLength(1));
    expect(calls('POST', PATHS.origins.create(5))[0]?.body).toEqual({ name: 'Main storage' });
    expect(await screen.findByText('o9-t5.cdn.localhost')).toBeInTheDocument();
  });

  it('rows: url, "Suspended" label, power toggle, delete with confirmation, accordion details', async () => {
    const state = {
      origins: [
        buildOrigin({ id: 1 }),
        buildOrigin({ id: 2, status: { id: 20, name: 'Inactive' }, suspended: 1 }),
      ],
    };
    await open(state);
    expect(await screen.findByText('o1-t5.cdn.localhost')).toBeInTheDocument();
    expect(screen.getByText(MSG_DOMAINS.suspendedLabel)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Active o1-t5.cdn.localhost' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Active o2-t5.cdn.localhost' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('switch', { name: 'Active o1-t5.cdn.localhost' }));
    await waitFor(() => expect(calls('GET', PATHS.origins.toggle(5, 1))).toHaveLength(1));

    await userEvent.click(screen.getByRole('button', { name: 'Origin o2-t5.cdn.localhost' }));
    await settle();
    const visible = (el: HTMLElement) => {
      for (let n: HTMLElement | null = el; n; n = n.parentElement)
        if (n.style.display === 'none') return false;
      return true;
    };
    expect(screen.getAllByText('Status name').filter(visible)).toHaveLength(1);
    expect(screen.getByText('Inactive')).toBeInTheDocument();
    expect(screen.getAllByText('3 March 2024').length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete origin o1-t5.cdn.localhost' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete origin' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls('DELETE', PATHS.origins.remove(5, 1))).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('o1-t5.cdn.localhost')).not.toBeInTheDocument());
  });

  it('role 40 is read-only', async () => {
    await open({ origins: [buildOrigin({ id: 1 })] }, 40);
    expect(await screen.findByText('o1-t5.cdn.localhost')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MSG_DOMAINS.addOrigin })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Active o1-t5.cdn.localhost' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Delete origin/ })).not.toBeInTheDocument();
  });
});
