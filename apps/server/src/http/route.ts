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
} from 'fastify';
import { z } from 'zod';
import { policyActor } from '../access/team-access.js';
import { caller } from './auth.js';
import { forbidden } from './errors.js';

/** What a descriptor's access turns into on the server, built once by the app (it needs the session
 *  lookup and the configured limits). */
export interface AccessPipeline {
  /** The bearer-token check of `user` and `supervisor` calls. */
  authenticate: onRequestHookHandler;
  /** The per-address rate check of a limit's name (RATE_LIMITS, as configured). */
  perAddress: (limit: PerAddressLimit) => onRequestHookHandler;
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
  const { onRequest, ...rest } = extras;
  const limit = perAddressLimitOf(spec);
  const pipeline = app.accessPipeline;
  const signedIn = spec.access === 'user' || spec.access === 'supervisor';
  const hooks = [
    ...(limit ? [pipeline.perAddress(limit)] : []),
    ...(signedIn ? [pipeline.authenticate] : []),
    ...(spec.access === 'supervisor' ? [requireSupervisor] : []),
    ...(Array.isArray(onRequest) ? onRequest : onRequest ? [onRequest] : []),
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
      ...(signedIn ? { security: [{ bearer: [] }] } : {}),
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.produces ? { produces: [spec.produces] } : {}),
      response: { ...(success ? { [status]: success } : {}), ...errorSchemas(spec) },
    },
    onRequest: hooks,
    ...rest,
    handler: async (req, reply) => {
      reply.code(status);
      return handler(req as RouteRequest<E>, reply);
    },
  });
}
