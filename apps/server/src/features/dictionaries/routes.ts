import {
  API,
  DICTIONARY_LOCALE,
  MSG,
  ZDictionariesResponse,
  ZId,
  ZServerTimeResponse,
  ZTimeZoneListResponse,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas.js';
import { dictionaries, timeZoneList } from './service.js';

/** Public reference data: dictionaries, time zones, server time. */
export function referenceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/dictionaries/:locale', {
      schema: {
        tags: ['dictionaries'],
        params: z.object({ locale: ZId }),
        response: { 200: ZDictionariesResponse, ...errorResponses(400, 404) },
      },
      handler: async (req) => {
        // Only the one locale the product uses (spec §9).
        if (req.params.locale !== DICTIONARY_LOCALE) throw notFound();
        return { message: MSG.ok, data: dictionaries() };
      },
    });

    app.get(API.auth.timeZoneList, {
      schema: { tags: ['auth'], response: { 200: ZTimeZoneListResponse } },
      handler: async () => ({ message: MSG.ok, data: timeZoneList(new Date(ctx.now())) }),
    });

    app.get(API.auth.serverTime, {
      schema: { tags: ['auth'], response: { 200: ZServerTimeResponse } },
      handler: async () => ({ message: MSG.ok, data: { timestamp: Math.floor(ctx.now() / 1000) } }),
    });
  };
}
