import {
  LIMITS,
  MSG,
  type TStatsRange,
  ZId,
  ZIngestRequest,
  ZIngestResponse,
  ZStatsQuery,
  ZStatsResponse,
  ZStatsSettingsPut,
  ZStatsSettingsResponse,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import { queryStats } from './query.js';
import type { StatsService } from './service.js';
import { getSettings, putSettings } from './settings.js';

const tags = ['statistics'];

/** POST /stats/v1/ingest: no token (the key hash in each report is the credential); 1 MiB bodies. */
export function ingestRoutes(svc: StatsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/stats/v1/ingest', {
      bodyLimit: LIMITS.ingestBodyBytes,
      schema: {
        tags,
        body: ZIngestRequest,
        response: { 202: ZIngestResponse, ...errorResponses(400, 413) },
      },
      handler: async (req, reply) => reply.code(202).send(await svc.ingest(req.body.reports)),
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
