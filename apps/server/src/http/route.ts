import {
  type EndpointParams,
  type EndpointQuery,
  type EndpointSpec,
  errorSchemas,
  isPlatformSupervisor,
  type PerAddressLimit,
  perAddressLimitOf,
} from '@tlprt/contract';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
  RouteShorthandOptions,
} from 'fastify';
import type { z } from 'zod';
import { policyActor } from '../access/team-access.js';
import { caller } from './auth.js';
import { forbidden } from './errors.js';

/** What a descriptor's access turns into on the server, built once by the app (it needs the session
 *  lookup and the configured limits). */
export interface AccessPipeline {
  /** The bearer-token check of `user` and `supervisor` calls. */
  authenticate: onRequestHookHandler;
  /** The per-address rate rule of a limit's name (RATE_LIMITS, as configured). */
  perAddress: (limit: PerAddressLimit) => NonNullable<RouteShorthandOptions['config']>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessPipeline: AccessPipeline;
  }
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
 * hooks its access asks for (token, supervisor, per-address limit) and its success status. The handler
 * returns the success body, or sends another answer through `reply` itself.
 */
export function route<E extends EndpointSpec>(
  app: FastifyInstance,
  spec: E,
  handler: RouteHandler<E>,
  extras: RouteExtras = {},
): void {
  const { onRequest, config, ...rest } = extras;
  const limit = perAddressLimitOf(spec);
  const pipeline = app.accessPipeline;
  const signedIn = spec.access === 'user' || spec.access === 'supervisor';
  const hooks = [
    ...(signedIn ? [pipeline.authenticate] : []),
    ...(spec.access === 'supervisor' ? [requireSupervisor] : []),
    ...(Array.isArray(onRequest) ? onRequest : onRequest ? [onRequest] : []),
  ];
  const status = spec.status ?? 200;
  app.route({
    method: spec.method,
    url: spec.path,
    schema: {
      tags: [spec.tag],
      ...(spec.summary ? { summary: spec.summary } : {}),
      ...(signedIn ? { security: [{ bearer: [] }] } : {}),
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      response: { ...(spec.response ? { [status]: spec.response } : {}), ...errorSchemas(spec) },
    },
    onRequest: hooks,
    config: { ...config, ...(limit ? pipeline.perAddress(limit) : {}) },
    ...rest,
    handler: async (req, reply) => {
      reply.code(status);
      return handler(req as RouteRequest<E>, reply);
    },
  });
}
