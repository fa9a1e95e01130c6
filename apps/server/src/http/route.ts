import {
  type EndpointParams,
  type EndpointQuery,
  type EndpointSpec,
  errorSchemas,
  isPlatformSupervisor,
  type PerAddressLimit,
  perAddressLimitOf,
  type TeamAction,
  teamParamOf,
} from '@tlprt/contract';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import { z } from 'zod';
import { policyActor, type TeamAccess } from '../access/team-access.js';
import type { UserRow } from '../db/schema.js';
import { caller } from './auth.js';
import { forbidden } from './errors.js';

/** What a descriptor's access turns into on the server, built once by the app (it needs the session
 *  lookup and the configured limits). */
export interface AccessPipeline {
  /** The bearer-token check of `user` and `supervisor` calls. */
  authenticate: onRequestHookHandler;
  /** The per-address rate check of a limit's name (RATE_LIMITS, as configured). */
  perAddress: (limit: PerAddressLimit) => onRequestHookHandler;
  /** A descriptor's `action` in a team (access/team-access.ts authorizeTeam). */
  authorizeTeam: (user: UserRow, teamId: number, action: TeamAction) => Promise<TeamAccess>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessPipeline: AccessPipeline;
  }
  interface FastifyRequest {
    /** The caller in the team of a route whose descriptor names an `action`, once authorized. */
    teamAccess: TeamAccess | null;
  }
}

/** The caller's access to the team of a route whose descriptor names an `action`. */
export function teamAccess(req: FastifyRequest): TeamAccess {
  if (!req.teamAccess) throw new Error(`${req.routeOptions.url} names no action: nothing was authorized`);
  return req.teamAccess;
}

/** The preHandler of a descriptor's `action`: after the schemas (a malformed id is a 400 first), the
 *  caller's role in the path's team is loaded and the contract's policy asked. */
function authorizeAction(pipeline: AccessPipeline, spec: EndpointSpec): preHandlerHookHandler | undefined {
  const action = spec.action;
  if (!action) return undefined;
  const param = teamParamOf(spec);
  if (!param || spec.access !== 'user')
    throw new Error(`${spec.method} ${spec.path}: an action needs a signed-in call with a team in its path`);
  return async (req) => {
    const teamId = (req.params as Record<string, number>)[param] as number;
    req.teamAccess = await pipeline.authorizeTeam(caller(req).user, teamId, action);
  };
}

type BodyOutput<E extends EndpointSpec> = E['body'] extends z.ZodType ? z.output<E['body']> : undefined;
export type RouteRequest<E extends EndpointSpec> = FastifyRequest<{
  Params: EndpointParams<E>;
  Querystring: EndpointQuery<E>;
  Body: BodyOutput<E>;
}>;
type Answer<E extends EndpointSpec> = E['response'] extends z.ZodType ? z.input<E['response']> : unknown;
export type RouteHandler<E extends EndpointSpec> = (
  req: RouteRequest<E>,
  reply: FastifyReply,
) => Promise<Answer<E> | FastifyReply> | Answer<E> | FastifyReply;

/** Route options a descriptor does not carry (the ingest's body limit, log level and serializer). */
export type RouteExtras = Omit<RouteOptions, 'method' | 'url' | 'schema' | 'handler'>;

const requireSupervisor: onRequestHookHandler = async (req) => {
  if (!isPlatformSupervisor(policyActor(caller(req).user))) throw forbidden();
};

/**
 * Registers the route of one contract endpoint: its schemas (validation, serialization, OpenAPI), the
 * hooks its access asks for (token, supervisor, per-address limit), its team action (so the permission
 * is read where the route is declared, not found inside a service) and its success status. The handler
 * returns the success body, or sends another answer through `reply` itself.
 */
export function route<E extends EndpointSpec>(
  app: FastifyInstance,
  spec: E,
  handler: RouteHandler<E>,
  extras: RouteExtras = {},
): void {
  const { onRequest, preHandler, ...rest } = extras;
  const limit = perAddressLimitOf(spec);
  const pipeline = app.accessPipeline;
  const signedIn = spec.access === 'user' || spec.access === 'supervisor';
  const hooks = [
    ...(limit ? [pipeline.perAddress(limit)] : []),
    ...(signedIn ? [pipeline.authenticate] : []),
    ...(spec.access === 'supervisor' ? [requireSupervisor] : []),
    ...(Array.isArray(onRequest) ? onRequest : onRequest ? [onRequest] : []),
  ];
  const authorize = authorizeAction(pipeline, spec);
  const beforeHandler = [
    ...(authorize ? [authorize] : []),
    ...(Array.isArray(preHandler) ? preHandler : preHandler ? [preHandler] : []),
  ];
  const status = spec.status ?? 200;
  // A non-JSON answer (a CSV stream) is described, not serialized.
  const success = spec.response ?? (spec.produces ? z.unknown().describe(spec.produces) : undefined);
  app.route({
    method: spec.method,
    url: spec.path,
    schema: {
      tags: [spec.tag],
      ...(spec.summary ? { summary: spec.summary } : {}),
      ...(spec.action ? { description: `Team permission: ${spec.action} (contract policy.ts)` } : {}),
      ...(signedIn ? { security: [{ bearer: [] }] } : {}),
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.produces ? { produces: [spec.produces] } : {}),
      response: { ...(success ? { [status]: success } : {}), ...errorSchemas(spec) },
    },
    onRequest: hooks,
    ...(beforeHandler.length ? { preHandler: beforeHandler } : {}),
    ...rest,
    handler: async (req, reply) => {
      reply.code(status);
      return handler(req as RouteRequest<E>, reply);
    },
  });
}
