import {
  INGEST_ERRORS,
  LIMITS,
  MSG,
  type TIngestResponse,
  type TStatsRange,
  ZId,
  ZIngestRequest,
  ZIngestResponse,
  ZStatsQuery,
  ZStatsResponse,
  ZStatsSettingsPut,
  ZStatsSettingsResponse,
} from '@tlprt/contract';
import { type FastifyPluginAsyncZod, serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import { allowOrigin, preflight } from '../../http/cors.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import { queryStats } from './query.js';
import type { StatsService } from './service.js';
import { getSettings, putSettings } from './settings.js';

const tags = ['statistics'];

/** The 202 answer written directly: the handler builds exactly ZIngestResponse's shape, so checking
 *  it again with zod for every report a player sends buys nothing. */
const ingestAnswer = (r: TIngestResponse): string =>
  `{"accepted":${r.accepted},"rejected":${r.rejected},"errors":${JSON.stringify(r.errors)}}`;

/** POST /stats/v1/ingest: no token (the key hash in each report is the credential); 1 MiB bodies. */
export function ingestRoutes(svc: StatsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/stats/v1/ingest', {
      bodyLimit: LIMITS.ingestBodyBytes,
      // Every viewer posts a report every 10 s: an access log line each would cost more than the report
      // itself (the service counts them). Warnings and errors are still logged.
      logLevel: 'warn',
      // Answers are a few hundred bytes at most (errors are capped): compression never applies.
      compress: false,
      // The security headers are for the dashboard's pages; an answer to a player's fetch needs none
      // of them but nosniff (set below).
      helmet: false,
      schema: {
        tags,
        body: ZIngestRequest,
        response: { 202: ZIngestResponse, ...errorResponses(400, 413) },
      },
      // Fastify hands the compiler one status's schema at a time, not the route's whole schema.
      serializerCompiler: (route) =>
        String(route.httpStatus) === '202'
          ? ingestAnswer
          : serializerCompiler(route as unknown as Parameters<typeof serializerCompiler>[0]),
      handler: async (req, reply) => {
        const origin = req.headers.origin;
        if (await svc.ctx.origins.forAnyKey(origin)) allowOrigin(reply, origin);
        reply.header('X-Content-Type-Options', 'nosniff');
        return reply.code(202).send(await svc.ingest(req.body.reports, origin));
      },
    });
    // CORS preflight of players on customers' pages (DESIGN §7): only for origins that may report.
    app.options('/stats/v1/ingest', { schema: { hide: true } }, async (req, reply) => {
      const origin = req.headers.origin;
      if (origin && (await svc.ctx.origins.forAnyKey(origin))) return preflight(reply, origin, 'POST');
      return reply.code(403).send({ message: INGEST_ERRORS.origin });
    });
  };
}

/** Queries and saved lists (inside the authenticated scope). */
export function statsRoutes(svc: StatsService): FastifyPluginAsyncZod {
  return async (app) => {
    for (const range of ['day', 'week', 'month'] as const satisfies TStatsRange[]) {
      app.post(`/stats/v3/dashboard/${range}`, {
        schema: {
          tags,
          security: bearerSecurity,
          body: ZStatsQuery,
          response: { 200: ZStatsResponse, ...errorResponses(400, 401, 403, 404) },
        },
        handler: async (req) => queryStats(svc, caller(req).user, range, req.body.team_id, req.body),
      });
    }
    app.post('/stats/v3/dashboard/live/:team_id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: z.object({ team_id: ZId }),
        body: ZStatsQuery.partial({ team_id: true }),
        response: { 200: ZStatsResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) =>
        queryStats(svc, caller(req).user, 'live', req.params.team_id, {
          ...req.body,
          team_id: req.params.team_id,
        }),
    });

    const params = z.object({ user_id: ZId, team_id: ZId });
    app.post('/api/v1/statistic/settings/get/user/:user_id/team/:team_id', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        response: { 200: ZStatsSettingsResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await getSettings(svc.ctx, caller(req).user, req.params.user_id, req.params.team_id),
      }),
    });
    app.post('/api/v1/statistic/settings/put/user/:user_id/team/:team_id', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZStatsSettingsPut,
        response: { 200: ZStatsSettingsResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await putSettings(
          svc.ctx,
          caller(req).user,
          req.params.user_id,
          req.params.team_id,
          req.body.save_json,
        ),
      }),
    });
  };
}
