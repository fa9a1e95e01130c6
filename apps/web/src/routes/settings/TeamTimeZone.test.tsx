import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ENDPOINTS, STORAGE_KEYS, TIME_ZONES, timeZoneText, zoneOffsetMinutes } from '@tlprt/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDetail, buildTeam, buildUser } from '../../test/fixtures';
import { on, renderSignedIn, startApi } from '../../test/session';
import { TeamSettings } from './TeamSettings';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});
beforeEach(() => localStorage.setItem(STORAGE_KEYS.settingsTab, '1'));

/** The server's list in the table's order: the screen must order it itself. */
const fullList = TIME_ZONES.map((z) => ({ id: z.id, name: z.name, text: timeZoneText(z.name) }));
const idOf = (name: string) => TIME_ZONES.find((z) => z.name === name)?.id ?? 0;

describe("the team's time zone select", () => {
  it("orders the zones by today's offset, labels them by city, and sets the chosen id", async () => {
    const team = buildTeam({ role: 10 });
    api = await startApi({
      user: buildUser({ TeamsRender: [team] }),
      detail: buildDetail(team),
      routes: {
        [on(ENDPOINTS.dictionaries.timeZoneList)]: { status: 200, body: { message: 'ok', data: fullList } },
        [on(ENDPOINTS.teams.setTimeZone, 5, idOf('Australia/Darwin'))]: {
          status: 200,
          body: { message: 'ok', data: buildDetail({ ...team, timezoneId: idOf('Australia/Darwin') }) },
        },
      },
    });
    renderSignedIn(<TeamSettings />);
    const select = await screen.findByLabelText<HTMLSelectElement>('Time zone');
    await waitFor(() => expect(select.options).toHaveLength(TIME_ZONES.length));
    expect(select.value).toBe('37');
    const now = new Date();
    const options = Array.from(select.options);
    const offsets = options.map((o) =>
      zoneOffsetMinutes(TIME_ZONES.find((z) => String(z.id) === o.value)?.name ?? '', now),
    );
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    const texts = options.map((o) => o.text);
    expect(texts).toContain('(UTC+09:30) Darwin');
    // UTC heads the zones at +00:00 (it is the default), no longer between Warsaw and Athens.
    expect(texts.indexOf('UTC')).toBe(offsets.indexOf(0));

    await userEvent.selectOptions(select, String(idOf('Australia/Darwin')));
    await waitFor(() =>
      expect(api?.requests.some((r) => r.url.endsWith(`/set_time_zone/${idOf('Australia/Darwin')}`))).toBe(
        true,
      ),
    );
  });
});
