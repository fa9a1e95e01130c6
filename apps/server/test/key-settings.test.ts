import {
  ENDPOINTS,
  endpointPath,
  MSG_DOMAIN_RULES,
  MSG_DOMAINS,
  PATHS,
  SUPERVISOR_SET,
  UNKNOWN_NETWORK_TAG,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltUser, buildDomain, buildKey, buildTeam, buildUser, memoryMailer } from './factories.js';
import { Api, type Json } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let api: Api;
let supervisor: BuiltUser;
let sup: Api;

beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer } });
  api = new Api(server.base);
  supervisor = await buildUser(server.app, { supervisor: true });
  sup = api.as(supervisor.token);
});
afterAll(async () => {
  await server?.close();
});

async function setup() {
  const t = await buildTeam(server.app);
  const d = await buildDomain(server.app, t.id, { promoted: true });
  const k = await buildKey(server.app, t.id, d.id, { name: 'main' });
  return { teamId: t.id, as: api.as(t.owner.token), domainId: d.id, keyId: k.id, keyHash: k.keyHash };
}

const DEFAULTS = [
  { id: 12, currentValue: null, defaultValue: 5, supervisorValue: null },
  { id: 13, currentValue: null, defaultValue: 10, supervisorValue: null },
  { id: 101, currentValue: null, defaultValue: 100, supervisorValue: null },
  { id: 102, currentValue: null, defaultValue: 2, supervisorValue: null },
];

describe('customer layer (get / set)', () => {
  it('reads the defaults, stores the key layer, and clears a value with null or empty text', async () => {
    const s = await setup();
    const get = () => s.as.get(PATHS.keySettings.read(s.teamId, s.domainId, s.keyId));
    expect((await get()).body).toEqual({ message: 'ok', data: DEFAULTS });
    const r = await s.as.post(PATHS.keySettings.write(s.teamId, s.domainId, s.keyId), {
      settings: [
        { id: 12, value: '8' },
        { id: 101, value: 0 },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      { id: 12, currentValue: 8, defaultValue: 5, supervisorValue: null },
      { id: 13, currentValue: null, defaultValue: 10, supervisorValue: null },
      { id: 101, currentValue: 0, defaultValue: 100, supervisorValue: null },
      { id: 102, currentValue: null, defaultValue: 2, supervisorValue: null },
    ]);
    expect((await get()).body.data).toEqual(r.body.data);
    // The path's domain 0 reads the same key.
    expect((await s.as.get(PATHS.keySettings.read(s.teamId, 0, s.keyId))).body.data).toEqual(r.body.data);
    await s.as.post(PATHS.keySettings.write(s.teamId, s.domainId, s.keyId), {
      settings: [
        { id: 12, value: '' },
        { id: 101, value: null },
      ],
    });
    expect((await get()).body.data).toEqual(DEFAULTS);
  });

  it.each([
    [{ id: 12, value: 0 }, 'settings.0.value', 'Must be between 1 and 120'],
    [{ id: 12, value: 121 }, 'settings.0.value', 'Must be between 1 and 120'],
    [{ id: 13, value: 601 }, 'settings.0.value', 'Must be between 1 and 600'],
    [{ id: 101, value: -1 }, 'settings.0.value', 'Must be between 0 and 100'],
    [{ id: 101, value: 100.5 }, 'settings.0.value', 'Must be between 0 and 100'],
    [{ id: 102, value: 3 }, 'settings.0.value', 'Must be between 0 and 2'],
    [{ id: 99, value: 1 }, 'settings.0.id', MSG_DOMAIN_RULES.unknownSetting],
    [{ id: 12, value: 'abc' }, 'settings.0.value', 'Must be a number'],
  ])('refuses %j with 400 naming %s', async (setting, field, text) => {
    const s = await setup();
    const r = await s.as.post(PATHS.keySettings.write(s.teamId, s.domainId, s.keyId), {
      settings: [setting],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[field]).toBe(text);
    expect((await s.as.get(PATHS.keySettings.read(s.teamId, s.domainId, s.keyId))).body.data).toEqual(
      DEFAULTS,
    );
  });

  it('names the failing entry by its index', async () => {
    const s = await setup();
    const r = await s.as.post(PATHS.keySettings.write(s.teamId, s.domainId, s.keyId), {
      settings: [
        { id: 12, value: 3 },
        { id: 13, value: 0 },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ 'settings.1.value': 'Must be between 1 and 600' });
  });

  it('is refused for a suspended key (40) and for keys of a suspended domain (403)', async () => {
    const s = await setup();
    await sup.post(PATHS.keys.suspend(s.teamId, s.keyId));
    const r = await s.as.post(PATHS.keySettings.write(s.teamId, s.domainId, s.keyId), {
      settings: [{ id: 12, value: 3 }],
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(MSG_DOMAINS.keySuspendedWarning);
    await sup.post(PATHS.keys.suspend(s.teamId, s.keyId));
    await sup.post(PATHS.domains.suspend(s.teamId, s.domainId));
    const b = await s.as.post(PATHS.keySettings.write(s.teamId, s.domainId, s.keyId), {
      settings: [{ id: 12, value: 3 }],
    });
    expect(b.status).toBe(403);
    expect(b.body.message).toBe(MSG_DOMAINS.keyChangeBlocked);
  });

  it('a domain in the path that is not the key’s is 404; a foreign domain for a team key is 404', async () => {
    const s = await setup();
    const other = await buildDomain(server.app, s.teamId, { promoted: true });
    expect((await s.as.get(PATHS.keySettings.read(s.teamId, other.id, s.keyId))).status).toBe(404);
    const teamKey = await buildKey(server.app, s.teamId, null);
    expect((await s.as.get(PATHS.keySettings.read(s.teamId, other.id, teamKey.id))).status).toBe(200);
    const foreign = await setup();
    expect((await s.as.get(PATHS.keySettings.read(s.teamId, foreign.domainId, teamKey.id))).status).toBe(404);
  });
});

const row = (rows: Json[], id: number) => rows.find((r) => r.param_id === id);

describe('supervisor layers', () => {
  it("a customer's key settings write, null included, never changes or lifts a supervisor's override", async () => {
    const s = await setup();
    const supervise = (value: number | null, settingOverwrite: number) =>
      sup.post(PATHS.keySettings[SUPERVISOR_SET.key](s.teamId), {
        keyId: s.keyId,
        settings: [{ id: 101, value, settingOverwrite }],
      });
    const customer = (value: number | null) =>
      s.as.post(PATHS.keySettings.write(s.teamId, s.domainId, s.keyId), { settings: [{ id: 101, value }] });
    const inForce = async () =>
      (await api.get(PATHS.keySettings.publicRead(s.keyHash))).body.data.settings['101'] as number;

    expect((await supervise(0, 1)).status).toBe(200);
    expect(await inForce()).toBe(0);
    expect((await customer(80)).status).toBe(200);
    expect(await inForce()).toBe(0);
    expect((await customer(null)).status).toBe(200);
    expect(await inForce()).toBe(0);
    const seen = (await s.as.get(PATHS.keySettings.read(s.teamId, s.domainId, s.keyId))).body.data;
    expect(seen.find((x: Json) => x.id === 101)).toEqual({
      id: 101,
      currentValue: null,
      defaultValue: 100,
      supervisorValue: 0,
    });
    expect(
      row(
        (
          await sup.get(
            endpointPath(
              ENDPOINTS.keySettings.readSupervisor,
              { teamId: s.teamId, keyId: s.keyId },
              { domainId: s.domainId },
            ),
          )
        ).body.data,
        101,
      ),
    ).toMatchObject({ param_api_key: 0, override_api_key: 1, prod_value: 0 });
    // Lifted by a supervisor: the customer's own value applies again.
    await customer(60);
    expect((await supervise(null, 0)).status).toBe(200);
    expect(await inForce()).toBe(60);
  });

  it('applies default → team → domain → key, each only when it overrides', async () => {
    const s = await setup();
    const read = async () => {
      const r = await sup.get(
        endpointPath(
          ENDPOINTS.keySettings.readSupervisor,
          { teamId: s.teamId, keyId: s.keyId },
          { domainId: s.domainId },
        ),
      );
      expect(r.status).toBe(200);
      return r.body.data as Json[];
    };
    const write = async (
      layer: 'team' | 'domain' | 'key',
      value: number | null,
      settingOverwrite: number,
    ) => {
      const r = await sup.post(PATHS.keySettings[SUPERVISOR_SET[layer]](s.teamId), {
        teamId: s.teamId,
        domainId: s.domainId,
        keyId: s.keyId,
        settings: [{ id: 12, value, settingOverwrite }],
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    const publicValue = async () =>
      (await api.get(PATHS.keySettings.publicRead(s.keyHash))).body.data.settings['12'] as number;

    expect(row(await read(), 12)).toEqual({
      param_name: 'Download timeout, s',
      param_id: 12,
      param_default: 5,
      param_client: null,
      override_client: 0,
      param_domain: null,
      override_domain: 0,
      param_api_key: null,
      override_api_key: 0,
      prod_value: 5,
      override_production: 0,
      domain_id: s.domainId,
      key_id: s.keyId,
    });
    await write('team', 20, 1);
    expect(row(await read(), 12)).toMatchObject({
      param_client: 20,
      override_client: 1,
      prod_value: 20,
      override_production: 1,
    });
    await write('domain', 30, 1);
    expect(row(await read(), 12)).toMatchObject({ param_domain: 30, override_domain: 1, prod_value: 30 });
    await write('key', 40, 1);
    expect(row(await read(), 12)).toMatchObject({ param_api_key: 40, override_api_key: 1, prod_value: 40 });
    expect(await publicValue()).toBe(40);
    // The customer sees the supervisor's value for the key beside its own and the layers below.
    expect((await s.as.get(PATHS.keySettings.read(s.teamId, s.domainId, s.keyId))).body.data[0]).toEqual({
      id: 12,
      currentValue: null,
      defaultValue: 5,
      supervisorValue: 40,
    });
    await write('key', 40, 0);
    expect(row(await read(), 12)).toMatchObject({ param_api_key: 40, override_api_key: 0, prod_value: 30 });
    await write('domain', 30, 0);
    expect(row(await read(), 12)).toMatchObject({ prod_value: 20 });
    expect(await publicValue()).toBe(20);
    await write('team', 5, 1);
    expect(row(await read(), 12)).toMatchObject({ prod_value: 5, override_production: 0 });
    await write('team', null, 0);
    expect(row(await read(), 12)).toMatchObject({ param_client: null, prod_value: 5 });
    // The other settings were never touched.
    expect(row(await read(), 101)).toMatchObject({ prod_value: 100, override_production: 0 });
  });

  it('a supervisor override at any level wins over the key value; among overrides the most specific wins (every combination)', async () => {
    // Setting 13 (default 10): each supervisor layer is absent, stored without the override flag, or
    // overriding; the customer's key value is absent or 600 (the case: 600 beat an override of 1).
    const SUP = { team: 21, domain: 22, key: 23 } as const;
    const OWN = 600;
    type State = 'none' | 'stored' | 'override';
    const states: State[] = ['none', 'stored', 'override'];
    const s = await setup();
    const supervise = (layer: keyof typeof SUP, state: State) =>
      sup.post(PATHS.keySettings[SUPERVISOR_SET[layer]](s.teamId), {
        teamId: s.teamId,
        domainId: s.domainId,
        keyId: s.keyId,
        settings: [
          {
            id: 13,
            value: state === 'none' ? null : SUP[layer],
            settingOverwrite: state === 'override' ? 1 : 0,
          },
        ],
      });
    let combinations = 0;
    for (const team of states)
      for (const domain of states)
        for (const key of states)
          for (const own of [null, OWN]) {
            for (const [layer, state] of [
              ['team', team],
              ['domain', domain],
              ['key', key],
            ] as const) {
              expect((await supervise(layer, state)).status).toBe(200);
            }
            const w = await s.as.post(PATHS.keySettings.write(s.teamId, s.domainId, s.keyId), {
              settings: [{ id: 13, value: own }],
            });
            expect(w.status).toBe(200);
            const fixed =
              key === 'override'
                ? SUP.key
                : domain === 'override'
                  ? SUP.domain
                  : team === 'override'
                    ? SUP.team
                    : null;
            const expected = fixed ?? own ?? 10;
            const label = `team ${team}, domain ${domain}, key ${key}, customer ${own}`;
            const inForce = (await api.get(PATHS.keySettings.publicRead(s.keyHash))).body.data.settings['13'];
            expect(inForce, label).toBe(expected);
            const table = await sup.get(
              endpointPath(
                ENDPOINTS.keySettings.readSupervisor,
                { teamId: s.teamId, keyId: s.keyId },
                { domainId: s.domainId },
              ),
            );
            expect(row(table.body.data, 13), label).toMatchObject({ prod_value: expected });
            const seen = (await s.as.get(PATHS.keySettings.read(s.teamId, s.domainId, s.keyId))).body.data;
            expect(
              seen.find((x: Json) => x.id === 13),
              label,
            ).toEqual({
              id: 13,
              currentValue: own,
              defaultValue: 10,
              supervisorValue: fixed,
            });
            combinations++;
          }
    expect(combinations).toBe(54);
  });

  it('the team layer applies to every key of the team; the domain layer only to that domain', async () => {
    const s = await setup();
    const second = await buildDomain(server.app, s.teamId, { promoted: true });
    const k2 = await buildKey(server.app, s.teamId, second.id);
    await sup.post(PATHS.keySettings[SUPERVISOR_SET.team](s.teamId), {
      settings: [{ id: 13, value: 50, settingOverwrite: 1 }],
    });
    await sup.post(PATHS.keySettings[SUPERVISOR_SET.domain](s.teamId), {
      domainId: s.domainId,
      settings: [{ id: 13, value: 60, settingOverwrite: 1 }],
    });
    const one = await api.get(PATHS.keySettings.publicRead(s.keyHash));
    const two = await api.get(PATHS.keySettings.publicRead(k2.keyHash));
    expect(one.body.data.settings).toEqual({ 12: 5, 13: 60, 101: 100, 102: 2 });
    expect(two.body.data.settings).toEqual({ 12: 5, 13: 50, 101: 100, 102: 2 });
    // Another team is untouched.
    const other = await setup();
    expect((await api.get(PATHS.keySettings.publicRead(other.keyHash))).body.data.settings['13']).toBe(10);
  });

  it('validates: override needs a value, keyId / domainId per layer, ranges, foreign ids are 404', async () => {
    const s = await setup();
    const post = (layer: 'key' | 'team' | 'domain', body: Json) =>
      sup.post(PATHS.keySettings[SUPERVISOR_SET[layer]](s.teamId), body);
    const missing = await post('team', { settings: [{ id: 12, value: null, settingOverwrite: 1 }] });
    expect(missing.status).toBe(400);
    expect(missing.body.errors['settings.0.value']).toBe(MSG_DOMAIN_RULES.overrideNeedsValue);
    expect((await post('team', { settings: [{ id: 12, value: 500, settingOverwrite: 1 }] })).status).toBe(
      400,
    );
    const noKey = await post('key', { settings: [{ id: 12, value: 3, settingOverwrite: 1 }] });
    expect(noKey.status).toBe(400);
    expect(noKey.body.errors.keyId).toBe(MSG_DOMAIN_RULES.keyIdRequired);
    const noDomain = await post('domain', { settings: [{ id: 12, value: 3, settingOverwrite: 1 }] });
    expect(noDomain.status).toBe(400);
    expect(noDomain.body.errors.domainId).toBe(MSG_DOMAIN_RULES.domainIdRequired);
    const foreign = await setup();
    const body = {
      domainId: foreign.domainId,
      keyId: foreign.keyId,
      settings: [{ id: 12, value: 3, settingOverwrite: 1 }],
    };
    expect((await post('domain', body)).status).toBe(404);
    expect((await post('key', body)).status).toBe(404);
    expect(
      (
        await sup.get(
          endpointPath(
            ENDPOINTS.keySettings.readSupervisor,
            { teamId: s.teamId, keyId: foreign.keyId },
            { domainId: null },
          ),
        )
      ).status,
    ).toBe(404);
  });

  it('a supervisor reads but cannot write the layers of a suspended team; an Admin can do neither', async () => {
    const s = await setup();
    await server.app.ctx.db.updateTable('teams').set({ suspended: 1 }).where('id', '=', s.teamId).execute();
    expect(
      (
        await sup.get(
          endpointPath(
            ENDPOINTS.keySettings.readSupervisor,
            { teamId: s.teamId, keyId: s.keyId },
            { domainId: null },
          ),
        )
      ).status,
    ).toBe(200);
    const w = await sup.post(PATHS.keySettings[SUPERVISOR_SET.team](s.teamId), {
      settings: [{ id: 12, value: 3, settingOverwrite: 1 }],
    });
    expect(w.status).toBe(403);
    expect(
      (
        await s.as.get(
          endpointPath(
            ENDPOINTS.keySettings.readSupervisor,
            { teamId: s.teamId, keyId: s.keyId },
            { domainId: null },
          ),
        )
      ).status,
    ).toBe(403);
  });
});

describe('public read for the player plugin (no token)', () => {
  it('answers the effective values of an active key', async () => {
    const s = await setup();
    const r = await api.get(PATHS.keySettings.publicRead(s.keyHash));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      message: 'ok',
      data: {
        keyHash: s.keyHash,
        settings: { 12: 5, 13: 10, 101: 100, 102: 2 },
        iceServers: [],
        // Loopback is in no known network (tracker-networks.test.ts has the others).
        networkTag: UNKNOWN_NETWORK_TAG,
        matchMinPeers: 1,
      },
    });
    const teamKey = await buildKey(server.app, s.teamId, null);
    expect((await api.get(PATHS.keySettings.publicRead(teamKey.keyHash))).status).toBe(200);
  });

  it('is 404 for an unknown hash, an inactive, suspended or deleted key, an inactive or suspended domain, a suspended team', async () => {
    const cases: Array<[string, (s: Awaited<ReturnType<typeof setup>>) => Promise<unknown>]> = [
      ['inactive key', (s) => s.as.get(PATHS.keys.toggleActive(s.teamId, s.keyId))],
      ['suspended key', (s) => sup.post(PATHS.keys.suspend(s.teamId, s.keyId))],
      ['deleted key', (s) => s.as.send('DELETE', PATHS.keys.read(s.teamId, s.keyId))],
      ['inactive domain', (s) => s.as.get(PATHS.domains.toggleActive(s.teamId, s.domainId))],
      ['suspended domain', (s) => sup.post(PATHS.domains.suspend(s.teamId, s.domainId))],
      ['deleted domain', (s) => s.as.send('DELETE', PATHS.domains.remove(s.teamId, s.domainId))],
      [
        'suspended team',
        (s) =>
          server.app.ctx.db.updateTable('teams').set({ suspended: 1 }).where('id', '=', s.teamId).execute(),
      ],
    ];
    for (const [what, make] of cases) {
      const s = await setup();
      expect((await api.get(PATHS.keySettings.publicRead(s.keyHash))).status, what).toBe(200);
      await make(s);
      const r = await api.get(PATHS.keySettings.publicRead(s.keyHash));
      expect(r.status, what).toBe(404);
      expect(r.body, what).toEqual({ message: 'Not found' });
    }
    expect((await api.get(PATHS.keySettings.publicRead('A'.repeat(40)))).status).toBe(404);
    expect((await api.get(PATHS.keySettings.publicRead('no such key'))).status).toBe(404);
  });

  it("is rate limited per address by a limit of its own, not the guest forms' (429 with Retry-After)", async () => {
    const limited = await startServer({
      deps: { mailer: memoryMailer().mailer, rateLimits: { playerSettingsPerMinute: 3 } },
    });
    try {
      const l = new Api(limited.base);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await l.get(PATHS.keySettings.publicRead('x'.repeat(40)))).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
      const r = await l.get(PATHS.keySettings.publicRead('x'.repeat(40)));
      expect(r.headers.get('retry-after')).toBeTruthy();
    } finally {
      await limited.close();
    }
  });
});
