import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ENDPOINTS,
  MSG,
  MSG_DOMAIN_RULES,
  MSG_DOMAINS,
  PATHS,
  STORAGE_KEYS,
  type TOrigin,
} from '@tlprt/contract';
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

/** How POST .../1/verify answers: the origin verified, or a 400 with the server's message. */
type VerifyAnswer = 'ok' | 'refused';

async function open(state: { origins: TOrigin[]; verify?: VerifyAnswer }, role = 10) {
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
        if (state.origins.some((o) => o.name === name)) {
          const message = MSG_DOMAINS.originDuplicate;
          return { status: 409, body: { message, errors: { name: message } } };
        }
        const o = buildOrigin({ id: 9, name, host: name, verification: 'domain' });
        state.origins = [...state.origins, o];
        return { status: 201, body: { message: 'created', data: o } };
      },
      [on(ENDPOINTS.origins.toggle, 5, 1)]: () => ({
        status: 200,
        body: { message: 'ok', data: state.origins.find((o) => o.id === 1) },
      }),
      [on(ENDPOINTS.origins.verify, 5, 1)]: () => {
        if (state.verify === 'refused')
          return { status: 400, body: { message: MSG_DOMAIN_RULES.originVerificationFailed(FILE.url) } };
        const o = buildOrigin({ ...state.origins[0], ...VERIFIED });
        state.origins = [o, ...state.origins.slice(1)];
        return { status: 200, body: { message: MSG_DOMAIN_RULES.originVerified, data: o } };
      },
      [on(ENDPOINTS.origins.remove, 5, 1)]: () => {
        state.origins = state.origins.filter((o) => o.id !== 1);
        return ok;
      },
    },
  });
  renderSignedIn(<OriginsRoute />, '/origins', 5);
}

const HASH = '0123456789abcdef0123456789abcdef';
const FILE = {
  url: `https://cdn.example.com/tlprt-${HASH}.html`,
  path: `/tlprt-${HASH}.html`,
  content: HASH,
};
const UNVERIFIED = {
  name: 'cdn.example.com',
  host: 'cdn.example.com',
  verification: 'unverified',
  verificationFile: FILE,
} as const;
const VERIFIED = {
  verification: 'verified',
  verifiedAt: '2024-03-04T12:00:00.000Z',
  verificationFile: null,
} as const;

describe('Origins', () => {
  it('"Add origin" opens a host input: required, max 30, a host only, Add creates it, Cancel closes', async () => {
    const state = { origins: [] as TOrigin[] };
    await open(state);
    expect(await screen.findByText('No origins yet')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.routeName)).toBe('origins');
    await userEvent.click(screen.getByRole('button', { name: MSG_DOMAINS.addOrigin }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Origin host')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: MSG_DOMAINS.addOrigin }));
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(MSG.required)).toBeInTheDocument();
    const input = screen.getByLabelText('Origin host');
    expect(input).toHaveAttribute('maxLength', '30');
    await userEvent.type(input, `  ${'x'.repeat(40)}`);
    expect((input as HTMLInputElement).value.length).toBe(30);
    // Not a host: refused under the field before anything is sent (the contract's rule).
    for (const typed of ['Main storage', 'http://x', 'cdn.example.com/live']) {
      await userEvent.clear(input);
      await userEvent.type(input, typed);
      await userEvent.click(screen.getByRole('button', { name: 'Add' }));
      expect(await screen.findByText(MSG_DOMAINS.originNotAHost)).toBeInTheDocument();
    }
    expect(calls('POST', PATHS.origins.create(5))).toHaveLength(0);
    await userEvent.clear(input);
    await userEvent.type(input, '  CDN.example.com ');
    expect(screen.queryByText(MSG_DOMAINS.originNotAHost)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls('POST', PATHS.origins.create(5))).toHaveLength(1));
    expect(calls('POST', PATHS.origins.create(5))[0]?.body).toEqual({ name: 'cdn.example.com' });
    // The row shows the host typed; the generated reference only inside, labelled.
    const row = await screen.findByRole('button', { name: 'Origin cdn.example.com' });
    expect(within(row).getByText('cdn.example.com')).toBeInTheDocument();
    expect(within(row).queryByText('o9-t5.cdn.localhost')).not.toBeInTheDocument();
    expect(screen.getByText('Service reference')).toBeInTheDocument();
    expect(screen.getByText('o9-t5.cdn.localhost')).toBeInTheDocument();

    // The same host again: the server's 409 under the field.
    await userEvent.click(screen.getByRole('button', { name: MSG_DOMAINS.addOrigin }));
    await userEvent.type(screen.getByLabelText('Origin host'), 'cdn.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(MSG_DOMAINS.originDuplicate)).toBeInTheDocument();
    expect(screen.getByLabelText('Origin host')).toHaveAttribute('aria-invalid', 'true');
  });

  it('rows: the typed host, "Suspended" label, power toggle, delete with confirmation, accordion details', async () => {
    const state = {
      origins: [
        buildOrigin({ id: 1, name: 'a.example.com' }),
        buildOrigin({ id: 2, name: 'b.example.com', status: { id: 20, name: 'Inactive' }, suspended: 1 }),
      ],
    };
    await open(state);
    expect(await screen.findByText('a.example.com')).toBeInTheDocument();
    expect(screen.getByText(MSG_DOMAINS.suspendedLabel)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Active a.example.com' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Active b.example.com' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('switch', { name: 'Active a.example.com' }));
    await waitFor(() => expect(calls('GET', PATHS.origins.toggle(5, 1))).toHaveLength(1));

    await userEvent.click(screen.getByRole('button', { name: 'Origin b.example.com' }));
    await settle();
    const visible = (el: HTMLElement) => {
      for (let n: HTMLElement | null = el; n; n = n.parentElement)
        if (n.style.display === 'none') return false;
      return true;
    };
    expect(screen.getAllByText('Status').filter(visible)).toHaveLength(1);
    expect(screen.getAllByText('o2-t5.cdn.localhost').filter(visible)).toHaveLength(1);
    expect(screen.getByText('Inactive')).toBeInTheDocument();
    expect(screen.getAllByText('3 March 2024').length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete origin a.example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete origin' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls('DELETE', PATHS.origins.remove(5, 1))).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('a.example.com')).not.toBeInTheDocument());
  });

  it('role 40 is read-only', async () => {
    await open({ origins: [buildOrigin({ id: 1, name: 'a.example.com' })] }, 40);
    expect(await screen.findByText('a.example.com')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MSG_DOMAINS.addOrigin })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Active a.example.com' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Delete origin/ })).not.toBeInTheDocument();
  });

  it('an unverified origin: open, badge, the note, the file to serve with copy buttons; Verify verifies it', async () => {
    const state = { origins: [buildOrigin({ id: 1, ...UNVERIFIED })] };
    await open(state);
    expect(await screen.findByText('Not verified', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    // Open from the start: there is something to do.
    expect(screen.getByText(MSG_DOMAINS.originUnverifiedNote)).toBeVisible();
    expect(screen.getByText(FILE.url)).toBeInTheDocument();
    expect(screen.getByText(FILE.path)).toBeInTheDocument();
    expect(screen.getByText(FILE.content)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy File path' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy File content' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Verify cdn.example.com' }));
    await waitFor(() => expect(calls('POST', PATHS.origins.verify(5, 1))).toHaveLength(1));
    expect(await screen.findByText(MSG_DOMAIN_RULES.originVerified)).toBeInTheDocument();
    expect(await screen.findByText('Verified', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(screen.queryByText(MSG_DOMAINS.originUnverifiedNote)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Verify / })).not.toBeInTheDocument();
    expect(screen.getByText(/reads segments from cdn\.example\.com/)).toBeInTheDocument();
  });

  it("a refused Verify shows the server's message and Try again brings the button back", async () => {
    const state = { origins: [buildOrigin({ id: 1, ...UNVERIFIED })], verify: 'refused' as const };
    await open(state);
    await userEvent.click(await screen.findByRole('button', { name: 'Verify cdn.example.com' }));
    expect(await screen.findByText(MSG_DOMAIN_RULES.originVerificationFailed(FILE.url))).toBeInTheDocument();
    expect(screen.getByText('Not verified', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: MSG_DOMAINS.tryAgain }));
    expect(screen.getByRole('button', { name: 'Verify cdn.example.com' })).toBeEnabled();
  });

  it('verified, under a domain, not a host: each says so; a Viewer sees the note but no file or button', async () => {
    await open(
      {
        origins: [
          buildOrigin({ id: 1, ...UNVERIFIED }),
          buildOrigin({ id: 2, name: 'a.example.com', host: 'a.example.com', ...VERIFIED }),
          buildOrigin({ id: 3, name: 'cdn.site.com', host: 'cdn.site.com', verification: 'domain' }),
        ],
      },
      40,
    );
    expect(await screen.findByText('Not verified', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(screen.getByText('Verified', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(screen.getByText('Verified domain', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    for (const name of ['cdn.example.com', 'a.example.com', 'cdn.site.com'])
      await userEvent.click(screen.getByRole('button', { name: `Origin ${name}` }));
    await settle();
    expect(screen.getByText(MSG_DOMAINS.originUnverifiedNote)).toBeInTheDocument();
    expect(screen.queryByText(FILE.content)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Verify / })).not.toBeInTheDocument();
    expect(screen.getByText(/Verified on 4 March 2024/)).toBeInTheDocument();
    expect(screen.getByText(MSG_DOMAINS.originDomainNote)).toBeInTheDocument();
  });
});
