import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ENDPOINTS,
  KEY_SETTING_HELP,
  MSG_DOMAINS,
  MSG_TEAMS,
  PATHS,
  PLAYER_HELP,
  STORAGE_KEYS,
  type TDomain,
  type TSupervisorSettingRow,
} from '@tlprt/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveReactions } from '../../app/live/reactions';
import { dispatchLive } from '../../platform/live/bus';
import IntegrationRoute from '../../routes/integration';
import { buildDomain, buildKey, buildTeam, buildUser, domainList } from '../../test/fixtures';
import { on, type Routes, renderSignedIn, startApi } from '../../test/session';
import { MyDomains } from './MyDomains';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  vi.unstubAllGlobals();
  await api?.close();
  api = null;
});

const ok = { status: 200, body: { message: 'ok' } };
/** A success answering the changed key or domain, as the server does. */
const okWith = (data: unknown) => ({ status: 200, body: { message: 'ok', data } });

async function open(
  domains: TDomain[],
  opts: {
    role?: number;
    supervisor?: boolean;
    suspended?: number;
    routes?: Routes;
    route?: boolean;
    live?: boolean;
  } = {},
) {
  const team = buildTeam({ role: opts.role ?? 10, suspended: opts.suspended ?? 0 });
  api = await startApi({
    user: buildUser({ supervisor: opts.supervisor ?? false, TeamsRender: [team] }),
    routes: {
      [on(ENDPOINTS.domains.list, 5)]: () => ({ status: 200, body: domainList(domains) }),
      [on(ENDPOINTS.dictionaries.dictionaries, 45)]: { status: 404, body: { message: 'Not found' } },
      ...opts.routes,
    },
  });
  const screenUi = opts.route ? <IntegrationRoute /> : <MyDomains />;
  renderSignedIn(
    opts.live ? (
      <>
        <LiveReactions />
        {screenUi}
      </>
    ) : (
      screenUi
    ),
    '/integration',
    5,
  );
  return api;
}
const calls = (method: string, url: string) =>
  api?.requests.filter((r) => r.method === method && r.url === url) ?? [];

const key = buildKey({ id: 1, name: '' });
const active = buildDomain({ id: 11, url: 'example.com', keys: [key] });
const inactive = buildDomain({ id: 12, url: 'old.example.org', status: { id: 20, name: 'Inactive' } });

/** Panels open through a requestAnimationFrame transition: let it run. */
const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 50)));
async function expand(host: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Domain ${host}` }));
  await settle();
}

describe('My domains: access and empty states', () => {
  it('role 40 is redirected to /settings and the route name is stored', async () => {
    await open([], { role: 40, route: true });
    expect(await screen.findByTestId('location')).toHaveTextContent('/settings');
    expect(localStorage.getItem(STORAGE_KEYS.routeName)).toBe('integration');
  });

  it('others: "You haven\'t added any domain yet", "Go to add domains" and the support note', async () => {
    await open([], { role: 30, route: true });
    expect(await screen.findByText(MSG_DOMAINS.emptyOther)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: MSG_DOMAINS.goToAddDomains })).toHaveAttribute(
      'href',
      '/addDomains',
    );
    expect(screen.getByText(/Questions\? Contact/)).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBe('5');
  });

  it('role 40: "Your team haven\'t added any domain yet", without the button', async () => {
    await open([], { role: 40 });
    expect(await screen.findByText(MSG_DOMAINS.emptyViewer)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: MSG_DOMAINS.goToAddDomains })).not.toBeInTheDocument();
  });
});

describe('My domains: lists and keys', () => {
  it('splits Active and Inactive, "Open all tabs" opens every panel, key row shows its columns', async () => {
    await open([active, inactive, buildDomain({ id: 13, url: 'draft.io', draft: { id: 0 } })]);
    expect(await screen.findByRole('heading', { name: MSG_DOMAINS.activeDomains })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: MSG_DOMAINS.inactiveDomains })).toBeInTheDocument();
    expect(screen.queryByText('draft.io')).not.toBeInTheDocument();
    const toggle = screen.getByRole('switch', { name: MSG_DOMAINS.openAllTabs });
    await userEvent.click(toggle);
    await settle();
    expect(screen.getByRole('button', { name: 'Domain example.com' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Domain old.example.org' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    const table = screen.getByRole('table', { name: 'Keys of example.com' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Service key', 'Name', 'Created', 'Status', 'Actions']);
    expect(within(table).getByLabelText(`Key name ${key.keyHash}`)).toHaveAttribute(
      'placeholder',
      'name key',
    );
    expect(within(table).getByText('3 March 2024')).toBeInTheDocument();
    expect(within(table).getByText('Active')).toBeInTheDocument();
    // "Generate new token" only for the active domain
    expect(screen.getAllByRole('button', { name: MSG_DOMAINS.generateToken })).toHaveLength(1);
  });

  it('a Billing master (20) manages domains and keys like a Key master (spec §6)', async () => {
    await open([active], { role: 20 });
    await expand('example.com');
    expect(screen.getByRole('button', { name: MSG_DOMAINS.generateToken })).toBeEnabled();
    const table = screen.getByRole('table', { name: 'Keys of example.com' });
    expect(within(table).getByLabelText(`Key name ${key.keyHash}`)).toBeEnabled();
  });

  it('"Open all tabs" is not shown with a single domain', async () => {
    await open([active]);
    await screen.findByRole('button', { name: 'Domain example.com' });
    expect(screen.queryByRole('switch', { name: MSG_DOMAINS.openAllTabs })).not.toBeInTheDocument();
  });

  it('lists the keys for all domains (domainId null) in an "All domains" group', async () => {
    const everywhere = buildKey({ id: 7, name: 'Everywhere', domainId: null });
    await open([active], {
      routes: {
        [on(ENDPOINTS.domains.list, 5)]: () => ({
          status: 200,
          body: domainList([active], [], [everywhere]),
        }),
      },
    });
    const group = await screen.findByRole('region', { name: 'All domains' });
    expect(within(group).getByRole('table', { name: 'Keys of All domains' })).toBeInTheDocument();
    expect(within(group).getByDisplayValue('Everywhere')).toBeInTheDocument();
  });

  it('renames a key on blur and on Enter', async () => {
    await open([active], { routes: { [on(ENDPOINTS.keys.rename, 5, 1)]: okWith(key) } });
    await expand('example.com');
    const input = screen.getByLabelText(`Key name ${key.keyHash}`);
    await userEvent.type(input, 'Main player');
    expect(calls('PUT', PATHS.keys.rename(5, 1))).toHaveLength(0);
    await userEvent.tab();
    await waitFor(() => expect(calls('PUT', PATHS.keys.rename(5, 1))).toHaveLength(1));
    expect(calls('PUT', PATHS.keys.rename(5, 1))[0]?.body).toEqual({ name: 'Main player' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Second{Enter}');
    await waitFor(() => expect(calls('PUT', PATHS.keys.rename(5, 1))).toHaveLength(2));
    expect(calls('PUT', PATHS.keys.rename(5, 1))[1]?.body).toEqual({ name: 'Second' });
  });

  it('a status-40 key shows the warning and disabled name and power controls', async () => {
    const restricted = buildKey({ id: 2, status: 40, suspended: 1 });
    await open([buildDomain({ keys: [restricted] })]);
    await expand('example.com');
    expect(screen.getByText(MSG_DOMAINS.keySuspendedWarning)).toBeInTheDocument();
    expect(screen.getByLabelText(`Key name ${restricted.keyHash}`)).toBeDisabled();
    expect(screen.getByRole('switch', { name: `Active ${restricted.keyHash}` })).toBeDisabled();
  });

  it('delete key: Confirm stays disabled until the exact key is typed', async () => {
    await open([active], { routes: { [on(ENDPOINTS.keys.remove, 5, 1)]: ok } });
    await expand('example.com');
    await userEvent.click(screen.getByRole('button', { name: `Delete key ${key.keyHash}` }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Confirm' });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Key'), key.keyHash.slice(0, -1));
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Key'), `${key.keyHash.slice(-1)}x`);
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Key'), '{Backspace}');
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    await waitFor(() => expect(calls('DELETE', PATHS.keys.remove(5, 1))).toHaveLength(1));
  });

  it('deactivating a key asks for confirmation; activating is immediate', async () => {
    const off = buildKey({ id: 3, status: 20 });
    await open([buildDomain({ keys: [key, off] })], {
      routes: {
        [on(ENDPOINTS.keys.toggleActive, 5, 1)]: okWith(key),
        [on(ENDPOINTS.keys.toggleActive, 5, 3)]: okWith(off),
      },
    });
    await expand('example.com');
    await userEvent.click(screen.getByRole('switch', { name: `Active ${off.keyHash}` }));
    await waitFor(() => expect(calls('GET', PATHS.keys.toggleActive(5, 3))).toHaveLength(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('switch', { name: `Active ${key.keyHash}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate key' });
    expect(calls('GET', PATHS.keys.toggleActive(5, 1))).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls('GET', PATHS.keys.toggleActive(5, 1))).toHaveLength(1));
  });

  it('"Generate new token" creates a key for that domain and refetches', async () => {
    await open([active], {
      routes: {
        [on(ENDPOINTS.keys.create, 5, 11)]: {
          status: 201,
          body: { message: 'created', data: buildKey({ id: 9 }) },
        },
      },
    });
    await expand('example.com');
    const before = calls('POST', PATHS.domains.list(5)).length;
    await userEvent.click(screen.getByRole('button', { name: MSG_DOMAINS.generateToken }));
    await waitFor(() => expect(calls('POST', PATHS.keys.create(5, 11))).toHaveLength(1));
    await waitFor(() => expect(calls('POST', PATHS.domains.list(5)).length).toBeGreaterThan(before));
  });

  it('domain deactivate and delete go through a confirmation ("cannot be undone")', async () => {
    await open([active, inactive], {
      routes: {
        [on(ENDPOINTS.domains.toggleActive, 5, 11)]: okWith(active),
        [on(ENDPOINTS.domains.remove, 5, 12)]: ok,
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate domain example.com' }));
    let dialog = await screen.findByRole('dialog', { name: 'Deactivate domain' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls('GET', PATHS.domains.toggleActive(5, 11))).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(screen.getByRole('button', { name: 'Activate domain old.example.org' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete domain old.example.org' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete domain' });
    expect(dialog).toHaveTextContent('cannot be undone');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('DELETE', PATHS.domains.remove(5, 12))).toHaveLength(0);
  });

  it('suspended team: banner, blurred body, controls disabled', async () => {
    await open([active], { suspended: 1 });
    expect(await screen.findByTestId('suspended-banner')).toHaveTextContent(MSG_TEAMS.teamSuspendedNotice);
    expect(screen.getByTestId('domains-body')).toHaveClass('team-suspended');
    expect(screen.getByRole('button', { name: 'Deactivate domain example.com' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete domain example.com' })).toBeDisabled();
    await expand('example.com');
    expect(screen.getByLabelText(`Key name ${key.keyHash}`)).toBeDisabled();
    expect(screen.getByRole('switch', { name: `Active ${key.keyHash}` })).toBeDisabled();
    expect(screen.getByRole('button', { name: MSG_DOMAINS.generateToken })).toBeDisabled();
  });
});

describe('My domains: plain HTTP pages', () => {
  const plainSwitch = () =>
    screen.getByRole('switch', { name: `${MSG_DOMAINS.plainHttpLabel} of example.com` });

  it('shows the option with its help in the panel; turning it on is immediate', async () => {
    const plain = buildDomain({ plainHttp: true });
    await open([active], { routes: { [on(ENDPOINTS.domains.setPlainHttp, 5, 11)]: okWith(plain) } });
    await expand('example.com');
    expect(plainSwitch()).not.toBeChecked();
    expect(screen.getByText(MSG_DOMAINS.plainHttpHelp)).toBeInTheDocument();
    await userEvent.click(plainSwitch());
    await waitFor(() => expect(calls('PUT', PATHS.domains.setPlainHttp(5, 11))).toHaveLength(1));
    expect(calls('PUT', PATHS.domains.setPlainHttp(5, 11))[0]?.body).toEqual({ plainHttp: true });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('turning it off asks for confirmation, then sends false', async () => {
    const plain = buildDomain({ plainHttp: true });
    await open([plain], { routes: { [on(ENDPOINTS.domains.setPlainHttp, 5, 11)]: okWith(active) } });
    await expand('example.com');
    expect(plainSwitch()).toBeChecked();
    await userEvent.click(plainSwitch());
    const dialog = await screen.findByRole('dialog', { name: MSG_DOMAINS.plainHttpOffTitle });
    expect(dialog).toHaveTextContent(MSG_DOMAINS.plainHttpOffConfirm('example.com'));
    expect(calls('PUT', PATHS.domains.setPlainHttp(5, 11))).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls('PUT', PATHS.domains.setPlainHttp(5, 11))).toHaveLength(1));
    expect(calls('PUT', PATHS.domains.setPlainHttp(5, 11))[0]?.body).toEqual({ plainHttp: false });
  });

  it('a suspended team sees it disabled and makes no call', async () => {
    await open([buildDomain({ plainHttp: true })], { suspended: 1 });
    await expand('example.com');
    expect(plainSwitch()).toBeChecked();
    expect(plainSwitch()).toBeDisabled();
    await userEvent.click(plainSwitch());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls('PUT', PATHS.domains.setPlainHttp(5, 11))).toHaveLength(0);
  });
});

describe('My domains: supervisor', () => {
  const rows: TSupervisorSettingRow[] = [
    {
      param_name: 'download_timeout',
      param_id: 12,
      param_default: 5,
      param_client: 7,
      override_client: 1,
      param_domain: null,
      override_domain: 0,
      param_api_key: null,
      override_api_key: 0,
      prod_value: 7,
      override_production: 1,
      domain_id: 11,
      key_id: 1,
    },
    {
      param_name: 'min_buffer',
      param_id: 13,
      param_default: 10,
      param_client: null,
      override_client: 0,
      param_domain: null,
      override_domain: 0,
      param_api_key: 3,
      override_api_key: 1,
      prod_value: 3,
      override_production: 1,
      domain_id: 11,
      key_id: 1,
    },
  ];

  it('suspend domain is offered only to supervisors', async () => {
    await open([active]);
    await screen.findByRole('button', { name: 'Domain example.com' });
    expect(screen.queryByRole('button', { name: 'Suspend domain example.com' })).not.toBeInTheDocument();
  });

  it('suspend domain and key modals call the supervisor endpoints', async () => {
    await open([buildDomain({ keys: [key], suspended: 1 })], {
      supervisor: true,
      routes: { [on(ENDPOINTS.domains.suspend, 5, 11)]: okWith(active) },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Unsuspend domain example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsuspend domain' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls('POST', PATHS.domains.suspend(5, 11))).toHaveLength(1));
  });

  it('supervisor settings: numeric text → number, empty → null, saved by layer', async () => {
    await open([active], {
      supervisor: true,
      routes: {
        [on(ENDPOINTS.keySettings.readSupervisor, 5, 1)]: {
          status: 200,
          body: { message: 'ok', data: rows },
        },
        [on(ENDPOINTS.keySettings.setSupervisorByKey, 5)]: ok,
        [on(ENDPOINTS.keySettings.setSupervisorByTeam, 5)]: ok,
      },
    });
    await expand('example.com');
    await userEvent.click(screen.getByRole('button', { name: `Supervisor settings ${key.keyHash}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Supervisor settings' });
    const keyBuffer = await within(dialog).findByLabelText('Key value Min buffer size, s');
    expect(keyBuffer).toHaveValue('3');
    await userEvent.clear(keyBuffer);
    const keyTimeout = within(dialog).getByLabelText('Key value Download timeout, s');
    await userEvent.type(keyTimeout, ' 12 ');
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Key override Download timeout, s' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save key' }));
    await waitFor(() => expect(calls('POST', PATHS.keySettings.setSupervisorByKey(5))).toHaveLength(1));
    expect(calls('POST', PATHS.keySettings.setSupervisorByKey(5))[0]?.body).toEqual({
      domainId: 11,
      keyId: 1,
      teamId: 5,
      settings: [
        { id: 12, value: 12, settingOverwrite: 1 },
        { id: 13, value: null, settingOverwrite: 1 },
      ],
    });
    // a non-numeric value is refused before any call
    const teamTimeout = within(dialog).getByLabelText('Team value Download timeout, s');
    await userEvent.clear(teamTimeout);
    await userEvent.type(teamTimeout, 'abc');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save team' }));
    expect(await within(dialog).findByText('Must be a number')).toBeInTheDocument();
    expect(calls('POST', PATHS.keySettings.setSupervisorByTeam(5))).toHaveLength(0);
  });

  it('key settings modal shows current/default values and "Soon..." controls', async () => {
    await open([active], {
      routes: {
        [on(ENDPOINTS.keySettings.read, 5, 11, 1)]: {
          status: 200,
          body: {
            message: 'ok',
            data: [
              { id: 12, currentValue: 8, defaultValue: 5, supervisorValue: null },
              { id: 101, currentValue: 60, defaultValue: 100, supervisorValue: 0 },
            ],
          },
        },
      },
    });
    await expand('example.com');
    await userEvent.click(screen.getByRole('button', { name: `Key settings ${key.keyHash}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Key settings' });
    expect(await within(dialog).findByText('Download timeout, s')).toBeInTheDocument();
    expect(within(dialog).getAllByText(MSG_DOMAINS.soon)).toHaveLength(2);
    expect(within(dialog).getByText('8')).toBeInTheDocument();
    // Help texts with units (spec §5), and a supervisor's value for the key in force over the customer's.
    expect(within(dialog).getByText(KEY_SETTING_HELP[12] ?? '')).toBeInTheDocument();
    expect(within(dialog).getByText(KEY_SETTING_HELP[101] ?? '')).toBeInTheDocument();
    expect(within(dialog).getByText(PLAYER_HELP.segmentDuration)).toBeInTheDocument();
    expect(within(dialog).getByText(PLAYER_HELP.downloadUpload)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG_TEAMS.setBySupervisor)).toBeInTheDocument();
    expect(within(dialog).queryByText('60')).not.toBeInTheDocument();
  });
});

describe('My domains: live events', () => {
  it.each([60, 62, 90, 91, 92])('%i refetches domains and keys', async (code) => {
    await open([active], { live: true });
    await screen.findByRole('button', { name: 'Domain example.com' });
    const before = calls('POST', PATHS.domains.list(5)).length;
    act(() => dispatchLive({ code, team_id: 5 } as never));
    await waitFor(() => expect(calls('POST', PATHS.domains.list(5)).length).toBeGreaterThan(before));
  });

  it('61 shows "A domain has been deleted", OK reloads', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    await open([active], { live: true });
    await screen.findByRole('button', { name: 'Domain example.com' });
    act(() => dispatchLive({ code: 61, team_id: 5, deleted_domain: 11 } as never));
    expect(await screen.findByText(MSG_TEAMS.evDomainDeleted)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(reload).toHaveBeenCalled();
  });
});
