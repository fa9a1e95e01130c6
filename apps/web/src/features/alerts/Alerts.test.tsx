import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ENDPOINTS,
  EventCode,
  MSG,
  MSG_ALERTS,
  PATHS,
  STORAGE_KEYS,
  type TAlertDelivery,
  type TAlertPreview,
  type TAlertRule,
} from '@tlprt/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveReactions } from '../../app/live/reactions';
import { dispatchLive } from '../../platform/live/bus';
import AlertsRoute from '../../routes/alerts';
import { buildDomain, buildKey, buildTeam, buildUser, domainList } from '../../test/fixtures';
import { on, type Routes, renderSignedIn, startApi } from '../../test/session';

// Only the canvas renderer is replaced: the option the preview hands to ECharts is recorded.
const charts = vi.hoisted(() => ({ options: [] as Array<Record<string, unknown>> }));
vi.mock('./echarts', () => ({
  createPreviewChart: () => ({
    setOption: (o: Record<string, unknown>) => charts.options.push(o),
    resize: () => {},
    dispose: () => {},
  }),
}));

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  charts.options.length = 0;
  await api?.close();
  api = null;
});

const SECRET = `whsec_${'s'.repeat(43)}`;
const KEY_A = buildKey({ id: 1, name: 'Main player' });
const KEY_B = buildKey({ id: 2, name: 'Backup player' });

function rule(over: Partial<TAlertRule> = {}): TAlertRule {
  return {
    id: 1,
    name: 'P2P share dropped',
    metric: 'p2pShare',
    op: 'below',
    threshold: 40,
    windowMinutes: 5,
    minViewers: 10,
    keys: [],
    emailRoles: [10],
    webhookUrl: null,
    state: 'ok',
    firingSince: null,
    lastValue: 62.5,
    lastEvaluatedAt: '2024-03-04T12:30:00.000Z',
    history: [],
    createdAt: '2024-03-01T10:00:00.000Z',
    updatedAt: '2024-03-01T10:00:00.000Z',
    ...over,
  };
}

function delivery(over: Partial<TAlertDelivery> = {}): TAlertDelivery {
  return {
    id: 'dlv_1',
    type: 'alert.test',
    createdAt: '2024-03-04T12:00:00.000Z',
    state: 'delivered',
    nextAttemptAt: null,
    attempts: [{ at: '2024-03-04T12:00:00.000Z', status: 200, durationMs: 42, error: null }],
    ...over,
  };
}

const FIRING = rule({
  id: 2,
  name: 'Refused bytes jump',
  metric: 'rejectedBytes',
  op: 'above',
  threshold: 5_000_000,
  windowMinutes: 1,
  minViewers: 0,
  keys: [KEY_A.keyHash, KEY_B.keyHash],
  emailRoles: [10, 30],
  webhookUrl: 'https://hooks.example.com/tlprt?x=1',
  state: 'firing',
  firingSince: '2024-03-04T12:01:00.000Z',
  lastValue: 12_500_000,
  history: [
    {
      id: 9,
      openedAt: '2024-03-04T12:01:00.000Z',
      resolvedAt: null,
      openValue: 12_500_000,
      resolveValue: null,
    },
    {
      id: 8,
      openedAt: '2024-03-03T08:00:00.000Z',
      resolvedAt: '2024-03-03T08:20:00.000Z',
      openValue: 7_000_000,
      resolveValue: 1_000,
    },
  ],
});

const ok = <T,>(data: T, status = 200) => ({ status, body: { message: 'ok', data } });
const calls = (method: string, url: string) =>
  api?.requests.filter((r) => r.method === method && r.url === url) ?? [];

async function open(opts: { role?: number; suspended?: number; rules?: TAlertRule[]; routes?: Routes } = {}) {
  const team = buildTeam({ role: opts.role ?? 10, suspended: opts.suspended ?? 0 });
  const state = { rules: opts.rules ?? [] };
  api = await startApi({
    user: buildUser({ TeamsRender: [team] }),
    routes: {
      [on(ENDPOINTS.alerts.list, 5)]: () => ok(state.rules),
      [on(ENDPOINTS.domains.list, 5)]: {
        status: 200,
        body: domainList([buildDomain({ keys: [KEY_A, KEY_B] })]),
      },
      [on(ENDPOINTS.alerts.preview, 5)]: ok({ points: [] }),
      ...opts.routes,
    },
  });
  renderSignedIn(
    <>
      <LiveReactions />
      <AlertsRoute />
    </>,
    '/alerts',
    5,
  );
  return state;
}

const card = (name: string) => screen.getByRole('article', { name });
type User = ReturnType<typeof userEvent.setup>;
/** A field's new text in one input event: typing key by key re-renders the whole form each time, which
 *  is slow in jsdom (the two form tests that fill many fields get 60 s). */
async function fill(user: User, input: HTMLElement, text: string) {
  await user.clear(input);
  if (text) {
    await user.click(input);
    await user.paste(text);
  }
}

describe('Alerts screen', () => {
  it('lists the rules: condition in words, keys, channels, state badge, firing since, last value', async () => {
    await open({ rules: [rule(), FIRING] });
    expect(await screen.findByText('P2P share dropped')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.routeName)).toBe('alerts');
    const okCard = card('P2P share dropped');
    expect(within(okCard).getByText('P2P share below 40% over 5 min, ≥ 10 viewers')).toBeInTheDocument();
    expect(within(okCard).getByText(MSG_ALERTS.stateOk)).toBeInTheDocument();
    expect(within(okCard).getByText(MSG_ALERTS.allKeys)).toBeInTheDocument();
    expect(within(okCard).getByText('E-mail: Admin')).toBeInTheDocument();
    expect(within(okCard).getByText(/^62\.5% at 4 March 2024/)).toBeInTheDocument();

    const firing = card('Refused bytes jump');
    expect(within(firing).getByText('Refused peer bytes above 5 MB over 1 min')).toBeInTheDocument();
    expect(within(firing).getByText(MSG_ALERTS.stateFiring)).toBeInTheDocument();
    expect(within(firing).getByText(/^Firing since 4 March 2024/)).toBeInTheDocument();
    expect(await within(firing).findByText('Main player, Backup player')).toBeInTheDocument();
    expect(within(firing).getByText('E-mail: Admin, Key master')).toBeInTheDocument();
    expect(within(firing).getByText('Webhook: hooks.example.com')).toBeInTheDocument();
    expect(within(firing).getByText(/^12\.5 MB at/)).toBeInTheDocument();
    expect(screen.getByText(MSG_ALERTS.count(2, 20))).toBeInTheDocument();

    // History: the incidents the list answered, opened on demand.
    const user = userEvent.setup();
    const historyButton = within(firing).getByRole('button', { name: MSG_ALERTS.historyNamed(FIRING.name) });
    expect(historyButton).toHaveAttribute('aria-expanded', 'false');
    await user.click(historyButton);
    expect(historyButton).toHaveAttribute('aria-expanded', 'true');
    expect(within(firing).getByText(MSG_ALERTS.incidentOpen)).toBeInTheDocument();
    expect(within(firing).getByText('Value 7 MB, then 1 kB')).toBeInTheDocument();
    await user.click(
      within(okCard).getByRole('button', { name: MSG_ALERTS.historyNamed('P2P share dropped') }),
    );
    expect(within(okCard).getByText(MSG_ALERTS.noHistory)).toBeInTheDocument();
  });

  it('empty: the hint and, for a manager, a create button', async () => {
    await open();
    expect(await screen.findByText(MSG_ALERTS.empty)).toBeInTheDocument();
    expect(screen.getByText(MSG_ALERTS.emptyHint)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG_ALERTS.create })).toBeInTheDocument();
  });

  it('a Viewer sees every rule read-only: no create, edit, delete, test or rotate', async () => {
    await open({ role: 40, rules: [FIRING] });
    const firing = await screen.findByRole('article', { name: FIRING.name });
    expect(
      within(firing).getByRole('button', { name: MSG_ALERTS.historyNamed(FIRING.name) }),
    ).toBeInTheDocument();
    expect(
      within(firing).getByRole('button', { name: MSG_ALERTS.deliveriesNamed(FIRING.name) }),
    ).toBeInTheDocument();
    for (const name of [
      MSG_ALERTS.editNamed(FIRING.name),
      MSG_ALERTS.deleteNamed(FIRING.name),
      MSG_ALERTS.sendTestNamed(FIRING.name),
      MSG_ALERTS.rotateNamed(FIRING.name),
    ])
      expect(within(firing).queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MSG_ALERTS.create })).not.toBeInTheDocument();
  });

  it('a Viewer of an empty team gets no create button', async () => {
    await open({ role: 40 });
    expect(await screen.findByText(MSG_ALERTS.empty)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MSG_ALERTS.create })).not.toBeInTheDocument();
  });

  it('a suspended team: the banner, no changes, but rules may still be deleted', async () => {
    await open({ suspended: 1, rules: [FIRING] });
    const firing = await screen.findByRole('article', { name: FIRING.name });
    expect(screen.getByTestId('suspended-banner')).toBeInTheDocument();
    expect(within(firing).queryByRole('button', { name: MSG_ALERTS.editNamed(FIRING.name) })).toBeNull();
    expect(
      within(firing).getByRole('button', { name: MSG_ALERTS.deleteNamed(FIRING.name) }),
    ).toBeInTheDocument();
  });

  it('create: the schema checks the fields, and a 400 lands on its field', async () => {
    await open({
      routes: {
        [on(ENDPOINTS.alerts.create, 5)]: {
          status: 400,
          body: { message: MSG.validationFailed, errors: { webhookUrl: MSG_ALERTS.webhookPrivate } },
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: MSG_ALERTS.create }));
    const dialog = await screen.findByRole('dialog', { name: MSG_ALERTS.create });
    const submit = () => user.click(within(dialog).getByRole('button', { name: MSG_ALERTS.create }));
    const field = (label: string) => within(dialog).getByLabelText(label);

    // The schema's own messages: a name is required, a threshold a number, a URL http(s).
    await fill(user, field(MSG_ALERTS.thresholdLabel), '');
    await fill(user, field(MSG_ALERTS.webhookLabel), 'ftp://x');
    await submit();
    expect(await within(dialog).findByText(MSG.required)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG_ALERTS.threshold)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG_ALERTS.webhookUrl)).toBeInTheDocument();
    expect(calls('POST', PATHS.alerts.create(5))).toHaveLength(0);

    // A key chosen, a role added; the server refuses the URL's address: shown on its field.
    await fill(user, field(MSG_ALERTS.nameLabel), '  Share drop ');
    await fill(user, field(MSG_ALERTS.thresholdLabel), '35');
    await fill(user, field(MSG_ALERTS.webhookLabel), 'https://10.0.0.1/hook');
    await user.click(field(MSG_ALERTS.keysLabel));
    // Mantine's dropdown is still in its opening transition for jsdom's accessibility tree.
    await user.click(await screen.findByRole('option', { name: 'Main player', hidden: true }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Key master' }));
    await submit();
    expect(await within(dialog).findByText(MSG_ALERTS.webhookPrivate)).toBeInTheDocument();
    expect(calls('POST', PATHS.alerts.create(5))[0]?.body).toEqual({
      name: 'Share drop',
      metric: 'p2pShare',
      op: 'below',
      threshold: 35,
      windowMinutes: 5,
      minViewers: 10,
      keys: [KEY_A.keyHash],
      emailRoles: [10, 30],
      webhookUrl: 'https://10.0.0.1/hook',
    });
    expect(screen.getByRole('dialog', { name: MSG_ALERTS.create })).toBeInTheDocument();
  }, 60_000);

  it('create: the secret is shown once, and the creation’s live event does not close it', async () => {
    const state = await open({
      routes: {
        [on(ENDPOINTS.alerts.create, 5)]: (req) => {
          const created = { ...rule({ id: 3 }), ...(req.body as object), webhookSecret: SECRET };
          state.rules = [created];
          return ok(created, 201);
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: MSG_ALERTS.create }));
    const dialog = await screen.findByRole('dialog', { name: MSG_ALERTS.create });
    await fill(user, within(dialog).getByLabelText(MSG_ALERTS.nameLabel), 'Share drop');
    await fill(user, within(dialog).getByLabelText(MSG_ALERTS.webhookLabel), 'https://hooks.example.com/a');
    await user.click(within(dialog).getByRole('button', { name: MSG_ALERTS.create }));
    const secretDialog = await screen.findByRole('dialog', { name: MSG_ALERTS.secretTitle });
    expect(within(secretDialog).getByText(SECRET)).toBeInTheDocument();
    expect(within(secretDialog).getByText(MSG_ALERTS.secretShownOnce)).toBeInTheDocument();
    expect(within(secretDialog).getByRole('button', { name: /^Copy/ })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: MSG_ALERTS.create })).not.toBeInTheDocument(),
    );
    // The modals manager's modals close on any live event; this one is the screen's own and stays.
    act(() => dispatchLive({ code: EventCode.AlertChanged, team_id: 5, alert_id: 3 } as never));
    expect(await screen.findByRole('article', { name: 'Share drop' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: MSG_ALERTS.secretTitle })).toBeInTheDocument();
    await user.click(within(secretDialog).getByRole('button', { name: MSG_ALERTS.done }));
    await waitFor(() => expect(screen.queryByText(SECRET)).not.toBeInTheDocument());
  });

  it('edit: starts from the rule, sends it whole with PUT; no secret, no secret modal', async () => {
    const state = await open({
      rules: [FIRING],
      routes: {
        [on(ENDPOINTS.alerts.update, 5, 2)]: (req) => {
          const saved = { ...FIRING, ...(req.body as object) };
          state.rules = [saved];
          return ok({ ...saved, webhookSecret: null });
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: MSG_ALERTS.editNamed(FIRING.name) }));
    const dialog = await screen.findByRole('dialog', { name: MSG_ALERTS.edit });
    expect(within(dialog).getByLabelText(MSG_ALERTS.nameLabel)).toHaveValue(FIRING.name);
    expect(within(dialog).getByText(MSG_ALERTS.thresholdBytes('5 MB'))).toBeInTheDocument();
    const windowInput = within(dialog).getByLabelText(MSG_ALERTS.windowLabel);
    await fill(user, windowInput, '');
    await user.click(within(dialog).getByRole('button', { name: MSG_ALERTS.save }));
    expect(await within(dialog).findByText(MSG_ALERTS.windowMinutes)).toBeInTheDocument();
    await fill(user, windowInput, '3');
    await user.click(within(dialog).getByRole('button', { name: MSG_ALERTS.save }));
    await waitFor(() => expect(calls('PUT', PATHS.alerts.update(5, 2))).toHaveLength(1));
    expect(calls('PUT', PATHS.alerts.update(5, 2))[0]?.body).toMatchObject({
      windowMinutes: 3,
      keys: FIRING.keys,
      emailRoles: [10, 30],
      webhookUrl: FIRING.webhookUrl,
    });
    expect(await screen.findByText('Refused peer bytes above 5 MB over 3 min')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }, 60_000);

  it('delete asks first, then deletes', async () => {
    const state = await open({
      rules: [rule(), FIRING],
      routes: {
        [on(ENDPOINTS.alerts.remove, 5, 2)]: () => {
          state.rules = state.rules.filter((r) => r.id !== 2);
          return { status: 200, body: { message: MSG_ALERTS.deleted } };
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: MSG_ALERTS.deleteNamed(FIRING.name) }));
    const dialog = await screen.findByRole('dialog', { name: MSG_ALERTS.deleteTitle });
    expect(within(dialog).getByText(MSG_ALERTS.deleteText(FIRING.name))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('DELETE', PATHS.alerts.remove(5, 2))).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: MSG_ALERTS.deleteNamed(FIRING.name) }));
    await user.click(
      within(await screen.findByRole('dialog', { name: MSG_ALERTS.deleteTitle })).getByRole('button', {
        name: MSG_ALERTS.delete,
      }),
    );
    await waitFor(() => expect(calls('DELETE', PATHS.alerts.remove(5, 2))).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('article', { name: FIRING.name })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'P2P share dropped' })).toBeInTheDocument();
  });

  it('Send test shows delivered, or failed with the attempt; the delivery log loads when opened', async () => {
    let testAnswer = delivery();
    const log = [
      delivery({
        id: 'dlv_2',
        type: 'alert.opened',
        state: 'pending',
        nextAttemptAt: '2024-03-04T12:05:00.000Z',
        attempts: [
          { at: '2024-03-04T12:01:00.000Z', status: 503, durationMs: 120, error: null },
          { at: '2024-03-04T12:01:30.000Z', status: null, durationMs: 10_000, error: 'Timed out' },
        ],
      }),
    ];
    await open({
      rules: [FIRING],
      routes: {
        [on(ENDPOINTS.alerts.test, 5, 2)]: () => ok(testAnswer),
        [on(ENDPOINTS.alerts.deliveries, 5, 2)]: () => ok(log),
      },
    });
    const user = userEvent.setup();
    const firing = await screen.findByRole('article', { name: FIRING.name });
    await user.click(within(firing).getByRole('button', { name: MSG_ALERTS.sendTestNamed(FIRING.name) }));
    expect(await within(firing).findByText(MSG_ALERTS.testSent)).toBeInTheDocument();
    expect(within(firing).getByText(/HTTP 200 · 42 ms/)).toBeInTheDocument();

    testAnswer = delivery({
      state: 'pending',
      attempts: [{ at: '2024-03-04T12:00:00.000Z', status: 503, durationMs: 80, error: null }],
    });
    await user.click(within(firing).getByRole('button', { name: MSG_ALERTS.sendTestNamed(FIRING.name) }));
    expect(await within(firing).findByText(MSG_ALERTS.testFailed)).toBeInTheDocument();
    expect(within(firing).getByText(/HTTP 503 · 80 ms/)).toBeInTheDocument();

    expect(calls('GET', PATHS.alerts.deliveries(5, 2))).toHaveLength(0);
    await user.click(within(firing).getByRole('button', { name: MSG_ALERTS.deliveriesNamed(FIRING.name) }));
    const row = await within(firing).findByTestId('delivery');
    expect(within(row).getByText('alert.opened')).toBeInTheDocument();
    expect(within(row).getByText(MSG_ALERTS.deliveryPending)).toBeInTheDocument();
    expect(within(row).getByText(/^Next attempt 4 March 2024/)).toBeInTheDocument();
    expect(within(row).getByText(/HTTP 503 · 120 ms/)).toBeInTheDocument();
    expect(within(row).getByText(/no answer · 10000 ms · Timed out/)).toBeInTheDocument();

    // A live event of this team refreshes the list and the open log; another team's does not.
    const before = calls('GET', PATHS.alerts.deliveries(5, 2)).length;
    const listed = calls('GET', PATHS.alerts.list(5)).length;
    act(() => dispatchLive({ code: EventCode.AlertChanged, team_id: 6, alert_id: 2 } as never));
    act(() => dispatchLive({ code: EventCode.AlertChanged, team_id: 5, alert_id: 2 } as never));
    await waitFor(() => expect(calls('GET', PATHS.alerts.deliveries(5, 2)).length).toBe(before + 1));
    expect(calls('GET', PATHS.alerts.list(5)).length).toBe(listed + 1);
  });

  it('Rotate secret asks first, then shows the new secret once', async () => {
    await open({
      rules: [FIRING],
      routes: { [on(ENDPOINTS.alerts.rotateSecret, 5, 2)]: () => ok({ webhookSecret: SECRET }) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: MSG_ALERTS.rotateNamed(FIRING.name) }));
    const confirm = await screen.findByRole('dialog', { name: MSG_ALERTS.rotateTitle });
    expect(within(confirm).getByText(MSG_ALERTS.rotateText)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: MSG_ALERTS.rotateSecret }));
    const secretDialog = await screen.findByRole('dialog', { name: MSG_ALERTS.secretTitle });
    expect(within(secretDialog).getByText(SECRET)).toBeInTheDocument();
    expect(calls('POST', PATHS.alerts.rotateSecret(5, 2))).toHaveLength(1);
  });

  it('the preview: drawn against the threshold when there is data, an empty state when not', async () => {
    const points: TAlertPreview['points'] = [
      { t: 1_709_550_000, value: 55 },
      { t: 1_709_550_600, value: null },
      { t: 1_709_551_200, value: 31 },
    ];
    let answer: TAlertPreview['points'] = [];
    await open({ routes: { [on(ENDPOINTS.alerts.preview, 5)]: () => ok({ points: answer }) } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: MSG_ALERTS.create }));
    const dialog = await screen.findByRole('dialog', { name: MSG_ALERTS.create });
    expect(await within(dialog).findByText(MSG_ALERTS.previewEmpty)).toBeInTheDocument();
    expect(calls('POST', PATHS.alerts.preview(5))[0]?.body).toEqual({
      metric: 'p2pShare',
      windowMinutes: 5,
      minViewers: 10,
      keys: [],
    });

    answer = points;
    await fill(user, within(dialog).getByLabelText(MSG_ALERTS.windowLabel), '15');
    expect(await within(dialog).findByTestId('alert-preview')).toBeInTheDocument();
    await waitFor(() => expect(charts.options.length).toBeGreaterThan(0));
    const option = charts.options.at(-1) as { series: Array<{ name: string; data: unknown[] }> };
    expect(option.series.map((s) => s.name)).toEqual(['P2P share', MSG_ALERTS.thresholdSeries]);
    expect(option.series[0]?.data).toEqual([
      [1_709_550_000_000, 55],
      [1_709_550_600_000, null],
      [1_709_551_200_000, 31],
    ]);
    expect(option.series[1]?.data).toEqual([
      [1_709_550_000_000, 40],
      [1_709_551_200_000, 40],
    ]);
    // Debounced: the cleared field (no valid question) was never asked about.
    const asked = calls('POST', PATHS.alerts.preview(5)).map(
      (r) => (r.body as { windowMinutes: number }).windowMinutes,
    );
    expect(asked).toEqual([5, 15]);
  });

  it('a failed load says so and retries', async () => {
    let fail = true;
    await open({
      routes: {
        [on(ENDPOINTS.alerts.list, 5)]: () =>
          fail ? { status: 404, body: { message: 'Not found' } } : ok([rule()]),
      },
    });
    expect(await screen.findByText(MSG_ALERTS.loadFailed)).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: MSG_ALERTS.retry }));
    expect(await screen.findByRole('article', { name: 'P2P share dropped' })).toBeInTheDocument();
  });
});
