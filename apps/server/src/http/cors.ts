import type { FastifyReply } from 'fastify';

/** CORS for the public, internet-facing calls the player plugin makes from customers' pages: only the
 *  origins the OriginGate accepted are named (never `*`), and no credentials are involved. Written into
 *  `headers` (the ingest's answers outside Fastify) or, by allowOrigin, onto a reply. */
export function addCorsHeaders(headers: Record<string, string>, origin: string | undefined): void {
  headers.Vary = 'Origin';
  if (origin) headers['Access-Control-Allow-Origin'] = origin;
}

export function allowOrigin(reply: FastifyReply, origin: string | undefined): void {
  const headers: Record<string, string> = {};
  addCorsHeaders(headers, origin);
  reply.headers(headers);
}

/** The answer to a preflight of an accepted origin: POST with a JSON body, cached for 10 minutes. */
export function preflight(reply: FastifyReply, origin: string, methods: string): FastifyReply {
  allowOrigin(reply, origin);
  return reply
    .code(204)
    .header('Access-Control-Allow-Methods', methods)
    .header('Access-Control-Allow-Headers', 'Content-Type')
    .header('Access-Control-Max-Age', '600')
    .send();
}
