import { DOMAIN_ENDPOINTS as E, MSG, MSG_DOMAIN_RULES, MSG_DOMAINS } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { caller } from '../../http/auth.js';
import { route, teamAccess } from '../../http/route.js';
import * as domains from './service.js';

export function domainRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    const list = async (user: UserRow, teamId: number) => ({
      message: MSG.ok,
      ...(await domains.listTeamDomains(ctx, user, teamId)),
    });
    route(app, E.list, async (req) => list(caller(req).user, req.params.teamId));
    for (const legacy of [E.legacyList, E.legacyListNoSlash]) {
      route(app, legacy, async (req) => list(caller(req).user, req.body.teamId));
    }

    for (const create of [E.create, E.legacyCreate]) {
      route(app, create, async (req) => {
        const data = await domains.createDomain(ctx, teamAccess(req), req.body.url);
        return { message: MSG.created, data };
      });
    }

    route(app, E.instructions, async (req) => ({
      message: MSG.ok,
      data: await domains.domainInstructions(ctx, teamAccess(req), req.params.id),
    }));

    route(app, E.verify, async (req) => {
      const { id } = req.params;
      await domains.verifyDomain(ctx, teamAccess(req), id, req.body.verificationMethod);
      const inx = req.body.inx;
      return {
        message: MSG_DOMAINS.verified,
        data: { verified: true, ...(inx === undefined ? {} : { inx }) },
      };
    });

    route(app, E.promote, async (req) => ({
      message: MSG.ok,
      data: await domains.promoteDomain(ctx, teamAccess(req), req.params.id),
    }));

    route(app, E.toggleActive, async (req) => ({
      message: MSG.ok,
      data: await domains.toggleDomain(ctx, teamAccess(req), req.params.id),
    }));

    route(app, E.remove, async (req) => {
      await domains.deleteDomain(ctx, teamAccess(req), req.params.id);
      return { message: MSG_DOMAIN_RULES.domainDeleted };
    });

    route(app, E.setPlainHttp, async (req) => {
      const { id } = req.params;
      return {
        message: MSG.ok,
        data: await domains.setPlainHttp(ctx, teamAccess(req), id, req.body.plainHttp),
      };
    });

    route(app, E.suspend, async (req) => ({
      message: MSG.ok,
      data: await domains.toggleDomainSuspension(ctx, teamAccess(req), req.params.id),
    }));
  };
}
