import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZE,
  ENDPOINTS,
  MSG_TEAM_MANAGEMENT,
  PATHS,
  STORAGE_KEYS,
  type TAuditEntry,
  type TTeamListItem,
} from '@tlprt/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Sidebar } from '../../app/layout/Sidebar';
import { pageReload } from '../../platform/api/navigation';
import { buildTeam, buildUser } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { type Recorded, startTestServer } from '../../test/server';
import { on, renderSignedIn, startApi } from '../../test/session';
import { TeamManagementPanel } from './TeamManagementPanel';

/** 15 June 2026, 12:00 local time: the panel's clock in these tests. */
const NOW = new Date(2026, 5, 15, 12, 0, 0).getTime();

function listItem(id: number, over: Partial<TTeamListItem> = {}): TTeamListItem {
  return { ...buildTeam({ id, name: `Team ${id}`, role: 50 }), members: 2, tags: [], ...over };
}

type Server = Awaited<ReturnType<typeof startTestServer>>;
let server: Server | null = null;
/** The supervisor history the local API answers, per team. */
const history = new Map<number, TAuditEntry[]>();
afterEach(async () => {
  await server?.close();
  server = null;
  history.clear();
});

/** A real local API with `total` teams (ids 1..total), paginated as the server does. */
async function openPanel(opts: { total?: number; teams?: (id: number) => Partial<TTeamListItem> } = {}) {
  const total = opts.total ?? 3;
  const state = new Map<number, TTeamListItem>();
  for (let id = 1; id <= total; id++) state.set(id, listItem(id, opts.teams?.(id)));
  server = await startTestServer((req: Recorded) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && req.url === PATHS.teams.search) {
      const page = Number(body.page ?? 1);
      const limit = Number(body.limit ?? 20);
      const all = [...state.values()];
      return {
        status: 200,
        body: {
          message: 'ok',
          data: all.slice((page - 1) * limit, page * limit),
          pagination: { total: all.length, page, limit },
        },
      };
    }
    const m = /^\/api\/v1\/teams\/(\d+)\/(favourite|tag\/add|tag\/remove)$/.exec(req.url);
    const team = m ? state.get(Number(m[1])) : undefined;
    if (m && team && req.method === 'PUT') {
      if (m[2] === 'favourite') {
        team.favourite = !team.favourite;
        return {
          status: 200,
          body: { message: 'ok', data: { team_id: team.id, favourite: team.favourite } },
        };
      }
      const tag = String(body.tag).trim();
      if (m[2] === 'tag/add') {
        if (team.tags.includes(tag))
          return {
            status: 409,
            body: { message: 'This tag already exists', errors: { tag: 'This tag already exists' } },
          };
        team.tags = [...team.tags, tag];
      } else team.tags = team.tags.filter((t) => t !== tag);
      return { status: 200, body: { message: 'ok', data: { team_id: team.id, tags: team.tags } } };
    }
    const h = /^\/api\/v1\/supervisor\/audit\?team_id=(\d+)&page=(\d+)$/.exec(req.url);
    if (h && req.method === 'GET') {
      const entries = history.get(Number(h[1])) ?? [];
      const page = Number(h[2]);
      return {
        status: 200,
        body: {
          message: 'ok',
          data: entries.slice((page - 1) * AUDIT_PAGE_SIZE, page * AUDIT_PAGE_SIZE),
          pagination: { page, limit: AUDIT_PAGE_SIZE, total: entries.length },
        },
      };
    }
    return undefined;
  });
  localStorage.setItem(STORAGE_KEYS.token, 'tok');
  renderScreen(<TeamManagementPanel opened onClose={() => {}} now={() => NOW} />);
  await screen.findByText(`${total} ${total === 1 ? 'team' : 'teams'}`);
  return server;
}

const searches = () =>
  (server?.requests ?? [])
    .filter((r) => r.method === 'POST' && r.url === PATHS.teams.search)
    .map((r) => r.body as Record<string, unknown>);
const lastSearch = () => searches().at(-1);

describe('the panel button', () => {
  it('is shown to supervisors only', async () => {
    const api = await startApi({ user: buildUser({ supervisor: false }) });
    const first = renderSignedIn(<Sidebar onNavigate={() => {}} />);
    await screen.findByRole('button', { name: 'Logout' });
    expect(screen.queryByRole('button', { name: 'Team management' })).not.toBeInTheDocument();
    first.unmount();
    await api.close();

    const sup = await startApi({
      user: buildUser({ supervisor: true }),
      routes: {
        [on(ENDPOINTS.teams.search)]: {
          status: 200,
          body: { message: 'ok', data: [listItem(7)], pagination: { total: 1, page: 1, limit: 10 } },
        },
      },
    });
    renderSignedIn(<Sidebar onNavigate={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Team management' }));
    expect(
      await screen.findByPlaceholderText('Search team by Name or ID or Tag or E-mail'),
    ).toBeInTheDocument();
    expect(await screen.findByTestId('team-card-7')).toBeInTheDocument();
    await sup.close();
  });
});

describe('filters build the request', () => {
  it('first page of 10 cards; search text (debounced), favourites, status; clear filters', async () => {
    await openPanel();
    expect(searches()[0]).toEqual({ page: 1, limit: 10, scroll: 0, favourite: 0 });
    const user = userEvent.setup();
    await user.type(screen.getByPlaceholderText('Search team by Name or ID or Tag or E-mail'), 'ops@acme');
    await waitFor(() => expect(lastSearch()).toMatchObject({ general: 'ops@acme' }));
    // Debounced: one request for the whole word, not one per key stroke.
    expect(searches().filter((b) => typeof b.general === 'string')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Favourites only' }));
    await waitFor(() => expect(lastSearch()).toMatchObject({ general: 'ops@acme', favourite: 2 }));

    await user.click(screen.getByRole('button', { name: /^Status filter/ }));
    await user.click(await screen.findByRole('checkbox', { name: 'Active' }));
    await waitFor(() => expect(lastSearch()).toMatchObject({ statuses: [10, 30] }));
    expect(lastSearch()).not.toHaveProperty('suspended');
    await user.click(screen.getByRole('checkbox', { name: 'Suspended' }));
    await waitFor(() => expect(lastSearch()).toMatchObject({ statuses: [10, 30], suspended: 1 }));
    await user.click(screen.getByRole('checkbox', { name: 'Active' }));
    await waitFor(() => expect(lastSearch()).not.toHaveProperty('statuses'));
    expect(lastSearch()).toMatchObject({ suspended: 1 });

    await user.click(screen.getByRole('button', { name: 'clear filters' }));
    // Back to the unfiltered list (cached from the first request).
    expect(screen.getByRole('button', { name: 'Status filter: Status' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Favourites only' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByPlaceholderText('Search team by Name or ID or Tag or E-mail')).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'clear filters' })).not.toBeInTheDocument();
  });

  it('date presets give epoch-second ranges ending now; Clear all removes the range', async () => {
    await openPanel();
    const user = userEvent.setup();
    const now = Math.floor(NOW / 1000);
    const cases: Array<[string, number]> = [
      ['Today', Math.floor(new Date(2026, 5, 15).getTime() / 1000)],
      ['Last 7 days', now - 7 * 86400],
      ['Last 30 days', now - 30 * 86400],
      ['Last year', now - 365 * 86400],
    ];
    for (const [label, start] of cases) {
      await user.click(screen.getByRole('button', { name: /^Creation date filter/ }));
      await user.click(await screen.findByRole('button', { name: label }));
      await waitFor(() => expect(lastSearch()).toMatchObject({ start_time: start, end_time: now }));
      expect(screen.getByRole('button', { name: `Creation date filter: ${label}` })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: /^Creation date filter/ }));
    await user.click(await screen.findByRole('button', { name: 'Clear all' }));
    expect(
      await screen.findByRole('button', { name: 'Creation date filter: Creation date' }),
    ).toBeInTheDocument();
  });

  it('a custom range of past days; future days cannot be picked; Cancel changes nothing', async () => {
    await openPanel();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Creation date filter/ }));
    const dialog = await screen.findByRole('group', { name: 'Creation date' });
    const day = (n: number) =>
      within(dialog)
        .getAllByRole('button', { name: new RegExp(`^${n} June 2026$`) })
        .find((b) => !b.hasAttribute('data-outside')) as HTMLElement;
    expect(day(16)).toBeDisabled();
    expect(day(15)).not.toBeDisabled();
    const before = searches().length;
    await user.click(day(16));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(searches()).toHaveLength(before);

    await user.click(day(3));
    await user.click(day(10));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(lastSearch()).toMatchObject({
        start_time: new Date(2026, 5, 3).getTime() / 1000,
        end_time: (new Date(2026, 5, 11).getTime() - 1000) / 1000,
      }),
    );
    expect(
      screen.getByRole('button', { name: 'Creation date filter: 03.06.2026 – 10.06.2026' }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Creation date filter/ }));
    const count = searches().length;
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(searches()).toHaveLength(count);
    expect(lastSearch()).toMatchObject({ start_time: new Date(2026, 5, 3).getTime() / 1000 });
  });
});

describe("a team's history (docs/DESIGN.md §12)", () => {
  const entry = (id: number, over: Partial<TAuditEntry>): TAuditEntry => ({
    id,
    action: AUDIT_ACTIONS.tagAdded,
    actorId: 9,
    actorEmail: 'sue@ops.example',
    teamId: 2,
    targetType: 'team',
    targetId: 2,
    target: 'Team 2',
    oldValue: null,
    newValue: 'vip',
    createdAt: '2026-06-15T09:30:00.000Z',
    ...over,
  });

  it('opens from the card: who did what and when, old → new, newest first; older pages on demand', async () => {
    history.set(2, [
      entry(30, { action: AUDIT_ACTIONS.teamSuspended, oldValue: 'active', newValue: 'suspended' }),
      entry(29, {
        action: AUDIT_ACTIONS.settingsKey,
        targetType: 'key',
        target: 'Main player',
        oldValue: '{"101":null}',
        newValue: '{"101":{"value":0,"override":1}}',
      }),
      ...Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => entry(28 - i, {})),
    ]);
    await openPanel({ total: 2 });
    const user = userEvent.setup();
    await user.click(
      within(screen.getByTestId('team-card-2')).getByRole('button', { name: 'History of Team 2' }),
    );
    const dialog = await screen.findByRole('dialog', { name: `${MSG_TEAM_MANAGEMENT.history}: Team 2` });
    expect(await within(dialog).findByText(AUDIT_ACTION_LABELS['team.suspended'])).toBeInTheDocument();
    expect(within(dialog).getByText('active → suspended')).toBeInTheDocument();
    expect(within(dialog).getByText('101: inherited → 101: 0')).toBeInTheDocument();
    expect(within(dialog).getByText(/key Main player/)).toBeInTheDocument();
    expect(within(dialog).getAllByText(/sue@ops\.example/).length).toBeGreaterThan(0);
    expect(within(dialog).getByText(`${AUDIT_PAGE_SIZE + 2} entries`)).toBeInTheDocument();
    expect(within(dialog).getAllByText(AUDIT_ACTION_LABELS['team.tag_added'])).toHaveLength(
      AUDIT_PAGE_SIZE - 2,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Show older' }));
    await waitFor(() =>
      expect(within(dialog).getAllByText(AUDIT_ACTION_LABELS['team.tag_added'])).toHaveLength(
        AUDIT_PAGE_SIZE,
      ),
    );
    expect(within(dialog).queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
  });

  it('says so when nothing was recorded', async () => {
    await openPanel({ total: 1 });
    await userEvent.click(screen.getByRole('button', { name: 'History of Team 1' }));
    expect(await screen.findByText(MSG_TEAM_MANAGEMENT.historyEmpty)).toBeInTheDocument();
  });
});

describe('the list', () => {
  it('loads page 2 when scrolled to 99% and kept there 100 ms', async () => {
    await openPanel({ total: 25 });
    expect(screen.getAllByTestId(/^team-card-/)).toHaveLength(10);
    const list = screen.getByTestId('team-list');
    Object.defineProperty(list, 'scrollHeight', { configurable: true, value: 2000 });
    Object.defineProperty(list, 'clientHeight', { configurable: true, value: 500 });
    // At 80%: nothing.
    list.scrollTop = 1100;
    fireEvent.scroll(list);
    await act(() => new Promise((r) => setTimeout(r, 150)));
    expect(searches()).toHaveLength(1);
    list.scrollTop = 1485; // (1485 + 500) / 2000 = 99.25%
    fireEvent.scroll(list);
    await waitFor(() => expect(searches()).toHaveLength(2));
    expect(lastSearch()).toEqual({ page: 2, limit: 10, scroll: 1, favourite: 0 });
    await waitFor(() => expect(screen.getAllByTestId(/^team-card-/)).toHaveLength(20));
  });

  it('a list still at its end when a page arrives loads the next one (a scroll made while loading counts)', async () => {
    await openPanel({ total: 25 });
    const list = screen.getByTestId('team-list');
    Object.defineProperty(list, 'scrollHeight', { configurable: true, value: 2000 });
    Object.defineProperty(list, 'clientHeight', { configurable: true, value: 500 });
    list.scrollTop = 1500;
    fireEvent.scroll(list);
    // Page 2 arrives with the list still at its end: page 3 follows without another scroll event.
    await waitFor(() => expect(searches()).toHaveLength(3));
    expect(lastSearch()).toMatchObject({ page: 3 });
    await waitFor(() => expect(screen.getAllByTestId(/^team-card-/)).toHaveLength(25));
    await act(() => new Promise((r) => setTimeout(r, 150)));
    expect(searches()).toHaveLength(3);
  });

  it('cards show the team; star toggles; tags are added on Enter and deleted with x', async () => {
    await openPanel({
      total: 2,
      teams: (id) => (id === 2 ? { suspended: 1, tags: ['vip'], members: 4 } : {}),
    });
    const card = screen.getByTestId('team-card-2');
    expect(within(card).getByText('SUSPENDED')).toBeInTheDocument();
    expect(within(card).getByText('Team 2')).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    expect(within(card).getByText('4')).toBeInTheDocument();
    expect(within(card).getByText('1 January 2024')).toBeInTheDocument();
    const user = userEvent.setup();

    const star = within(card).getByRole('button', { name: 'Add Team 2 to favourites' });
    expect(star).toHaveAttribute('aria-pressed', 'false');
    await user.click(star);
    await waitFor(() =>
      expect(within(card).getByRole('button', { name: 'Remove Team 2 from favourites' })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    );

    const input = within(card).getByRole('textbox', { name: 'Add a tag to Team 2' });
    await user.type(input, '  enterprise {Enter}');
    await waitFor(() => expect(within(card).getByText('enterprise')).toBeInTheDocument());
    expect(input).toHaveValue('');
    const put = server?.requests.find((r) => r.url === PATHS.teams.addTag(2));
    expect(put?.body).toEqual({ tag: 'enterprise' });
    await user.type(input, 'vip{Enter}');
    expect(await within(card).findByText('This tag already exists')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Delete tag vip of Team 2' }));
    await waitFor(() => expect(within(card).queryByText('vip')).not.toBeInTheDocument());
    expect(server?.requests.find((r) => r.url === PATHS.teams.removeTag(2))?.body).toEqual({
      tag: 'vip',
    });
  });

  it('table view asks for 20 rows and cuts names at 40 characters', async () => {
    const long = 'N'.repeat(45);
    await openPanel({ total: 2, teams: (id) => (id === 1 ? { name: long } : {}) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Table' }));
    await waitFor(() => expect(lastSearch()).toEqual({ page: 1, limit: 20, scroll: 0, favourite: 0 }));
    const row = await screen.findByTestId('team-row-1');
    expect(within(row).getByTestId('team-name')).toHaveTextContent(`${'N'.repeat(40)}…`);
    expect(within(screen.getByTestId('team-row-2')).getByTestId('team-name')).toHaveTextContent('Team 2');
    expect(screen.getByRole('columnheader', { name: 'Team ID' })).toBeInTheDocument();
  });

  it('clicking a team makes it current (id and UTC offset) and reloads', async () => {
    const reload = vi.spyOn(pageReload, 'run').mockImplementation(() => {});
    await openPanel({ total: 2, teams: (id) => ({ utcOffset: id === 2 ? 5.5 : 0 }) });
    await userEvent.click(screen.getByRole('button', { name: 'Make Team 2 the current team' }));
    expect(localStorage.getItem(STORAGE_KEYS.currentTeamId)).toBe('2');
    expect(localStorage.getItem(STORAGE_KEYS.utcOffsetTeam)).toBe('5.5');
    expect(reload).toHaveBeenCalled();
  });
});
