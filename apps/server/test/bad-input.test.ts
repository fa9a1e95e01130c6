import { hasControlChars, linkBases, PATHS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam, buildUser, memoryMailer } from './factories.js';
import { Api } from './helpers/http.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';

/**
 * Hardening issue, item 10: every operation of the OpenAPI description (generated from the contract's
 * schemas) is sent missing fields, wrong types, overlong strings, control characters, huge numbers,
 * broken JSON and wrong content types, in its body, its path and its query. Every answer must be below
 * 500, and every error must carry a message. Afterwards no stored text may hold a control character.
 */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  format?: string;
}
interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

let server: TestServer;
const links = linkBases(PUBLIC_URL);
const ids: Record<string, number | string> = {};
let token = '';

beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer } });
  // One caller who can reach every call: a supervisor who is also the team's admin.
  const me = await buildUser(server.app, { supervisor: true });
  const colleague = await buildUser(server.app);
  const team = await buildTeam(server.app, { owner: me, roleOf: [{ user: colleague, role: Role.Viewer }] });
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  const key = await buildKey(server.app, team.id, domain.id);
  token = me.token;
  const as = new Api(server.base).as(token);
  const origin = await as.post(PATHS.origins.list(team.id), { name: 'origin.example.test' });
  const invite = await as.post(PATHS.invitations.create(team.id), {
    invited_email: 'invited@example.test',
    role: Role.Viewer,
    accept_new_user_url: links.inviteNew,
    accept_url: links.inviteOld,
    decline_url: links.inviteDecline,
  });
  expect(invite.status).toBe(201);
  const invites = await as.post(PATHS.invitations.search(team.id));
  Object.assign(ids, {
    team: team.id,
    user: me.id,
    colleague: colleague.id,
    domain: domain.id,
    key: key.id,
    keyHash: key.keyHash,
    origin: origin.body.data.id,
    invite: invites.body.data[0]?.id ?? 1,
  });
});
afterAll(async () => {
  await server?.close();
});

/** A real value for a path or query parameter, so the request reaches the service. */
function paramValue(path: string, name: string): string {
  const byName: Record<string, number | string | undefined> = {
    teamId: ids.team,
    team_id: ids.team,
    userId: ids.colleague,
    user_id: ids.user,
    domainId: ids.domain,
    keyId: ids.key,
    inviteId: ids.invite,
    keyHash: ids.keyHash,
    timezoneId: 37,
    roleId: 40,
    locale: 45,
    hash: 'A'.repeat(43),
  };
  if (name !== 'id') return String(byName[name] ?? 1);
  if (path.includes('/keys/')) return String(ids.key);
  if (path.includes('/domains/')) return String(ids.domain);
  if (path.includes('/origins/')) return String(ids.origin);
  if (path.includes('/user/')) return String(ids.user);
  return String(ids.team);
}

/** A plausible value for a body field, by its name and type. */
function plausible(name: string, schema: JsonSchema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return /role/i.test(name) ? 40 : 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  if (/email|login/i.test(name)) return 'someone@example.test';
  if (/url|path/i.test(name)) return `${PUBLIC_URL}/x/`;
  if (/password|confirm/i.test(name)) return 'not-the-password';
  return 'x';
}

const BAD_VALUES: unknown[] = [
  'a\u0000b',
  '\u0007bell',
  'line\u2028break',
  'x'.repeat(5000),
  2 ** 53 - 1,
  1e308,
  -1,
  {},
  null,
  ['x'],
];
const BAD_PARAMS = ['9007199254740991', '-1', '%00', '1e308', 'x'.repeat(300), 'a%0Ab'];

interface Attempt {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  what: string;
}

function attemptsOf(method: string, template: string, op: Operation): Attempt[] {
  const params = op.parameters ?? [];
  const fill = (over: Record<string, string> = {}) => {
    let path = template.replace(/\{(\w+)\}/g, (_, n: string) => over[n] ?? paramValue(template, n));
    const query = params.filter((p) => p.in === 'query');
    if (query.length) {
      path += `?${query.map((q) => `${q.name}=${over[q.name] ?? paramValue(template, q.name)}`).join('&')}`;
    }
    return path;
  };
  const schema = op.requestBody?.content?.['application/json']?.schema;
  const props = Object.entries(schema?.properties ?? {});
  const base = Object.fromEntries(props.map(([n, s]) => [n, plausible(n, s)]));
  const json = (body: unknown, what: string, path = fill()): Attempt => ({
    method,
    path,
    body: JSON.stringify(body),
    contentType: 'application/json',
    what,
  });
  const out: Attempt[] = [];
  if (schema) {
    out.push(json(base, 'plausible body'), json({}, 'empty object'), json([], 'array body'));
    out.push(json('text', 'string body'), json(null, 'null body'));
    for (const [name] of props) {
      for (const bad of BAD_VALUES)
        out.push(json({ ...base, [name]: bad }, `${name}=${JSON.stringify(bad)}`));
    }
    out.push({ method, path: fill(), body: '{"a":', contentType: 'application/json', what: 'broken JSON' });
    out.push({ method, path: fill(), body: 'x', contentType: 'text/plain', what: 'text/plain' });
    out.push({ method, path: fill(), body: '<a/>', contentType: 'application/xml', what: 'xml' });
  } else {
    out.push({ method, path: fill(), what: 'no body' });
    out.push({
      method,
      path: fill(),
      body: '{"x":1}',
      contentType: 'application/json',
      what: 'unexpected body',
    });
  }
  for (const p of params) {
    for (const bad of BAD_PARAMS) {
      const path = fill({ [p.name]: bad });
      out.push(
        schema
          ? json(base, `${p.in} ${p.name}=${bad}`, path)
          : { method, path, what: `${p.in} ${p.name}=${bad}` },
      );
    }
  }
  return out;
}

describe('bad input on every operation of the contract', () => {
  // Over 2,000 requests: 30 s is plenty on an idle machine, not on a loaded one.
  it('never answers 5xx, always says what is wrong, and stores no control character', async () => {
    const doc = (await (await fetch(`${server.base}/api/docs/json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
    expect(operations.length).toBeGreaterThan(85);
    // The event stream never ends; signing out would end the caller's session for the rest: last.
    const last = (p: string) => (p === PATHS.auth.logout ? 1 : 0);
    const ordered = operations
      .filter((o) => o.path !== PATHS.live.stream)
      .sort((a, b) => last(a.path) - last(b.path));
    const failures: string[] = [];
    let sent = 0;
    for (const { method, path, op } of ordered) {
      for (const a of attemptsOf(method, path, op)) {
        const headers: Record<string, string> = { authorization: `Bearer ${token}` };
        if (a.contentType) headers['content-type'] = a.contentType;
        const res = await fetch(server.base + a.path, {
          method: a.method,
          headers,
          body: a.method === 'GET' ? undefined : a.body,
        });
        sent++;
        const text = await res.text();
        if (res.status >= 500)
          failures.push(`${a.method} ${path} [${a.what}] → ${res.status} ${text.slice(0, 120)}`);
        else if (res.status >= 400) {
          let message: unknown;
          try {
            message = (JSON.parse(text) as { message?: unknown }).message;
          } catch {
            message = undefined;
          }
          if (typeof message !== 'string' || message === '')
            failures.push(`${a.method} ${path} [${a.what}] → ${res.status} without a message`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(2000);

    const db = server.app.ctx.db;
    const stored = [
      ...(await db.selectFrom('teams').select(['name as a', 'website as b']).execute()),
      ...(await db.selectFrom('users').select(['name as a', 'surname as b', 'phone as c']).execute()),
      ...(await db.selectFrom('keys').select(['name as a']).execute()),
      ...(await db.selectFrom('origins').select(['name as a']).execute()),
      ...(await db.selectFrom('team_tags').select(['tag as a']).execute()),
      ...(await db.selectFrom('domains').select(['host as a', 'name as b']).execute()),
    ].flatMap((row) => Object.values(row).filter((v): v is string => typeof v === 'string'));
    expect(stored.filter(hasControlChars)).toEqual([]);
  }, 240_000);

  it('rejects huge byte counts in the ingest per report, with the field named', async () => {
    const r = await new Api(server.base).post(PATHS.statistics.ingest, {
      reports: [
        {
          apiKey: ids.keyHash,
          sessionId: 's',
          ts: Math.floor(Date.now() / 1000),
          cdnBytes: 2 ** 53 - 1,
          p2pBytes: 0,
        },
        { apiKey: 'a\u0000b', sessionId: 's', ts: Math.floor(Date.now() / 1000), cdnBytes: 1, p2pBytes: 0 },
      ],
    });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ accepted: 0, rejected: 2 });
    expect(r.body.errors[0].message).toMatch(/^cdnBytes: /);
    expect(r.body.errors[1].message).toMatch(/^apiKey: /);
  });
});
