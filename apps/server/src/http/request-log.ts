import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * Fastify's request lines, one per request and at debug: its two lines per request at info made
 * thousands of lines in a short walk through the dashboard, and the start banner with its URLs and demo
 * accounts scrolled away. LOG_LEVEL=debug shows them. A server error stays at error with its URL, so
 * a 500 is seen at the default level (the error handler logs its cause); a 503 is deliberate (a busy
 * database, a server closing, statistics held during an outage) and its cause is logged once per
 * episode where it happens, so its lines stay debug.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {
    // The request's line is written when it ends, with its status and time.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    const status = reply.statusCode;
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (status >= 500 && status !== 503) reply.log.error(line, 'request failed');
    else reply.log.debug(line, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'route not found');
  }

  override streamError(
    error: Error & { code?: string },
    _request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // A viewer who closes the page mid-answer is no news; another stream failure is.
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE')
      reply.log.debug({ res: reply }, 'stream closed prematurely');
    else reply.log.warn({ err: error }, 'response terminated with an error with headers already sent');
  }
}
