import { LIMITS, MSG, PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltUser, buildUser, uniqueEmail } from './factories.js';
import { Api, type Body } from './helpers/http.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let api: Api;
let user: BuiltUser;

beforeAll(async () => {
  server = await startServer();
  api = new Api(server.base);
  user = await buildUser(server.app);
});

afterAll(async () => {
  await server?.close();
});

const paths = { createPath: `${PUBLIC_URL}/c/`, resetPath: `${PUBLIC_URL}/r/`, loginPath: `${PUBLIC_URL}/` };
const validHash = 'A'.repeat(43);

describe('spec §5 rules as the server enforces them', () => {
  it('login: e-mail required and valid, password required', async () => {
    const cases: Array<[Body, Record<string, string>]> = [
      [{ login: '', password: 'x' }, { login: MSG.required }],
      [{ login: '   ', password: 'x' }, { login: MSG.required }],
      [{ login: 'not-an-email', password: 'x' }, { login: MSG.invalidEmail }],
      [{ login: 'a@b.co', password: '' }, { password: MSG.required }],
      [{}, { login: MSG.required, password: MSG.required }],
    ];
    for (const [body, errors] of cases) {
      const r = await api.post(PATHS.auth.login, body);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ message: MSG.validationFailed, errors });
    }
  });

  it('register: terms must be ticked (also as form values)', async () => {
    const r = await api.postForm(PATHS.auth.register, { login: uniqueEmail(), ...paths, offer: '0' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ offer: MSG.termsRequired });
    const ok = await api.postMultipart(PATHS.auth.register, { login: uniqueEmail(), ...paths, offer: 'on' });
    expect(ok.status).toBe(201);
  });

  it('new password: required, minimum 6, confirm equal', async () => {
    for (const path of [PATHS.auth.setNewPassword, PATHS.auth.passwordRecoveryAccept]) {
      const short = await api.post(path, { hash: validHash, password: '12345', confirm: '12345' });
      expect(short.status).toBe(400);
      expect(short.body.errors).toEqual({ password: MSG.passwordMin, confirm: MSG.passwordMin });
      const empty = await api.post(path, { hash: validHash, password: '', confirm: '' });
      expect(empty.body.errors).toEqual({ password: MSG.required, confirm: MSG.required });
      const mismatch = await api.post(path, { hash: validHash, password: '123456', confirm: '1234567' });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.errors).toEqual({ confirm: MSG.passwordsDoNotMatch });
    }
  });

  it('create account: name required for the team; profile fields max 30; image 0–11', async () => {
    const a = api.as(user.token);
    const noName = await a.post(PATHS.teams.create, { name: '  ' });
    expect(noName.status).toBe(400);
    expect(noName.body.errors).toEqual({ name: MSG.required });
    const longName = await a.post(PATHS.teams.create, { name: 'x'.repeat(31) });
    expect(longName.body.errors).toEqual({ name: MSG.tooLong(30) });

    for (const field of ['name', 'surname', 'phone'] as const) {
      const value = field === 'phone' ? '1'.repeat(31) : 'x'.repeat(31);
      const r = await a.put(PATHS.users.read(user.id), { [field]: value });
      expect(r.status).toBe(400);
      expect(r.body.errors[field]).toBe(MSG.tooLong(30));
      const ok = await a.put(PATHS.users.read(user.id), { [field]: value.slice(0, 30) });
      expect(ok.status).toBe(200);
    }
    for (const image of [-1, 12, 1.5, 'abc']) {
      const r = await a.put(PATHS.users.read(user.id), { image });
      expect(r.status).toBe(400);
      expect(r.body.errors.image).toBeTruthy();
    }
    for (const image of [0, 11, '7']) {
      expect((await a.put(PATHS.users.read(user.id), { image })).status).toBe(200);
    }
  });
});

describe('bad input never causes a 5xx', () => {
  const json = { 'content-type': 'application/json' };
  const cases: Array<{
    name: string;
    method: 'POST' | 'PUT' | 'GET';
    path: string;
    body?: string;
    headers?: Record<string, string>;
    status: number;
    auth?: boolean;
  }> = [
    {
      name: 'malformed JSON',
      method: 'POST',
      path: PATHS.auth.login,
      body: '{"login": ',
      headers: json,
      status: 400,
    },
    { name: 'empty JSON body', method: 'POST', path: PATHS.auth.login, body: '', headers: json, status: 400 },
    { name: 'JSON null', method: 'POST', path: PATHS.auth.login, body: 'null', headers: json, status: 400 },
    {
      name: 'array instead of object',
      method: 'POST',
      path: PATHS.auth.register,
      body: '[1,2,3]',
      headers: json,
      status: 400,
    },
    {
      name: 'string instead of object',
      method: 'POST',
      path: PATHS.auth.recoveryPassword,
      body: '"x"',
      headers: json,
      status: 400,
    },
    {
      name: 'wrong types',
      method: 'POST',
      path: PATHS.auth.login,
      body: '{"login": 5, "password": {"a": 1}}',
      headers: json,
      status: 400,
    },
    {
      name: 'array field',
      method: 'POST',
      path: PATHS.auth.login,
      body: '{"login": ["a@b.co"], "password": "x"}',
      headers: json,
      status: 400,
    },
    {
      name: 'very long e-mail',
      method: 'POST',
      path: PATHS.auth.login,
      body: JSON.stringify({ login: `${'a'.repeat(5000)}@b.co`, password: 'x' }),
      headers: json,
      status: 400,
    },
    {
      name: 'very long password',
      method: 'POST',
      path: PATHS.auth.login,
      body: JSON.stringify({ login: 'a@b.co', password: 'x'.repeat(100_000) }),
      headers: json,
      status: 400,
    },
    {
      name: 'very long hash',
      method: 'POST',
      path: PATHS.auth.setNewPassword,
      body: JSON.stringify({ hash: 'a'.repeat(100_000), password: '123456', confirm: '123456' }),
      headers: json,
      status: 400,
    },
    {
      name: 'unknown hash',
      method: 'POST',
      path: PATHS.auth.setNewPassword,
      body: JSON.stringify({ hash: validHash, password: '123456', confirm: '123456' }),
      headers: json,
      status: 404,
    },
    {
      name: 'body over the limit',
      method: 'POST',
      path: PATHS.auth.login,
      body: JSON.stringify({ login: 'a@b.co', password: 'x'.repeat(LIMITS.bodyBytes + 10) }),
      headers: json,
      status: 413,
    },
    {
      name: 'unsupported media type',
      method: 'POST',
      path: PATHS.auth.login,
      body: 'login=a',
      headers: { 'content-type': 'text/plain' },
      status: 415,
    },
    {
      name: 'xml',
      method: 'POST',
      path: PATHS.auth.login,
      body: '<a/>',
      headers: { 'content-type': 'application/xml' },
      status: 415,
    },
    {
      name: 'broken multipart',
      method: 'POST',
      path: PATHS.auth.login,
      body: '--zz\r\nContent-Disposition: form-data; name="login"\r\n\r\nx',
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      status: 400,
    },
    {
      name: 'form on a JSON-only call',
      method: 'POST',
      path: PATHS.teams.create,
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      status: 415,
      auth: true,
    },
    { name: 'id that is not a number', method: 'GET', path: '/api/v1/user/abc', status: 400, auth: true },
    { name: 'negative id', method: 'GET', path: '/api/v1/user/-4', status: 400, auth: true },
    { name: 'huge id', method: 'GET', path: '/api/v1/user/99999999999999999999', status: 400, auth: true },
    {
      name: 'unknown id (403 for a non-supervisor)',
      method: 'GET',
      path: '/api/v1/user/2147483647',
      status: 403,
      auth: true,
    },
    {
      name: 'extra fields in a strict body',
      method: 'PUT',
      path: '/api/v1/user/1',
      body: '{"password_hash": "x"}',
      headers: json,
      status: 400,
      auth: true,
    },
    { name: 'unknown API path', method: 'GET', path: '/api/nope', status: 404 },
    {
      name: 'unknown auth path',
      method: 'POST',
      path: '/auth/guest/nope',
      body: '{}',
      headers: json,
      status: 404,
    },
    { name: 'unknown dictionary locale', method: 'GET', path: '/api/dictionaries/46', status: 404 },
  ];

  for (const c of cases) {
    it(`${c.name} → ${c.status}`, async () => {
      const headers = { ...c.headers, ...(c.auth ? { authorization: `Bearer ${user.token}` } : {}) };
      const path = c.path === '/api/v1/user/1' ? PATHS.users.read(user.id) : c.path;
      const r = await fetch(server.base + path, { method: c.method, headers, body: c.body });
      const text = await r.text();
      expect(r.status, text).toBe(c.status);
      const body = JSON.parse(text) as { message?: unknown };
      expect(typeof body.message).toBe('string');
      expect(text).not.toMatch(/at .*\.(ts|js):\d+/);
    });
  }

  it('a multipart file upload is refused', async () => {
    const form = new FormData();
    form.append('login', 'a@b.co');
    form.append('password', 'secret');
    form.append('avatar', new Blob(['x'.repeat(100)]), 'a.png');
    const r = await fetch(server.base + PATHS.auth.login, { method: 'POST', body: form });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
  });
});
