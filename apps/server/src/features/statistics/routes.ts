import {
  breakdownCsv,
  STATISTICS_ENDPOINTS as E,
  INGEST_ERRORS,
  LIMITS,
  MSG,
  MSG_INGEST,
  MSG_STATS_EXPORT,
  STATS_CSV_TYPE,
  type TStatsQuery,
} from '@tlprt/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { caller } from '../../http/auth.js';
import { addressGroup } from '../../http/client-address.js';
import { preflight } from '../../http/cors.js';
import { HttpError, registerErrorHandler, tooManyRequests } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { tokenGuard } from '../../http/token-guard.js';
import { exportBreakdown, queryBreakdown } from './breakdown.js';
import { queryBreakdownSeries } from './breakdown-series.js';
import { ingestAnswer, ingestBatch } from './ingest-http.js';
import {
  exportStats,
  queryStats,
  type StatsSeries,
  statsResponseCsv,
  statsResponseJson,
} from './series-answer.js';
import type { StatsService } from './service.js';
import { getSettings, putSettings } from './settings.js';

/**
 * What players report: 1 MiB bodies. Two kinds of senders (docs/DESIGN.md §7):
 * - with a team's API token (`Authorization: Bearer`): server-side reporters, batches of many
 *   sessions of that team's keys;
 * - without (browsers; anyone who copied a key hash): the reports of one session per request, within a
 *   budget per client address and per key on this node, so one address adds at most
 *   INGEST_REPORTS_PER_ADDRESS_PER_MINUTE made-up viewers a minute.
 * A browser's ordinary report is answered before it reaches this route (ingest-http.ts, ingestFastPath,
 * through the same ingestBatch); this route answers the rest and is what the API document describes.
 * A request with an Authorization header is checked by the token guard (http/token-guard.ts) before its
 * body is read: a malformed or unknown token is a 401 that never reads the megabyte.
 */
export function ingestRoutes(svc: StatsService): FastifyPluginAsync {
  return async (app) => {
    const addressOf = (req: FastifyRequest) => addressGroup(req.ip);
    const token = tokenGuard(svc.ctx, 'ingest', MSG_INGEST.badToken, { optional: true });
    route(
      app,
      E.ingest,
      async (req, reply) => {
        const from = { origin: req.headers.origin, address: req.ip, userAgent: req.headers['user-agent'] };
        const signed = token.callerOf(req);
        return ingestBatch(svc, req.body.reports, signed ? { ...from, teamId: signed.teamId } : from, (h) =>
          reply.headers(h),
        );
      },
      {
        // A bad token, and an address past its budget, are refused before the body is read.
        onRequest: [
          token.onRequest,
          async (req) => {
            if (req.headers.authorization !== undefined) return;
            const wait = svc.perAddress.spent(addressOf(req));
            if (wait > 0) throw tooManyRequests(wait, MSG_INGEST.addressBudget);
          },
        ],
        bodyLimit: LIMITS.ingestBodyBytes,
        // Every viewer posts a report every 10 s: an access log line each would cost more than the report
        // itself (the service counts them). Warnings and errors are still logged.
        logLevel: 'warn',
        // Answers are a few hundred bytes at most (errors are capped): compression never applies.
        compress: false,
        // The security headers are for the dashboard's pages; an answer to a player's fetch needs none
        // of them but nosniff (set by the handler).
        helmet: false,
        // Fastify hands the compiler one status's schema at a time, not the route's whole schema.
        serializerCompiler: (status) =>
          String(status.httpStatus) === '202'
            ? ingestAnswer
            : serializerCompiler(status as unknown as Parameters<typeof serializerCompiler>[0]),
      },
    );
    // CORS preflight of players on customers' pages (docs/DESIGN.md §7): only for origins that may report.
    app.options(E.ingest.path, { schema: { hide: true } }, async (req, reply) => {
      const origin = req.headers.origin;
      if (origin && (await svc.ctx.origins.forAnyKey(origin))) return preflight(reply, origin, 'POST');
      return reply.code(403).send({ message: INGEST_ERRORS.origin });
    });
  };
}

/** Retry-After of a statistics read refused while the statistics' store does not answer. */
const STORE_AWAY_RETRY_AFTER_S = 10;

/** The dashboard's charts and saved key lists. */
export function statsRoutes(svc: StatsService): FastifyPluginAsync {
  return async (app) => {
    // A read the statistics' store cannot answer now (ClickHouse away, or the database) is refused
    // with a 503, as the ingest is, not answered and logged as an unexpected error (the outage is
    // logged once by the flush).
    registerErrorHandler(app, (err) =>
      svc.ctx.statsStore.isUnavailable(err)
        ? new HttpError(503, MSG.cantPerformText, undefined, {
            'Retry-After': String(STORE_AWAY_RETRY_AFTER_S),
          })
        : err,
    );
    // The answer goes out as the JSON text statsResponseJson writes (a string with a JSON content
    // type is sent as it is), still compressed by the app's compression hook.
    // `?format=csv`: the same points as text/csv (the contract's statsCsv).
    const send = (reply: FastifyReply, series: StatsSeries, format: 'json' | 'csv' | undefined) =>
      format === 'csv'
        ? reply.type(STATS_CSV_TYPE).send(statsResponseCsv(series, svc.ctx.now()))
        : reply.type('application/json; charset=utf-8').send(statsResponseJson(series));
    // A chart's JSON (`points: 'drawn'`) reads the blocks' chart cut; a CSV has every series a point.
    const drawnOnly = (q: { points?: TStatsQuery['points'] }, format: 'json' | 'csv' | undefined) =>
      q.points === 'drawn' && format !== 'csv';
    for (const range of ['day', 'week', 'month'] as const) {
      route(app, E[range], async (req, reply) =>
        send(
          reply,
          await queryStats(
            svc,
            caller(req).user,
            range,
            req.body.team_id,
            req.body,
            drawnOnly(req.body, req.query.format),
          ),
          req.query.format,
        ),
      );
    }
    route(app, E.live, async (req, reply) =>
      send(
        reply,
        await queryStats(
          svc,
          caller(req).user,
          'live',
          req.params.team_id,
          { ...req.body, team_id: req.params.team_id },
          drawnOnly(req.body, req.query.format),
        ),
        req.query.format,
      ),
    );

    // The token is checked in onRequest (http/token-guard.ts), before the query is.
    const exporter = tokenGuard(svc.ctx, 'statistics', MSG_STATS_EXPORT.badToken);
    route(
      app,
      E.export,
      async (req, reply) => {
        const from = exporter.callerOf(req);
        if (!from) throw new HttpError(401, MSG_STATS_EXPORT.badToken);
        const { teamId, token } = from;
        const wait = svc.perToken.hit(token);
        if (wait > 0) throw tooManyRequests(wait, MSG_STATS_EXPORT.tooMany);
        reply.header('Cache-Control', 'no-store');
        const q = req.query;
        if (q.by !== undefined) {
          const { answer, nodr } = await exportBreakdown(svc, teamId, { ...q, by: q.by });
          if (q.format === 'csv') return reply.type(STATS_CSV_TYPE).send(breakdownCsv(answer.data, { nodr }));
          return answer;
        }
        return send(reply, await exportStats(svc, teamId, q), q.format);
      },
      // Read by machines, never by a page: no CORS, and no helmet headers to spend on it.
      { onRequest: exporter.onRequest, helmet: false },
    );

    route(app, E.breakdown, async (req, reply) => {
      const { answer, nodr } = await queryBreakdown(svc, caller(req).user, req.body);
      if (req.query.format === 'csv')
        return reply.type(STATS_CSV_TYPE).send(breakdownCsv(answer.data, { nodr }));
      return answer;
    });

    route(app, E.breakdownSeries, async (req, reply) =>
      send(reply, await queryBreakdownSeries(svc, caller(req).user, req.body), undefined),
    );

    route(app, E.readLists, async (req) => ({
      message: MSG.ok,
      data: await getSettings(svc.ctx, caller(req).user, req.params.user_id, req.params.team_id),
    }));
    route(app, E.saveLists, async (req) => ({
      message: MSG.ok,
      data: await putSettings(
        svc.ctx,
        caller(req).user,
        req.params.user_id,
        req.params.team_id,
        req.body.save_json,
      ),
    }));
  };
}
