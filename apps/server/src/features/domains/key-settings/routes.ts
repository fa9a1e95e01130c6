import { KEY_SETTING_ENDPOINTS as E, MSG, MSG_DOMAIN_RULES, SUPERVISOR_SET } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../../context.js';
import { allowOrigin } from '../../../http/cors.js';
import { notFound } from '../../../http/errors.js';
import { route, teamAccess } from '../../../http/route.js';
import { iceServersFor } from '../../../lib/turn-credentials.js';
import * as settings from './service.js';

/** Player settings of a key: the customer layer and the supervisor layers. */
export function keySettingRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.read, async (req) => {
      const { domainId, keyId } = req.params;
      return {
        message: MSG.ok,
        data: await settings.readKeySettings(ctx, teamAccess(req), domainId, keyId),
      };
    });

    route(app, E.write, async (req) => {
      const { domainId, keyId } = req.params;
      return {
        message: MSG_DOMAIN_RULES.settingsSaved,
        data: await settings.writeKeySettings(ctx, teamAccess(req), domainId, keyId, req.body.settings),
      };
    });

    route(app, E.readSupervisor, async (req) => ({
      message: MSG.ok,
      data: await settings.readSupervisorSettings(
        ctx,
        teamAccess(req),
        req.params.keyId,
        req.query.domainId || null,
      ),
    }));

    for (const layer of ['key', 'team', 'domain'] as const) {
      route(app, E[SUPERVISOR_SET[layer]], async (req) => {
        await settings.writeSupervisorSettings(ctx, teamAccess(req), layer, req.body);
        return { message: MSG_DOMAIN_RULES.settingsSaved };
      });
    }
  };
}

/** What the player plugin reads. */
export function publicKeySettingRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.publicRead, async (req, reply) => {
      const origin = req.headers.origin;
      // A page that is not on one of the key's domains is told what any unusable key gets (docs/DESIGN.md §11).
      if (!(await ctx.origins.forKey(req.params.keyHash, origin))) throw notFound();
      allowOrigin(reply, origin);
      // Each answer carries its own TURN credentials: no shared cache may hand one viewer's to another.
      reply.header('Cache-Control', 'no-store');
      return {
        message: MSG.ok,
        data: {
          keyHash: req.params.keyHash,
          settings: await settings.publicKeySettings(ctx, req.params.keyHash),
          iceServers: iceServersFor(ctx.config.ice, ctx.now()),
          // The live nodes send new viewers to survivors; the whole list is the plugin's failover order.
          ...(ctx.config.trackerNodes.length > 0
            ? { trackerNodes: req.server.tracker.liveNodes(), trackerNodesAll: ctx.config.trackerNodes }
            : {}),
          // By the same client address rule (TRUST_PROXY) as the tracker's upgrade, which checks it.
          networkTag: await req.server.tracker.networkTag(ctx.addressOf(req.raw)),
          matchMinPeers: ctx.config.tracker.matchMinPeers,
        },
      };
    });
  };
}
