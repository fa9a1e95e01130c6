import type { z } from 'zod';
import { ZApiError } from './common.js';
import type { TeamAction } from './policy.js';

/**
 * One HTTP call of the three APIs (docs/DESIGN.md §4), defined once: the server registers its route from it
 * (validation, the access hooks, the OpenAPI entry), the web app calls it through it (the path, the
 * bearer token, the parse of the answer).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call: `guest` (no token; JSON, form or multipart bodies; limited per client address),
 * `player` (no token; what players on customers' pages call, each with a rate rule of its own),
 * `user` (a live bearer token), `supervisor` (a live bearer token of a platform supervisor).
 */
export type EndpointAccess = 'guest' | 'player' | 'user' | 'supervisor';

/** The per-address limits of RATE_LIMITS a call can count against. */
export type PerAddressLimit = 'guestPerMinute' | 'playerSettingsPerMinute';

export interface EndpointSpec {
  method: HttpMethod;
  /** Fastify's pattern: `:name` for each path parameter. */
  path: string;
  access: EndpointAccess;
  /** A team call's permission (policy.ts): the server authorizes it before the handler runs, in the
   *  team named by the path (teamParamOf), answering 404 to a stranger and 403 when `can` says no. */
  action?: TeamAction;
  /** The OpenAPI group. */
  tag: string;
  summary?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success status; 200 unless given. */
  status?: 200 | 201 | 202;
  /** The success body; omitted for answers that are not JSON (event streams, CSV). */
  response?: z.ZodType;
  /** The media type of a success body that is not JSON (a CSV download), for the OpenAPI entry. */
  produces?: string;
  /** The error statuses the call may answer, each with the `{message, errors?}` body. The access
   *  ones (401 for a token, 403 for a supervisor's call) are added from `access`. */
  errors: readonly number[];
  /** The per-client-address limit of RATE_LIMITS the call counts against; guest calls default to
   *  `guestPerMinute`, the others have none unless named. */
  perAddressLimit?: PerAddressLimit;
  /** Error statuses whose body is not the common error shape. */
  otherResponses?: Readonly<Record<number, z.ZodType>>;
}

/** Keeps the literal types of a descriptor (the path, the schemas) for both sides. */
export const endpoint = <const E extends EndpointSpec>(spec: E): E => spec;

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
/** The path parameters a caller gives (the parsed form: numbers stay numbers). */
export type EndpointParams<E extends EndpointSpec> = OutputOf<E['params']>;
export type EndpointQuery<E extends EndpointSpec> = OutputOf<E['query']>;
export type EndpointBody<E extends EndpointSpec> = InputOf<E['body']>;
/** The success body after its schema's parse. */
export type EndpointResult<E extends EndpointSpec> = OutputOf<E['response']>;

/** The statuses every route of that access can answer (the limit's 429 is added by errorSchemas). */
export function accessErrors(access: EndpointAccess): number[] {
  if (access === 'user') return [401];
  if (access === 'supervisor') return [401, 403];
  return [];
}

/** The path parameter naming a team call's team: `teamId`, or `id` where the team is the path's
 *  subject (/teams/:id/...). */
export const teamParamOf = (spec: Pick<EndpointSpec, 'path'>): 'teamId' | 'id' | undefined =>
  spec.path.includes('/:teamId') ? 'teamId' : /\/teams\/:id(\/|$)/.test(spec.path) ? 'id' : undefined;

/** The per-address limit a call counts against, if any. */
export const perAddressLimitOf = (spec: EndpointSpec): PerAddressLimit | undefined =>
  spec.perAddressLimit ?? (spec.access === 'guest' ? 'guestPerMinute' : undefined);

/** Every error status of a descriptor with its body schema (for the server's serializer and OpenAPI). */
export function errorSchemas(spec: EndpointSpec): Record<number, z.ZodType> {
  const codes = [
    ...new Set([...spec.errors, ...accessErrors(spec.access), ...(perAddressLimitOf(spec) ? [429] : [])]),
  ].sort((a, b) => a - b);
  return {
    ...Object.fromEntries(codes.map((c) => [c, ZApiError])),
    ...spec.otherResponses,
  };
}

/** The path of one call: each `:name` replaced by its parameter, then the query string (fields left
 *  undefined or null are not sent). */
export function endpointPath(
  spec: Pick<EndpointSpec, 'path'>,
  params?: Record<string, unknown>,
  query?: Record<string, unknown>,
): string {
  const path = spec.path.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null)
      throw new Error(`Missing path parameter ${name} of ${spec.path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null) search.append(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The names of a path pattern's parameters, in order. */
type PathParamNames<P extends string> = string extends P
  ? string[]
  : P extends `${string}:${infer Name}/${infer Rest}`
    ? [Name, ...PathParamNames<`/${Rest}`>]
    : P extends `${string}:${infer Name}`
      ? [Name]
      : [];
/** A path with no parameters is a string; with parameters, a function of them in path order. */
export type PathBuilder<P extends string> =
  PathParamNames<P> extends [] ? P : (...values: PathValues<PathParamNames<P>>) => string;
type PathValues<N extends string[]> = { [K in keyof N]: string | number };

/** The path builder of one endpoint (tests and scripts; the web app calls by descriptor). */
export function pathBuilder<P extends string>(spec: { path: P }): PathBuilder<P> {
  const names = [...spec.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1] as string);
  if (names.length === 0) return spec.path as PathBuilder<P>;
  return ((...values: (string | number)[]) =>
    endpointPath(spec, Object.fromEntries(names.map((n, i) => [n, values[i]])))) as PathBuilder<P>;
}

type Group = Record<string, { path: string }>;
export type PathTable<G extends Record<string, Group>> = {
  [K in keyof G]: { [N in keyof G[K]]: PathBuilder<G[K][N]['path']> };
};
/** Path builders of every endpoint of every group. */
export function pathTable<G extends Record<string, Group>>(groups: G): PathTable<G> {
  return Object.fromEntries(
    Object.entries(groups).map(([g, eps]) => [
      g,
      Object.fromEntries(Object.entries(eps).map(([n, ep]) => [n, pathBuilder(ep)])),
    ]),
  ) as PathTable<G>;
}
