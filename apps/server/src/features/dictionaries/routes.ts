import { DICTIONARY_LOCALE, DICTIONARY_ENDPOINTS as E, MSG } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { dictionaries, timeZoneList } from './service.js';

/** Public reference data: dictionaries, time zones, server time. */
export function referenceRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.dictionaries, async (req) => {
      // Only the one locale the product uses (spec §9).
      if (req.params.locale !== DICTIONARY_LOCALE) throw notFound();
      return { message: MSG.ok, data: dictionaries() };
    });

    route(app, E.timeZoneList, async () => ({ message: MSG.ok, data: timeZoneList(new Date(ctx.now())) }));

    route(app, E.serverTime, async () => ({
      message: MSG.ok,
      data: { timestamp: Math.floor(ctx.now() / 1000) },
    }));
  };
}
