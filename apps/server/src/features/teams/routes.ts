import {
  API,
  MSG,
  MSG_TEAMS,
  ZCreateTeamRequest,
  ZFavouriteResponse,
  ZId,
  ZMessage,
  ZPasswordConfirmRequest,
  ZSetVersionRequest,
  ZTagRequest,
  ZTagsResponse,
  ZTeamDetailResponse,
  ZTeamResponse,
  ZTeamSearchRequest,
  ZTeamSearchResponse,
  ZUpdateTeamRequest,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import * as teams from './service.js';

const tags = ['teams'];
const team = z.object({ id: ZId });
const member = z.object({ id: ZId, userId: ZId });

/** Team calls (inside the authenticated scope). */
export function teamRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(API.dashboard.createTeam, {
      schema: {
        tags,
        security: bearerSecurity,
        body: ZCreateTeamRequest,
        response: { 201: ZTeamResponse, ...errorResponses(400, 401, 403) },
      },
      handler: async (req, reply) =>
        reply
          .code(201)
          .send({ message: MSG.created, data: await teams.createTeam(ctx, caller(req).user, req.body) }),
    });

    app.post(API.teams.search, {
      schema: {
        tags,
        security: bearerSecurity,
        body: ZTeamSearchRequest.nullish(),
        response: { 200: ZTeamSearchResponse, ...errorResponses(400, 401) },
      },
      handler: async (req) => {
        const input = ZTeamSearchRequest.parse(req.body ?? {});
        const { data, total } = await teams.searchTeamsFor(ctx, caller(req).user, input);
        return { message: MSG.ok, data, pagination: { total, page: input.page, limit: input.limit } };
      },
    });

    app.get('/api/v1/teams/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: team,
        response: { 200: ZTeamDetailResponse, ...errorResponses(400, 401, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await teams.readTeam(ctx, caller(req).user, req.params.id),
      }),
    });

    app.put('/api/v1/teams/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: team,
        body: ZUpdateTeamRequest,
        response: { 200: ZTeamDetailResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.updated,
        data: await teams.updateTeamInfo(ctx, caller(req).user, req.params.id, req.body),
      }),
    });

    app.post('/api/v1/teams/:id/set_time_zone/:timezoneId', {
      schema: {
        tags,
        security: bearerSecurity,
        params: z.object({ id: ZId, timezoneId: ZId }),
        response: { 200: ZTeamDetailResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.updated,
        data: await teams.setTimeZone(ctx, caller(req).user, req.params.id, req.params.timezoneId),
      }),
    });

    app.put('/api/v1/teams/:id/set_version', {
      schema: {
        tags,
        security: bearerSecurity,
        params: team,
        body: ZSetVersionRequest,
        response: { 200: ZTeamDetailResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.updated,
        data: await teams.setVersion(ctx, caller(req).user, req.params.id, req.body),
      }),
    });

    app.delete('/api/v1/teams/:id/delete/user/:userId', {
      schema: {
        tags,
        security: bearerSecurity,
        params: member,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req) => {
        await teams.removeTeamMember(ctx, caller(req).user, req.params.id, req.params.userId);
        return { message: MSG_TEAMS.memberRemoved };
      },
    });

    app.post('/api/v1/teams/:id/user/:userId/set_role/:roleId', {
      schema: {
        tags,
        security: bearerSecurity,
        params: z.object({ id: ZId, userId: ZId, roleId: ZId }),
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req) => {
        await teams.setRole(ctx, caller(req).user, req.params.id, req.params.userId, req.params.roleId);
        return { message: MSG_TEAMS.roleChanged };
      },
    });

    app.post('/api/v1/teams/:id/leave', {
      schema: {
        tags,
        security: bearerSecurity,
        params: team,
        body: ZPasswordConfirmRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req) => {
        await teams.leaveTeam(ctx, caller(req).user, req.params.id, req.body.password);
        return { message: MSG_TEAMS.teamLeft };
      },
    });

    app.put('/api/v1/teams/:id/favourite', {
      schema: {
        tags,
        security: bearerSecurity,
        params: team,
        response: { 200: ZFavouriteResponse, ...errorResponses(400, 401, 404) },
      },
      handler: async (req) => ({
        message: MSG.updated,
        data: {
          team_id: req.params.id,
          favourite: await teams.toggleTeamFavourite(ctx, caller(req).user, req.params.id),
        },
      }),
    });

    app.put('/api/v1/teams/:id/tag/add', {
      schema: {
        tags,
        security: bearerSecurity,
        params: team,
        body: ZTagRequest,
        response: { 200: ZTagsResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req) => ({
        message: MSG.updated,
        data: {
          team_id: req.params.id,
          tags: await teams.addTag(ctx, caller(req).user, req.params.id, req.body.tag),
        },
      }),
    });

    app.put('/api/v1/teams/:id/tag/remove', {
      schema: {
        tags,
        security: bearerSecurity,
        params: team,
        body: ZTagRequest,
        response: { 200: ZTagsResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.updated,
        data: {
          team_id: req.params.id,
          tags: await teams.removeTag(ctx, caller(req).user, req.params.id, req.body.tag),
        },
      }),
    });
  };
}
