import {
  MSG,
  MSG_DOMAIN_RULES,
  ZId,
  ZKeySettingsResponse,
  ZMessage,
  ZPublicKeySettingsResponse,
  ZSetKeySettingsRequest,
  ZSetSupervisorSettingsRequest,
  ZSupervisorSettingsResponse,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { allowOrigin } from '../../http/cors.js';
import { notFound } from '../../http/errors.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import { ZIdOrZero } from '@tlprt/contract';
import * as settings from './service.js';

const tags = ['key settings'];
const customer = z.object({ teamId: ZId, domainId: ZIdOrZero, keyId: ZId });
/** `?domainId=` empty means no domain context. */
const ZOptionalDomainId = z.preprocess(
  (v) => (v === '' || v === 'null' ? undefined : v),
  ZIdOrZero.optional(),
);

/** Player settings of a key: the customer layer and the supervisor layers (authenticated scope). */
export function keySettingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/v1/key_settings/team/:teamId/domain/:domainId/key/:keyId/get', {
      schema: {
        tags,
        security: bearerSecurity,
        params: customer,
        response: { 200: ZKeySettingsResponse, ...errorResponses(400, 401, 404) },
      },
      handler: async (req) => {
        const { teamId, domainId, keyId } = req.params;
        return {
          message: MSG.ok,
          data: await settings.readKeySettings(ctx, caller(req).user, teamId, domainId, keyId),
        };
      },
    });

    app.post('/api/v1/key_settings/team/:teamId/domain/:domainId/key/:keyId/set', {
      schema: {
        tags,
        security: bearerSecurity,
        params: customer,
        body: ZSetKeySettingsRequest,
        response: { 200: ZKeySettingsResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        const { teamId, domainId, keyId } = req.params;
        return {
          message: MSG_DOMAIN_RULES.settingsSaved,
          data: await settings.writeKeySettings(
            ctx,
            caller(req).user,
            teamId,
            domainId,
            keyId,
            req.body.settings,
          ),
        };
      },
    });

    app.get('/api/v1/key_settings/team/:teamId/domain/key/:keyId/get_supervisor', {
      schema: {
        tags,
        security: bearerSecurity,
        params: z.object({ teamId: ZId, keyId: ZId }),
        querystring: z.object({ domainId: ZOptionalDomainId }),
        response: { 200: ZSupervisorSettingsResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await settings.readSupervisorSettings(
          ctx,
          caller(req).user,
          req.params.teamId,
          req.params.keyId,
          req.query.domainId || null,
        ),
      }),
    });

    for (const layer of ['key', 'team', 'domain'] as const) {
      app.post(`/api/v1/key_settings/team/:teamId/set_supervisor_by_${layer}`, {
        schema: {
          tags,
          security: bearerSecurity,
          params: z.object({ teamId: ZId }),
          body: ZSetSupervisorSettingsRequest,
          response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
        },
        handler: async (req) => {
          await settings.writeSupervisorSettings(ctx, caller(req).user, req.params.teamId, layer, req.body);
          return { message: MSG_DOMAIN_RULES.settingsSaved };
        },
      });
    }
  };
}

/** What the player plugin reads (guest scope: no token, rate limited per address like guest calls). */
export function publicKeySettingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/v1/public/key_settings/:keyHash', {
      schema: {
        tags,
        // Any text up to 200: a hash no key can have is "not usable" like any other (404, CDN only).
        params: z.object({ keyHash: z.string().min(1).max(200) }),
        response: { 200: ZPublicKeySettingsResponse, ...errorResponses(400, 404, 429) },
      },
      handler: async (req, reply) => {
        const origin = req.headers.origin;
        // A page that is not on one of the key's domains is told what any unusable key gets (DESIGN §11).
        if (!(await ctx.origins.forKey(req.params.keyHash, origin))) throw notFound();
        allowOrigin(reply, origin);
        return {
          message: MSG.ok,
          data: {
            keyHash: req.params.keyHash,
            settings: await settings.publicKeySettings(ctx, req.params.keyHash),
            iceServers: ctx.config.iceServers,
          },
        };
      },
    });
  };
}
