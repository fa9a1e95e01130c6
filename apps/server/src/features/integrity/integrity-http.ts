import { parse } from 'node:querystring';
import { PLAYER_ENDPOINTS as E, MSG_INTEGRITY, parseIntegrityRange } from '@tlprt/contract';
import { addCorsHeaders } from '../../http/cors.js';
import type { AheadPath } from '../../http/edge.js';
import { errorAnswer, HttpError, RequestValidationError, tooManyRequests } from '../../http/errors.js';
import { HASH_ANSWER_CACHE_CONTROL, type IntegrityGate } from './gate.js';

const JSON_TYPE = 'application/json; charset=utf-8';

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** The answer to one question, by the gate's checks in the route's order and the same error bodies. */
async function answer(
  gate: IntegrityGate,
  rawQuery: string,
  origin: string | undefined,
  address: string,
  log: Parameters<typeof errorAnswer>[1],
): Promise<Answer> {
  const headers: Record<string, string> = {};
  try {
    const wait = gate.addressWait(address);
    if (wait > 0) throw tooManyRequests(wait, MSG_INTEGRITY.tooManyForAddress);
    const query = parse(rawQuery);
    let key: Awaited<ReturnType<IntegrityGate['admit']>>;
    try {
      key = await gate.admit(query.key, origin);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 429) addCorsHeaders(headers, origin);
      throw err;
    }
    if (key) addCorsHeaders(headers, origin);
    const parsed = E.integrity.query.safeParse(query);
    if (!parsed.success) throw new RequestValidationError(parsed.error.issues);
    if (!key) throw new HttpError(404, MSG_INTEGRITY.keyNotUsable);
    const q = parsed.data;
    const url = new URL(q.url);
    const range = q.range === undefined ? undefined : parseIntegrityRange(q.range);
    const sha256 =
      gate.svc.cached(key, url, range) ?? (await gate.svc.sha256Of({ key, url, range, stream: q.stream }));
    headers['X-Content-Type-Options'] = 'nosniff';
    headers['Cache-Control'] = HASH_ANSWER_CACHE_CONTROL;
    return { status: 200, headers, text: `{"sha256":"${sha256}"}` };
  } catch (err) {
    const a = errorAnswer(err, log);
    if (a.status === 429) gate.ctx.metrics.rateLimited.inc({ route: E.integrity.path });
    headers['X-Content-Type-Options'] = 'nosniff';
    headers['Cache-Control'] = 'no-store';
    return { status: a.status, headers: { ...headers, ...a.headers }, text: JSON.stringify(a.body) };
  }
}

/**
 * Integrity questions served by Node's HTTP server itself, ahead of Fastify's router, like the
 * browsers' reports (statistics/ingest-http.ts): a viewer asks one per P2P segment, ~4 per report, and
 * through Fastify's request, reply, hooks and serializer a cached answer cost more CPU than a report.
 * It takes every GET of the path (every request goes to the route once the node is closing); its checks are the route's (the same
 * gate, schema and service, the same error bodies; a test asks the same questions both ways).
 */
export function integrityFastPath(gate: IntegrityGate): AheadPath {
  const path = E.integrity.path;
  // The route's own log level: warnings and errors only.
  const log = gate.ctx.log.child({ route: path }, { level: 'warn' });
  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if ((q < 0 ? url : url.slice(0, q)) !== path) return false;
    let address: string;
    try {
      address = gate.ctx.addressOf(req);
    } catch {
      // Whatever this path cannot decide (a forwarded address it cannot read), the route answers.
      return false;
    }
    // A GET's body is never read; it is drained so the connection can serve the next question.
    req.resume();
    answer(gate, q < 0 ? '' : url.slice(q + 1), req.headers.origin, address, log).then(
      (a) => {
        a.headers['Content-Type'] = JSON_TYPE;
        a.headers['Content-Length'] = String(Buffer.byteLength(a.text));
        res.writeHead(a.status, a.headers);
        res.end(a.text);
      },
      (err: unknown) => {
        log.error({ err }, 'integrity answer failed');
        res.destroy();
      },
    );
    return true;
  };
}
