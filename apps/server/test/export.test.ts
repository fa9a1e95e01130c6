import { CSV_COLUMNS, PATHS, Role } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvRow } from '../src/features/export/csv.js';
import {
  type BuiltUser,
  buildTeam,
  buildUser,
  memoryMailer,
  setTeamState,
  uniqueEmail,
} from './factories.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';

/** Issue 5: "Get CSV list of all Users or Teams" (supervisors), streamed RFC 4180. */

const clock = manualClock(Date.UTC(2026, 10, 22, 9, 30, 0));
let server: TestServer;
let sup: BuiltUser;
beforeAll(async () => {
  server = await startServer({ deps: { mailer: memoryMailer().mailer, now: clock } });
  sup = await buildUser(server.app, { supervisor: true, email: 'boss@example.test', name: 'Sue' });
});
afterAll(async () => {
  await server?.close();
});

const get = (path: string, token?: string) =>
  fetch(server.base + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** A minimal RFC 4180 reader (quoted fields with doubled quotes, CRLF records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length) throw new Error('the last record has no CRLF');
  return rows;
}

describe('csv cells', () => {
  it('quotes fields with comma, quote, CR or LF (quotes doubled) and disarms formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    for (const start of ['=', '+', '-', '@', '\t'])
      expect(csvCell(`${start}SUM(A1)`)).toBe(`'${start}SUM(A1)`);
    expect(csvCell('\rX')).toBe(`"'\rX"`);
    expect(csvCell('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
    expect(csvRow(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });
});

describe('GET /api/v1/export/*.csv', () => {
  it('answers 401 without a session and 403 to non-supervisors', async () => {
    const u = await buildUser(server.app);
    for (const path of [PATHS.export.users, PATHS.export.teams]) {
      expect((await get(path)).status).toBe(401);
      const r = await get(path, u.token);
      expect(r.status).toBe(403);
      expect((await r.json()).message).toBeTruthy();
    }
  });

  it('users: header, one row per user with the teams count, dated attachment', async () => {
    const evil = await buildUser(server.app, { email: uniqueEmail('evil'), name: '=cmd|"/c calc"!A1' });
    await buildTeam(server.app, { owner: evil });
    await buildTeam(server.app, { owner: evil });
    const r = await get(PATHS.export.users, sup.token);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="users-2026-11-22.csv"');
    const text = await r.text();
    expect(text.startsWith('id,email,name,surname,supervisor,status,created_at,teams\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...CSV_COLUMNS.users]);
    const bySup = rows.find((x) => x[0] === String(sup.id));
    expect(bySup).toEqual([
      String(sup.id),
      'boss@example.test',
      'Sue',
      'User',
      '1',
      '10',
      '2026-11-22T09:30:00.000Z',
      '0',
    ]);
    const byEvil = rows.find((x) => x[0] === String(evil.id));
    expect(byEvil?.[2]).toBe(`'=cmd|"/c calc"!A1`);
    expect(byEvil?.[4]).toBe('0');
    expect(byEvil?.[7]).toBe('2');
    expect(text).toContain(`"'=cmd|""/c calc""!A1"`);
  });

  it('teams: status, flags, members, admins’ e-mails and tags, quoted where needed', async () => {
    const admin2 = await buildUser(server.app, { email: 'a2@example.test' });
    const viewer = await buildUser(server.app);
    const team = await buildTeam(server.app, {
      name: 'Acme, "Video"',
      roleOf: [
        { user: admin2, role: Role.Admin },
        { user: viewer, role: Role.Viewer },
      ],
    });
    await setTeamState(server.app, team.id, { suspended: 1 });
    await server.app.ctx.db
      .updateTable('teams')
      .set({ website: '+1 line\nbreak' })
      .where('id', '=', team.id)
      .execute();
    for (const tag of ['vip', '@risk'])
      await fetch(server.base + PATHS.teams.addTag(team.id), {
        method: 'PUT',
        headers: { authorization: `Bearer ${sup.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tag }),
      });
    const r = await get(PATHS.export.teams, sup.token);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="teams-2026-11-22.csv"');
    const rows = parseCsv(await r.text());
    expect(rows[0]).toEqual([...CSV_COLUMNS.teams]);
    const row = rows.find((x) => x[0] === String(team.id));
    const admins = [team.owner.email, 'a2@example.test'].sort().join('; ');
    expect(row).toEqual([
      String(team.id),
      'Acme, "Video"',
      "'+1 line\nbreak",
      '10',
      '1',
      '0',
      '2026-11-22T09:30:00.000Z',
      '3',
      admins,
      "'@risk; vip", // same creation time: by name; a leading @ is disarmed
    ]);
  });

  it('streams a large export (5,000 teams and their users) completely, in id order', async () => {
    const { db } = server.app.ctx;
    const before = Number(
      (
        await db
          .selectFrom('teams')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const t = clock();
    for (let start = 0; start < 5000; start += 500) {
      await db
        .insertInto('teams')
        .values(Array.from({ length: 500 }, (_, i) => ({ name: `Bulk ${start + i}`, created_at: t })))
        .execute();
      await db
        .insertInto('users')
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            email: `bulk-${start + i}@example.test`,
            password_hash: null,
            created_at: t,
          })),
        )
        .execute();
    }
    const r = await get(PATHS.export.teams, sup.token);
    // Chunked transfer: the length is not known up front.
    expect(r.headers.get('content-length')).toBeNull();
    const reader = r.body?.getReader();
    let chunks = 0;
    let text = '';
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = (await reader?.read()) ?? { done: true, value: undefined };
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
    }
    expect(chunks).toBeGreaterThan(1);
    const rows = parseCsv(text).slice(1);
    expect(rows).toHaveLength(before + 5000);
    const ids = rows.map((x) => Number(x[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(rows.at(-1)?.[1]).toBe('Bulk 4999');

    const users = parseCsv(await (await get(PATHS.export.users, sup.token)).text()).slice(1);
    expect(users.filter((x) => x[1]?.startsWith('bulk-'))).toHaveLength(5000);
  });
});

describe('OpenAPI description', () => {
  it('declares the 401 and 403 the CSV routes answer', async () => {
    const doc = (await (await get('/api/docs/json')).json()) as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    for (const path of [PATHS.export.users, PATHS.export.teams]) {
      const responses = doc.paths[path]?.get.responses ?? {};
      expect(Object.keys(responses), path).toEqual(expect.arrayContaining(['401', '403']));
    }
    // And they are what the routes answer.
    expect((await get(PATHS.export.users)).status).toBe(401);
    const plain = await buildUser(server.app);
    const r = await get(PATHS.export.teams, plain.token);
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ message: expect.any(String) });
  });
});
