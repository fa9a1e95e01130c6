import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ENDPOINTS,
  MSG,
  MSG_DOMAINS,
  MSG_TEAMS,
  PATHS,
  PLAYER_KIND_HELP,
  PLAYER_PATHS,
  STORAGE_KEYS,
  type TDomain,
} from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import AddDomainsRoute from '../../routes/addDomains';
import { buildDomain, buildDraft, buildKey, buildTeam, buildUser, domainList } from '../../test/fixtures';
import { on, type Routes, renderSignedIn, startApi } from '../../test/session';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

const ok = { status: 200, body: { message: 'ok' } };
const instructions = {
  status: 200,
  body: {
    message: 'ok',
    data: {
      meta: { tag: '<meta name="tlprt-verification" content="vh-1">' },
      html: { fileName: 'tlprt-vh-1.html', content: 'vh-1', url: 'https://a.example/tlprt-vh-1.html' },
      dnsTxt: { name: '_tlprt.a.example', type: 'TXT', value: 'tlprt-verification=vh-1' },
      cname: { name: 'vh-1.a.example', type: 'CNAME', target: 'verify.tlprt.local' },
    },
  },
};

async function open(
  state: { domains: TDomain[] },
  opts: { role?: number; supervisor?: boolean; suspended?: number; routes?: Routes } = {},
) {
  const team = buildTeam({ role: opts.role ?? 10, suspended: opts.suspended ?? 0 });
  api = await startApi({
    user: buildUser({ supervisor: opts.supervisor ?? false, TeamsRender: [team] }),
    routes: {
      [on(ENDPOINTS.domains.list, 5)]: () => ({ status: 200, body: domainList(state.domains) }),
      [on(ENDPOINTS.keys.list, 5)]: { status: 200, body: { message: 'ok', data: [] } },
      [on(ENDPOINTS.dictionaries.dictionaries, 45)]: { status: 404, body: { message: 'Not found' } },
      [on(ENDPOINTS.domains.instructions, 5, 21)]: instructions,
      [on(ENDPOINTS.domains.instructions, 5, 22)]: instructions,
      ...opts.routes,
    },
  });
  renderSignedIn(<AddDomainsRoute />, '/addDomains', 5);
  return api;
}
const calls = (method: string, url: string) =>
  api?.requests.filter((r) => r.method === method && r.url === url) ?? [];

const a = buildDraft({ id: 21, url: 'a.example' });
const b = buildDraft({ id: 22, url: 'b.example' });

describe('Add domain: access', () => {
  it('role 40 goes to /settings; others load domains and dictionaries and store the route name', async () => {
    await open({ domains: [] }, { role: 40 });
    expect(await screen.findByTestId('location')).toHaveTextContent('/settings');
    await api?.close();
    await open({ domains: [] });
    expect(await screen.findByLabelText('Domain')).toBeInTheDocument();
    await waitFor(() => expect(calls('GET', PATHS.dictionaries.dictionaries(45))).toHaveLength(1));
    expect(calls('POST', PATHS.domains.list(5))).toHaveLength(1);
    expect(localStorage.getItem(STORAGE_KEYS.routeName)).toBe('addDomains');
  });
});

describe('Add domain: the domain input', () => {
  it('"Required field" when empty; the input is reduced to the bare host before it is sent', async () => {
    const state = { domains: [] as TDomain[] };
    await open(state, {
      routes: {
        [on(ENDPOINTS.domains.create, 5)]: () => {
          state.domains = [buildDraft({ id: 21, url: 'example.com' })];
          return { status: 201, body: { message: 'created', data: { id: 21, host: 'example.com' } } };
        },
        [on(ENDPOINTS.domains.instructions, 5, 21)]: instructions,
      },
    });
    const input = await screen.findByLabelText('Domain');
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText(MSG.required)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(input, 'https://www.Example.com/path?q=1');
    expect(screen.queryByText(MSG.required)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(calls('POST', PATHS.domains.create(5))).toHaveLength(1));
    expect(calls('POST', PATHS.domains.create(5))[0]?.body).toMatchObject({ url: 'example.com' });
    // the new draft becomes current, the input is emptied
    expect(await screen.findByLabelText('Current draft')).toHaveValue('example.com');
    expect(input).toHaveValue('');
    // Stored as typed: nothing to explain.
    expect(screen.queryByText(/^Saved as/)).not.toBeInTheDocument();
  });

  it('an internationalized name: says it was saved in its xn-- form', async () => {
    const state = { domains: [] as TDomain[] };
    const ascii = 'xn--vi8h.example';
    await open(state, {
      routes: {
        [on(ENDPOINTS.domains.create, 5)]: () => {
          state.domains = [buildDraft({ id: 21, url: ascii })];
          return { status: 201, body: { message: 'created', data: { id: 21, host: ascii } } };
        },
        [on(ENDPOINTS.domains.instructions, 5, 21)]: instructions,
      },
    });
    await userEvent.type(await screen.findByLabelText('Domain'), '🍕.example');
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText(MSG_DOMAINS.savedAsAscii(ascii, '🍕.example'))).toBeInTheDocument();
    expect(MSG_DOMAINS.savedAsAscii(ascii, '🍕.example')).toBe(
      'Saved as xn--vi8h.example (the internationalized form of 🍕.example)',
    );
  });

  it('the clear control empties the input', async () => {
    await open({ domains: [] });
    const input = await screen.findByLabelText('Domain');
    await userEvent.type(input, 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Clear input' }));
    expect(input).toHaveValue('');
  });

  it.each([
    [400, 'bad', MSG_DOMAINS.incorrectFormat],
    [404, 'Not found', MSG_DOMAINS.assignedToAnother],
    // Where the team has it, as the server says (not "another member").
    [406, MSG_DOMAINS.alreadyVerifiedInTeam, MSG_DOMAINS.alreadyVerifiedInTeam],
    [406, MSG_DOMAINS.alreadyVerifiedDraft, MSG_DOMAINS.alreadyVerifiedDraft],
    [409, MSG_DOMAINS.alreadyDraft, MSG_DOMAINS.alreadyDraft],
    [409, MSG_DOMAINS.maxDomains, MSG_DOMAINS.maxDomains],
  ])('server %i shows "%s" → the spec text under the input', async (status, message, text) => {
    await open(
      { domains: [] },
      { routes: { [on(ENDPOINTS.domains.create, 5)]: { status, body: { message } } } },
    );
    const input = await screen.findByLabelText('Domain');
    await userEvent.type(input, 'taken.example');
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('Add domain: drafts', () => {
  it('lists the drafts, switches between them, "New domain" disabled at 5 domains', async () => {
    const promoted = [1, 2, 3].map((i) => buildDomain({ id: 30 + i, url: `p${i}.example` }));
    await open({ domains: [...promoted, a, b] });
    // the last draft is current by default
    expect(await screen.findByLabelText('Current draft')).toHaveValue('b.example');
    const nav = screen.getByRole('list', { name: 'Draft domains' });
    await userEvent.click(within(nav).getByRole('button', { name: 'a.example' }));
    expect(screen.getByLabelText('Current draft')).toHaveValue('a.example');
    expect(within(nav).getByRole('button', { name: MSG_DOMAINS.newDomain })).toBeDisabled();
  });

  it('"New domain" shows no current draft; delete asks the spec question, then the last remaining one is current', async () => {
    const state = { domains: [a, b] };
    await open(state, {
      routes: {
        [on(ENDPOINTS.domains.remove, 5, 22)]: () => {
          state.domains = [a];
          return ok;
        },
      },
    });
    const nav = await screen.findByRole('list', { name: 'Draft domains' });
    await userEvent.click(within(nav).getByRole('button', { name: MSG_DOMAINS.newDomain }));
    expect(screen.queryByLabelText('Current draft')).not.toBeInTheDocument();
    await userEvent.click(within(nav).getByRole('button', { name: 'b.example' }));
    await userEvent.click(within(nav).getByRole('button', { name: 'Delete draft b.example' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MSG_DOMAINS.deleteDraftConfirm);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls('DELETE', PATHS.domains.remove(5, 22))).toHaveLength(1));
    await waitFor(() => expect(screen.getByLabelText('Current draft')).toHaveValue('a.example'));
  });

  it('a suspended team: banner, blurred body, no delete icons', async () => {
    await open({ domains: [a] }, { suspended: 1 });
    expect(await screen.findByTestId('suspended-banner')).toHaveTextContent(MSG_TEAMS.teamSuspendedNotice);
    expect(screen.queryByRole('button', { name: 'Delete draft a.example' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Domain')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Verify' })).toBeDisabled();
  });

  it('a suspended team: the instructions (refused to a view-only team) are never asked for', async () => {
    await open({ domains: [a] }, { suspended: 1 });
    expect(await screen.findByTestId('instructions-view-only')).toBeInTheDocument();
    expect(screen.queryByText('The instructions could not be loaded.')).not.toBeInTheDocument();
    await waitFor(() => expect(calls('POST', PATHS.keys.list(5))).toHaveLength(1));
    expect(calls('GET', PATHS.domains.instructions(5, 21))).toHaveLength(0);
  });
});

describe('Add domain: verification', () => {
  it('tabs META, HTML, dnsTXT, CNAME with copyable instructions; success text then "Your domain is verified"', async () => {
    const state = { domains: [a] };
    await open(state, {
      routes: {
        [on(ENDPOINTS.domains.verify, 5, 21)]: () => {
          state.domains = [{ ...a, status: { id: 10, name: 'Active' }, verification: { id: 1 } }];
          return { status: 200, body: { message: MSG_DOMAINS.verified, data: { verified: true, inx: 0 } } };
        },
      },
    });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.slice(0, 4).map((t) => t.textContent)).toEqual(['META', 'HTML', 'dnsTXT', 'CNAME']);
    expect(await screen.findByText(instructions.body.data.meta.tag)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'dnsTXT' }));
    expect(screen.getByText('tlprt-verification=vh-1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy TXT value' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(MSG_DOMAINS.verified)).toBeInTheDocument();
    expect(calls('PUT', PATHS.domains.verify(5, 21))[0]?.body).toEqual({ verificationMethod: 2, inx: 0 });
    expect(await screen.findByText(MSG_DOMAINS.draftVerified)).toBeInTheDocument();
    // the check mark next to the read-only URL (and in the draft list)
    expect(screen.getAllByLabelText('Verified').length).toBeGreaterThanOrEqual(2);
  });

  it('failure shows the spec text with "Try again", which resets it', async () => {
    await open(
      { domains: [a] },
      {
        routes: {
          [on(ENDPOINTS.domains.verify, 5, 21)]: {
            status: 400,
            body: { message: MSG_DOMAINS.verificationFailed },
          },
        },
      },
    );
    await screen.findByText(instructions.body.data.meta.tag);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(MSG_DOMAINS.verificationFailed)).toBeInTheDocument();
    expect(calls('PUT', PATHS.domains.verify(5, 21))[0]?.body).toEqual({ verificationMethod: 4, inx: 0 });
    expect(screen.queryByRole('button', { name: 'Verify' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: MSG_DOMAINS.tryAgain }));
    expect(screen.queryByText(MSG_DOMAINS.verificationFailed)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled();
  });

  it('the verification state is kept per draft', async () => {
    await open(
      { domains: [a, b] },
      {
        routes: {
          [on(ENDPOINTS.domains.verify, 5, 22)]: {
            status: 400,
            body: { message: MSG_DOMAINS.verificationFailed },
          },
        },
      },
    );
    await screen.findByText(instructions.body.data.meta.tag);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(MSG_DOMAINS.verificationFailed)).toBeInTheDocument();
    const nav = screen.getByRole('list', { name: 'Draft domains' });
    await userEvent.click(within(nav).getByRole('button', { name: 'a.example' }));
    expect(screen.queryByText(MSG_DOMAINS.verificationFailed)).not.toBeInTheDocument();
    await userEvent.click(within(nav).getByRole('button', { name: 'b.example' }));
    expect(screen.getByText(MSG_DOMAINS.verificationFailed)).toBeInTheDocument();
  });

  it('"Verify manually" is for supervisors only; Confirm sends method 5', async () => {
    await open({ domains: [a] });
    await screen.findByText(instructions.body.data.meta.tag);
    expect(screen.queryByRole('button', { name: 'Verify manually' })).not.toBeInTheDocument();
    await api?.close();

    await open(
      { domains: [a] },
      {
        supervisor: true,
        routes: {
          [on(ENDPOINTS.domains.verify, 5, 21)]: {
            status: 200,
            body: { message: MSG_DOMAINS.verified, data: { verified: true, inx: 0 } },
          },
        },
      },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Verify manually' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MSG_DOMAINS.bypassConfirm);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls('PUT', PATHS.domains.verify(5, 21))).toHaveLength(1));
    expect(calls('PUT', PATHS.domains.verify(5, 21))[0]?.body).toEqual({ verificationMethod: 5, inx: 0 });
  });

  it('Confirm on a verified draft promotes it; the last remaining draft becomes current', async () => {
    const verifiedB = { ...b, status: { id: 10, name: 'Active' }, verification: { id: 1 } };
    const state = { domains: [a, verifiedB] };
    await open(state, {
      routes: {
        [on(ENDPOINTS.domains.promote, 5, 22)]: () => {
          state.domains = [a, { ...verifiedB, draft: { id: 1 } }];
          return { status: 200, body: { message: 'ok', data: state.domains[1] } };
        },
      },
    });
    expect(await screen.findByText(MSG_DOMAINS.draftVerified)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls('GET', PATHS.domains.promote(5, 22))).toHaveLength(1));
    await waitFor(() => expect(screen.getByLabelText('Current draft')).toHaveValue('a.example'));
  });
});

describe('Add domain: step 2', () => {
  it('player tabs in order; the snippet carries the first active key; "Generate new token" when none', async () => {
    const withKey = { ...a, keys: [buildKey({ id: 4, status: 20 }), buildKey({ id: 5, domainId: 21 })] };
    await open({ domains: [withKey] });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.slice(4).map((t) => t.textContent)).toEqual([
      'HLS.js',
      'Shaka',
      'Clappr',
      'Bitmovin',
      'Video.js',
      'Uppod',
      'Flowplayer',
      'Other',
    ]);
    const hash = buildKey({ id: 5 }).keyHash;
    expect(screen.getByTestId('snippet-key')).toHaveTextContent(hash);
    expect(screen.getByText(/cdn\.jsdelivr\.net\/npm\/hls\.js/)).toHaveTextContent(hash);
    expect(screen.queryByRole('button', { name: MSG_DOMAINS.generateToken })).not.toBeInTheDocument();
    await api?.close();

    await open(
      { domains: [b] },
      {
        routes: {
          [on(ENDPOINTS.keys.create, 5, 0)]: {
            status: 201,
            body: { message: 'created', data: buildKey({ id: 6, domainId: null }) },
          },
        },
      },
    );
    await userEvent.click(await screen.findByRole('button', { name: MSG_DOMAINS.generateToken }));
    await waitFor(() => expect(calls('POST', PATHS.keys.create(5, 0))).toHaveLength(1));
  });
  it('the snippet loads the plugin from this dashboard and attaches it; CDN-only players say so beside it', async () => {
    const withKey = { ...a, keys: [buildKey({ id: 5, domainId: 21 })] };
    await open({ domains: [withKey] });
    const hash = buildKey({ id: 5 }).keyHash;
    const plugin = `${window.location.origin}${PLAYER_PATHS.bundle}`;
    const snippet = () =>
      screen.getByText(
        (_, el) => el?.classList.contains('code-block') === true && /TlprtP2P/.test(el.textContent ?? ''),
      );

    await screen.findByRole('tab', { name: 'HLS.js' });
    expect(snippet().textContent).toContain(`<script src="${plugin}"></script>`);
    expect(snippet().textContent).toContain(`var KEY = '${hash}';`);
    expect(snippet().textContent).toMatch(
      /TlprtP2P\.attach\(\{\s+key: KEY,\s+player: 'hls\.js',\s+instance: Hls,\s+src: SRC,/,
    );
    expect(screen.getByTestId('snippet-integration')).toHaveTextContent(PLAYER_KIND_HELP['hls.js']);
    expect(screen.getByRole('button', { name: 'Copy HLS.js snippet' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Video.js' }));
    expect(snippet().textContent).toContain("videojs.getTech('Html5').registerSourceHandler(");
    expect(screen.getByTestId('snippet-integration')).toHaveTextContent(PLAYER_KIND_HELP['hls.js']);

    await userEvent.click(screen.getByRole('tab', { name: 'Bitmovin' }));
    expect(snippet().textContent).toContain(`<script src="${plugin}"></script>`);
    expect(snippet().textContent).toContain("TlprtP2P.attach({ key: KEY, player: 'bitmovin' });");
    expect(snippet().textContent).toContain('// CDN only: Bitmovin has no P2P integration');
    expect(screen.getByTestId('snippet-integration')).toHaveTextContent('CDN only');
    expect(screen.getByTestId('snippet-integration')).toHaveTextContent(PLAYER_KIND_HELP['cdn-only']);

    await userEvent.click(screen.getByRole('tab', { name: 'Clappr' }));
    expect(snippet().textContent).toContain('playback: { hlsjsConfig: p2p.hlsConfig }');
    expect(snippet().textContent).toContain('p2p.bindHls(');
    expect(screen.getByTestId('snippet-integration')).toHaveTextContent(PLAYER_KIND_HELP['hosted-hls.js']);
  });

  it('"Documentation" leads to the integration guide, not the API reference', async () => {
    await open({ domains: [a] });
    const links = await screen.findAllByRole('link', { name: /documentation|integration guide/i });
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const l of links) expect(l.getAttribute('href')).toMatch(new RegExp(`^${PLAYER_PATHS.guide}(#|$)`));
  });
});
