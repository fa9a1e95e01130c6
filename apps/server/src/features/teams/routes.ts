import { TEAM_ENDPOINTS as E, MSG, MSG_TEAMS } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route, teamAccess } from '../../http/route.js';
import * as teams from './service.js';

/** Team calls. */
export function teamRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.create, async (req) => ({
      message: MSG.created,
      data: await teams.createTeam(ctx, caller(req).user, req.body),
    }));

    route(app, E.read, async (req) => ({
      message: MSG.ok,
      data: await teams.readTeam(ctx, teamAccess(req)),
    }));

    route(app, E.update, async (req) => ({
      message: MSG.updated,
      data: await teams.updateTeamInfo(ctx, teamAccess(req), req.body),
    }));

    route(app, E.setTimeZone, async (req) => ({
      message: MSG.updated,
      data: await teams.setTimeZone(ctx, teamAccess(req), req.params.timezoneId),
    }));

    route(app, E.setVersion, async (req) => ({
      message: MSG.updated,
      data: await teams.setVersion(ctx, teamAccess(req), req.body),
    }));

    route(app, E.removeMember, async (req) => {
      await teams.removeTeamMember(ctx, teamAccess(req), req.params.userId);
      return { message: MSG_TEAMS.memberRemoved };
    });

    route(app, E.setRole, async (req) => {
      await teams.setRole(ctx, teamAccess(req), req.params.userId, req.params.roleId);
      return { message: MSG_TEAMS.roleChanged };
    });

    route(app, E.leave, async (req) => {
      await teams.leaveTeam(ctx, teamAccess(req), req.body.password);
      return { message: MSG_TEAMS.teamLeft };
    });

    route(app, E.toggleFavourite, async (req) => ({
      message: MSG.updated,
      data: {
        team_id: req.params.id,
        favourite: await teams.toggleTeamFavourite(ctx, teamAccess(req)),
      },
    }));

    route(app, E.addTag, async (req) => ({
      message: MSG.updated,
      data: {
        team_id: req.params.id,
        tags: await teams.addTag(ctx, teamAccess(req), req.body.tag),
      },
    }));

    route(app, E.removeTag, async (req) => ({
      message: MSG.updated,
      data: {
        team_id: req.params.id,
        tags: await teams.removeTag(ctx, teamAccess(req), req.body.tag),
      },
    }));
  };
}
