import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  STATISTICS_ENDPOINTS as E,
  INGEST_ANONYMOUS_MAX_REPORTS,
  LIMITS,
  MSG_INGEST,
  type TIngestResponse,
  ZIngestRequest,
} from '@tlprt/contract';
import secureJson from 'secure-json-parse';
import { addressGroup } from '../../http/client-address.js';
import { addCorsHeaders } from '../../http/cors.js';
import type { AheadPath } from '../../http/edge.js';
import { badRequest, errorAnswer, RequestValidationError, tooManyRequests } from '../../http/errors.js';
import type { StatsService } from './service.js';

/** The 202 answer written directly: the handler builds exactly ZIngestResponse's shape, so checking
 *  it again with zod for every report a player sends buys nothing. */
export const ingestAnswer = (r: TIngestResponse): string =>
  `{"accepted":${r.accepted},"rejected":${r.rejected},"errors":${r.errors.length ? JSON.stringify(r.errors) : '[]'}}`;

/** The headers of every ingest answer to `origin`: CORS only for pages of a key's domains. */
async function ingestHeaders(svc: StatsService, origin: string | undefined) {
  const headers: Record<string, string> = {};
  let allowed: boolean;
  try {
    allowed = await svc.ctx.origins.forAnyKey(origin);
  } catch (err) {
    // A database that cannot be read: the ingest's 503, not a 500 and a stack per request.
    throw svc.unavailableFor(err);
  }
  if (allowed) addCorsHeaders(headers, origin);
  headers['X-Content-Type-Options'] = 'nosniff';
  return headers;
}

/** Whether a batch names more than one sessionId (reports that are not objects are rejected one by one). */
function manySessions(reports: unknown[]): boolean {
  let any = false;
  let first: unknown;
  for (const r of reports) {
    if (typeof r !== 'object' || r === null) continue;
    const id = (r as { sessionId?: unknown }).sessionId;
    if (!any) {
      any = true;
      first = id;
    } else if (id !== first) return true;
  }
  return false;
}

/** A browser's batch (no API token): the reports of one session, within its address's budget. */
function ingestAnonymous(
  svc: StatsService,
  reports: unknown[],
  from: { origin: string | undefined; address: string; userAgent: string | undefined },
): Promise<TIngestResponse> {
  if (reports.length > INGEST_ANONYMOUS_MAX_REPORTS || manySessions(reports)) {
    throw badRequest(MSG_INGEST.anonymousBatch, { reports: MSG_INGEST.anonymousBatch });
  }
  const wait = svc.perAddress.hit(addressGroup(from.address), reports.length);
  if (wait > 0) throw tooManyRequests(wait, MSG_INGEST.addressBudget);
  const { origin, address, userAgent } = from;
  return svc.ingest(reports, { origin, address, userAgent, anonymous: true });
}

/** Who sent a batch: a browser (no `teamId`) or a holder of a team's API token (`teamId`). */
export interface IngestSender {
  origin: string | undefined;
  address: string;
  userAgent: string | undefined;
  teamId?: number;
}

/**
 * A batch's answer, what both transports run once the body is parsed (the Fastify route, and the path
 * ahead of it below): the headers for the sender's Origin, handed to `setHeaders` before the reports are
 * counted so that an error's answer carries them too, then the reports counted by the sender's rules.
 */
export async function ingestBatch(
  svc: StatsService,
  reports: unknown[],
  from: IngestSender,
  setHeaders: (headers: Record<string, string>) => void,
): Promise<TIngestResponse> {
  setHeaders(await ingestHeaders(svc, from.origin));
  if (from.teamId !== undefined) return svc.ingest(reports, { origin: from.origin, teamId: from.teamId });
  return ingestAnonymous(svc, reports, from);
}

/** A body Fastify's JSON parser takes (its default poisoning rules); otherwise its 400. */
function parseBody(body: Buffer): unknown {
  try {
    return secureJson.parse(body.toString('utf8'), undefined, {
      protoAction: 'error',
      constructorAction: 'error',
    });
  } catch {
    throw Object.assign(new Error('body is not JSON'), { statusCode: 400 });
  }
}

/** `{reports: [...]}` as ZIngestRequest takes it; anything else is checked by the schema for its errors. */
function reportsOf(body: unknown): unknown[] {
  const reports = (body as { reports?: unknown } | null)?.reports;
  if (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    Array.isArray(reports) &&
    reports.length <= INGEST_ANONYMOUS_MAX_REPORTS
  )
    return reports;
  const parsed = ZIngestRequest.safeParse(body);
  if (!parsed.success) throw new RequestValidationError(parsed.error.issues);
  return parsed.data.reports;
}

const isJson = (type: string | undefined) => {
  if (type === undefined) return false;
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase() === 'application/json';
};

const JSON_TYPE = 'application/json; charset=utf-8';

function send(res: ServerResponse, status: number, headers: Record<string, string>, text: string): void {
  headers['Content-Type'] = JSON_TYPE;
  headers['Content-Length'] = String(Buffer.byteLength(text));
  res.writeHead(status, headers);
  res.end(text);
}

/**
 * A browser's report, answered ahead of Fastify's router (http/edge.ts): a viewer reports every 10 s,
 * and on this path Fastify's request and reply objects, hooks and schema compilers cost as much server
 * CPU as the report's own work (`npm run bench -- ingest-keepalive` measures both against a bare route).
 *
 * It takes only what a player sends: a POST to the ingest path with a JSON type, a Content-Length within
 * the body limit, no Authorization, Content-Encoding or Transfer-Encoding, from an address within its
 * budget. Everything else (API-token batches, other bodies, an address past its budget, and every
 * request once the node is closing) goes to the Fastify route, which answers as it always did.
 * What it takes it answers as that route does: the same function (ingestBatch), the same error bodies
 * (errorAnswer); a test sends the same bodies both ways and compares the answers.
 */
export function ingestFastPath(svc: StatsService): AheadPath {
  const path = E.ingest.path;
  // The route's own log level: warnings and errors only (a line per report would cost more than it).
  const log = svc.ctx.log.child({ route: path }, { level: 'warn' });
  const answer = async (req: IncomingMessage, res: ServerResponse, address: string, body: Buffer) => {
    const origin = req.headers.origin;
    let headers: Record<string, string> = {};
    try {
      const reports = reportsOf(parseBody(body));
      const from = { origin, address, userAgent: req.headers['user-agent'] };
      const r = await ingestBatch(svc, reports, from, (h) => {
        headers = h;
      });
      send(res, 202, headers, ingestAnswer(r));
    } catch (err) {
      const a = errorAnswer(err, log);
      if (a.status === 429) svc.ctx.metrics.rateLimited.inc({ route: path });
      send(res, a.status, { ...headers, ...a.headers }, JSON.stringify(a.body));
    }
  };
  return (req, res) => {
    if (req.method !== 'POST') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if ((q < 0 ? url : url.slice(0, q)) !== path) return false;
    const h = req.headers;
    if (h.authorization !== undefined || h['transfer-encoding'] !== undefined) return false;
    if (h['content-encoding'] !== undefined || !isJson(h['content-type'])) return false;
    const length = Number(h['content-length']);
    if (!(length > 0 && length <= LIMITS.ingestBodyBytes)) return false;
    let address: string;
    try {
      address = svc.ctx.addressOf(req);
      if (svc.perAddress.spent(addressGroup(address)) > 0) return false;
    } catch {
      // Whatever this path cannot decide (a forwarded address it cannot read), the route answers.
      return false;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    // A client gone before its body ended is answered by no one (Node closes the socket).
    req.on('error', () => {});
    req.on('end', () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      answer(req, res, address, body).catch((err: unknown) => {
        log.error({ err }, 'ingest answer failed');
        res.destroy();
      });
    });
    return true;
  };
}
