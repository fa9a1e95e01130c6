import {
  MSG,
  MSG_DOMAIN_RULES,
  MSG_DOMAINS,
  ZCreateDomainRequest,
  ZCreateDomainResponse,
  ZDomainListResponse,
  ZDomainResponse,
  ZLegacyDomainListRequest,
  ZMessage,
  ZVerificationInstructionsResponse,
  ZVerifyDomainRequest,
  ZVerifyDomainResponse,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses, ZTeamItemParams, ZTeamParams } from '../../http/schemas.js';
import * as domains from './service.js';

const tags = ['domains'];

/** Domain calls of docs/domains-and-keys.md (inside the authenticated scope). */
export function domainRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const listResponse = { 200: ZDomainListResponse, ...errorResponses(400, 401, 404) };
    const list = async (user: UserRow, teamId: number) => ({
      message: MSG.ok,
      ...(await domains.listTeamDomains(ctx, user, teamId)),
    });
    app.post('/api/v1/domains/:teamId', {
      schema: { tags, security: bearerSecurity, params: ZTeamParams, response: listResponse },
      handler: async (req) => list(caller(req).user, req.params.teamId),
    });
    // The older form of spec §7 (POST /v1/cdn/): the same list, the team in the body.
    for (const url of ['/api/v1/cdn', '/api/v1/cdn/']) {
      app.post(url, {
        schema: { tags, security: bearerSecurity, body: ZLegacyDomainListRequest, response: listResponse },
        handler: async (req) => list(caller(req).user, req.body.teamId),
      });
    }

    // Today's path and the older form of spec §7 (POST /v1/cdn/{teamId}/create).
    for (const url of ['/api/v1/domains/create/:teamId', '/api/v1/cdn/:teamId/create']) {
      app.post(url, {
        schema: {
          tags,
          security: bearerSecurity,
          params: ZTeamParams,
          body: ZCreateDomainRequest,
          response: { 201: ZCreateDomainResponse, ...errorResponses(400, 401, 403, 404, 406, 409) },
        },
        handler: async (req, reply) => {
          const id = await domains.createDomain(ctx, caller(req).user, req.params.teamId, req.body.url);
          return reply.code(201).send({ message: MSG.created, data: { id } });
        },
      });
    }

    app.get('/api/v1/domains/instructions/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZVerificationInstructionsResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await domains.domainInstructions(ctx, caller(req).user, req.params.teamId, req.params.id),
      }),
    });

    app.put('/api/v1/domains/verify/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        body: ZVerifyDomainRequest,
        response: { 200: ZVerifyDomainResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        const { teamId, id } = req.params;
        await domains.verifyDomain(ctx, caller(req).user, teamId, id, req.body.verificationMethod);
        const inx = req.body.inx;
        return {
          message: MSG_DOMAINS.verified,
          data: { verified: true, ...(inx === undefined ? {} : { inx }) },
        };
      },
    });

    app.get('/api/v1/domains/update_draft/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZDomainResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await domains.promoteDomain(ctx, caller(req).user, req.params.teamId, req.params.id),
      }),
    });

    app.get('/api/v1/domains/update_active/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZDomainResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await domains.toggleDomain(ctx, caller(req).user, req.params.teamId, req.params.id),
      }),
    });

    app.delete('/api/v1/domains/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await domains.deleteDomain(ctx, caller(req).user, req.params.teamId, req.params.id);
        return { message: MSG_DOMAIN_RULES.domainDeleted };
      },
    });

    app.post('/api/v1/domains/suspended/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZDomainResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await domains.toggleDomainSuspension(ctx, caller(req).user, req.params.teamId, req.params.id),
      }),
    });
  };
}
