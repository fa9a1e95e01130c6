import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, TIME_ZONES, type TUser, timeZoneText, zoneOffsetMinutes } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileSettings } from '../../routes/settings/ProfileSettings';
import { buildTeam, buildUser } from '../../test/fixtures';
import { on, renderSignedIn, startApi } from '../../test/session';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

/** The whole list as the server answers it, in the table's order (the screen orders it). */
const fullList = TIME_ZONES.map((z) => ({ id: z.id, name: z.name, text: timeZoneText(z.name) }));
const idOf = (name: string) => TIME_ZONES.find((z) => z.name === name)?.id ?? 0;

async function open(user: TUser) {
  let saved = user;
  api = await startApi({
    user,
    routes: {
      [on(ENDPOINTS.dictionaries.timeZoneList)]: { status: 200, body: { message: 'ok', data: fullList } },
      [on(ENDPOINTS.users.update, user.id)]: (r) => {
        saved = { ...saved, ...(r.body as Partial<TUser>) };
        return { status: 200, body: { message: 'Updated', data: saved } };
      },
    },
  });
  renderSignedIn(<ProfileSettings />);
  const region = await screen.findByRole('region', { name: 'Time zone' });
  return within(region).getByLabelText<HTMLSelectElement>('Time zone for charts');
}

const optionTexts = (select: HTMLSelectElement) => Array.from(select.options).map((o) => o.text);

describe('time zone for charts (Profile settings)', () => {
  it("starts on the team's zone and lists every zone by today's offset, labelled by city", async () => {
    const team = buildTeam({ timezoneId: idOf('Europe/Paris'), timeZone: '(UTC+01:00) Europe/Paris' });
    const select = await open(buildUser({ TeamsRender: [team], timezoneId: null }));
    await waitFor(() => expect(select.options).toHaveLength(TIME_ZONES.length + 1));
    expect(select.value).toBe('');
    const texts = optionTexts(select);
    expect(texts[0]).toBe("Team's time zone (default)");
    expect(texts).toContain('(UTC+09:30) Darwin');
    expect(texts).toContain('UTC');
    const now = new Date();
    const offsets = Array.from(select.options)
      .slice(1)
      .map((o) => zoneOffsetMinutes(TIME_ZONES.find((z) => String(z.id) === o.value)?.name ?? '', now));
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(texts.indexOf('UTC')).toBeLessThan(texts.findIndex((t) => t.endsWith(' Warsaw')));
    expect(screen.getByText(/Your current team's is \(UTC[+-]\d\d:\d\d\) Paris\./)).toBeInTheDocument();
  });

  it('saves a chosen zone on change, and going back to the team’s sends null', async () => {
    const select = await open(buildUser({ timezoneId: null }));
    await waitFor(() => expect(select.options.length).toBeGreaterThan(2));
    const darwin = idOf('Australia/Darwin');
    await userEvent.selectOptions(select, String(darwin));
    await waitFor(() => expect(api?.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(api?.requests.filter((r) => r.method === 'PUT').at(-1)?.body).toEqual({
      id: 1,
      timezoneId: darwin,
    });
    await waitFor(() => expect(select.value).toBe(String(darwin)));

    await userEvent.selectOptions(select, '');
    await waitFor(() =>
      expect(api?.requests.filter((r) => r.method === 'PUT').at(-1)?.body).toEqual({
        id: 1,
        timezoneId: null,
      }),
    );
    await waitFor(() => expect(select.value).toBe(''));
  });

  it('shows the saved zone, and is locked when the account may not change its profile', async () => {
    const select = await open(buildUser({ timezoneId: idOf('Asia/Tokyo'), userStatusId: 30 }));
    await waitFor(() => expect(select.value).toBe(String(idOf('Asia/Tokyo'))));
    expect(select).toBeDisabled();
  });
});
