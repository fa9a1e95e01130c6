import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ENDPOINTS,
  MSG,
  MSG_HASHES,
  MSG_TOKENS,
  PATHS,
  PLAYER_PATHS,
  STORAGE_KEYS,
  type TTeamToken,
} from '@tlprt/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statsExportCurl } from '../../platform/integration/export-example';
import { hashPushCurl } from '../../platform/integration/hashes-example';
import { exportUsage, SCOPE_BADGE, SCOPE_CHOICE, SCOPE_LABEL } from '../../platform/integration/scopes';
import { TeamSettings } from '../../routes/settings/TeamSettings';
import { buildDetail, buildTeam, buildUser } from '../../test/fixtures';
import { on, type Routes, renderSignedIn, startApi } from '../../test/session';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});
beforeEach(() => localStorage.setItem(STORAGE_KEYS.settingsTab, '1'));

const TOKEN = `tlprt_api_${'A'.repeat(43)}`;
const token = (over: Partial<TTeamToken> = {}): TTeamToken => ({
  id: 7,
  name: 'Encoder EU',
  scope: 'ingest',
  createdAt: '2024-03-03T10:00:00.000Z',
  createdBy: 'owner@example.test',
  lastUsedAt: null,
  ...over,
});

async function open(
  role: number,
  opts: { supervisor?: boolean; suspended?: number; tokens?: TTeamToken[]; routes?: Routes } = {},
) {
  const team = buildTeam({ role, suspended: opts.suspended ?? 0 });
  api = await startApi({
    user: buildUser({ supervisor: opts.supervisor ?? false, TeamsRender: [team] }),
    detail: buildDetail(team),
    routes: {
      [on(ENDPOINTS.teamTokens.list, 5)]: { status: 200, body: { message: 'ok', data: opts.tokens ?? [] } },
      ...opts.routes,
    },
  });
  renderSignedIn(<TeamSettings />);
  await screen.findByText('Team info');
  return api;
}

const card = () => screen.getByRole('region', { name: MSG_TOKENS.title });

describe('API tokens in Team settings', () => {
  it('Admin: lists tokens (no secret), creates one and sees it once with how to use it', async () => {
    const server = await open(10, {
      tokens: [
        token(),
        token({ id: 8, name: 'Backup', createdBy: null, lastUsedAt: '2024-03-04T12:30:00.000Z' }),
      ],
      routes: {
        [on(ENDPOINTS.teamTokens.create, 5)]: {
          status: 201,
          body: { message: 'created', data: { ...token({ id: 9, name: 'Shipper' }), token: TOKEN } },
        },
      },
    });
    expect(await within(card()).findByText('Encoder EU')).toBeInTheDocument();
    // Who made each, while that account exists.
    expect(within(card()).getByText('Created 3 March 2024 by owner@example.test')).toBeInTheDocument();
    expect(within(card()).getByText('Created 3 March 2024')).toBeInTheDocument();
    expect(within(card()).getAllByText(MSG_TOKENS.neverUsed)).toHaveLength(1);
    expect(within(card()).getByText(/Last used 4 March 2024/)).toBeInTheDocument();
    expect(within(card()).getByText('2 of 10')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(card()).getByRole('button', { name: MSG_TOKENS.create }));
    expect(await within(card()).findByText(MSG.required)).toBeInTheDocument();
    await user.type(within(card()).getByLabelText(MSG_TOKENS.nameLabel), '  Shipper ');
    await user.click(within(card()).getByRole('button', { name: MSG_TOKENS.create }));
    const dialog = await screen.findByRole('dialog', { name: MSG_TOKENS.createdTitle });
    expect(within(dialog).getByText(TOKEN)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG_TOKENS.shownOnce)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG_TOKENS.usage(PATHS.statistics.ingest))).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /Copy/ })).toBeInTheDocument();
    expect(within(dialog).queryByText(/stats\/v1\/export/)).not.toBeInTheDocument();
    // The scope was left at its default.
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Shipper',
      scope: 'ingest',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(card()).getByLabelText(MSG_TOKENS.nameLabel)).toHaveValue('');
  });

  it('lists each token with its scope', async () => {
    await open(10, {
      tokens: [token(), token({ id: 8, name: 'Reporting', scope: 'statistics' })],
    });
    const rows = await within(card()).findAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Encoder EU');
    expect(within(rows[0] as HTMLElement).getByText(SCOPE_BADGE.ingest)).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).queryByText(SCOPE_BADGE.statistics)).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Reporting');
    expect(within(rows[1] as HTMLElement).getByText(SCOPE_BADGE.statistics)).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).queryByText(SCOPE_BADGE.ingest)).not.toBeInTheDocument();
  });

  it('creates a statistics token by keyboard: the scope is sent and the secret comes with an export example', async () => {
    const server = await open(10, {
      routes: {
        [on(ENDPOINTS.teamTokens.create, 5)]: {
          status: 201,
          body: {
            message: 'created',
            data: { ...token({ id: 9, name: 'Reporting', scope: 'statistics' }), token: TOKEN },
          },
        },
      },
    });
    await within(card()).findByText(MSG_TOKENS.empty);
    const group = within(card()).getByRole('radiogroup', { name: SCOPE_LABEL });
    const ingest = within(group).getByRole('radio', { name: SCOPE_CHOICE.ingest.label });
    const stats = within(group).getByRole('radio', { name: SCOPE_CHOICE.statistics.label });
    expect(ingest).toBeChecked();
    expect(stats).not.toBeChecked();

    const user = userEvent.setup();
    await user.type(within(card()).getByLabelText(MSG_TOKENS.nameLabel), 'Reporting');
    // Tab to the group (its checked radio), an arrow key to the next scope.
    await user.tab();
    expect(ingest).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(stats).toBeChecked();
    expect(ingest).not.toBeChecked();
    await user.click(within(card()).getByRole('button', { name: MSG_TOKENS.create }));

    const dialog = await screen.findByRole('dialog', { name: MSG_TOKENS.createdTitle });
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Reporting',
      scope: 'statistics',
    });
    expect(within(dialog).getByText(TOKEN)).toBeInTheDocument();
    expect(within(dialog).getByText(exportUsage(ENDPOINTS.statistics.export.path))).toBeInTheDocument();
    expect(within(dialog).queryByText(MSG_TOKENS.usage(PATHS.statistics.ingest))).not.toBeInTheDocument();
    const example = statsExportCurl(window.location.origin, TOKEN);
    expect(example).toBe(
      `curl -H "Authorization: Bearer ${TOKEN}" "${window.location.origin}/stats/v1/export?range=day&keys=YOUR_SERVICE_KEY&format=csv"`,
    );
    expect(within(dialog).getByText(example)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy Example' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The form is back to its default scope.
    expect(ingest).toBeChecked();
  });

  it('creates a hashes token: the scope is sent and the secret comes with a push example', async () => {
    const server = await open(10, {
      tokens: [token({ id: 3, name: 'Packager', scope: 'hashes' })],
      routes: {
        [on(ENDPOINTS.teamTokens.create, 5)]: {
          status: 201,
          body: {
            message: 'created',
            data: { ...token({ id: 9, name: 'Packager EU', scope: 'hashes' }), token: TOKEN },
          },
        },
      },
    });
    // Listed with its badge.
    expect(await within(card()).findByText(SCOPE_BADGE.hashes)).toBeInTheDocument();
    const group = within(card()).getByRole('radiogroup', { name: SCOPE_LABEL });
    const hashes = within(group).getByRole('radio', { name: SCOPE_CHOICE.hashes.label });
    expect(SCOPE_CHOICE.hashes.label).toBe(MSG_HASHES.scopeLabel);
    expect(within(group).getByText(SCOPE_CHOICE.hashes.description)).toBeInTheDocument();
    expect(SCOPE_CHOICE.hashes.description).toContain(`POST ${PLAYER_PATHS.hashes}: publish segment hashes`);

    const user = userEvent.setup();
    await user.type(within(card()).getByLabelText(MSG_TOKENS.nameLabel), 'Packager EU');
    await user.click(hashes);
    expect(hashes).toBeChecked();
    await user.click(within(card()).getByRole('button', { name: MSG_TOKENS.create }));

    const dialog = await screen.findByRole('dialog', { name: MSG_TOKENS.createdTitle });
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Packager EU',
      scope: 'hashes',
    });
    expect(within(dialog).getByText(MSG_HASHES.usage(PLAYER_PATHS.hashes))).toBeInTheDocument();
    const example = hashPushCurl(window.location.origin, TOKEN);
    expect(example).toContain(`-H "Authorization: Bearer ${TOKEN}"`);
    expect(example).toContain(`"${window.location.origin}${PLAYER_PATHS.hashes}"`);
    expect(within(dialog).getByText(example)).toBeInTheDocument();
    expect(within(dialog).queryByText(MSG_TOKENS.usage(PATHS.statistics.ingest))).not.toBeInTheDocument();
  });

  it('revokes after a confirmation', async () => {
    const server = await open(10, {
      tokens: [token()],
      routes: {
        [on(ENDPOINTS.teamTokens.revoke, 5, 7)]: { status: 200, body: { message: MSG_TOKENS.revoked } },
      },
    });
    const user = userEvent.setup();
    await user.click(await within(card()).findByRole('button', { name: 'Revoke Encoder EU' }));
    const dialog = await screen.findByRole('dialog', { name: MSG_TOKENS.revokeTitle });
    expect(within(dialog).getByText(MSG_TOKENS.revokeText('Encoder EU'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: MSG_TOKENS.revoke }));
    await waitFor(() => expect(server.requests.some((r) => r.method === 'DELETE')).toBe(true));
  });

  it('shows the limit, the server’s 409 and the empty state', async () => {
    await open(10, {
      routes: {
        [on(ENDPOINTS.teamTokens.create, 5)]: { status: 409, body: { message: MSG_TOKENS.limitReached } },
      },
    });
    expect(await within(card()).findByText(MSG_TOKENS.empty)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(within(card()).getByLabelText(MSG_TOKENS.nameLabel), 'One more');
    await user.click(within(card()).getByRole('button', { name: MSG_TOKENS.create }));
    expect(await within(card()).findByRole('alert')).toHaveTextContent(MSG_TOKENS.limitReached);

    await open(10, { tokens: Array.from({ length: 10 }, (_, i) => token({ id: i + 1, name: `t${i}` })) });
    expect(await within(card()).findByText(MSG_TOKENS.limitReached)).toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: MSG_TOKENS.create })).toBeDisabled();
  });

  it('a suspended team lists them read-only; a failed list says so', async () => {
    await open(10, { suspended: 1, tokens: [token()] });
    expect(await within(card()).findByText('Encoder EU')).toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: MSG_TOKENS.create })).toBeDisabled();
    expect(within(card()).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();

    await open(10, {
      routes: { [on(ENDPOINTS.teamTokens.list, 5)]: { status: 500, body: { message: 'x' } } },
    });
    expect(await within(card()).findByText(MSG.serverErrorText)).toBeInTheDocument();
  });

  it.each([
    [30, 'Key master'],
    [40, 'Viewer'],
  ])('role %i (%s) does not see the block nor asks for it', async (role) => {
    const server = await open(role);
    expect(screen.queryByRole('region', { name: MSG_TOKENS.title })).not.toBeInTheDocument();
    expect(server.requests.some((r) => r.url.includes('/tokens'))).toBe(false);
  });

  it("a Billing master sees and manages them (the team's traffic and bill are theirs)", async () => {
    await open(20, { tokens: [token()] });
    expect(await within(card()).findByRole('button', { name: 'Revoke Encoder EU' })).toBeInTheDocument();
  });

  it('a supervisor sees and manages them', async () => {
    await open(40, { supervisor: true, tokens: [token()] });
    expect(await within(card()).findByRole('button', { name: 'Revoke Encoder EU' })).toBeInTheDocument();
  });
});
