import { ConnectError } from '@connectrpc/connect';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { issue, JsonBodyError, RequestValidationError } from '../validation/index.js';
import { ApiError } from './api-error.js';
import { fromServiceError } from './connect-status.js';

/** Fastify's own client errors (bad URL, body too large, …) keep their status with a D2 body. */
const FASTIFY_REASONS: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  431: 'headers_too_large',
};

/** One error handler for the whole gateway: log everything, show detail only below 500. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    let answer = error;
    if (error instanceof ConnectError) answer = fromServiceError(error);

    if (answer instanceof RequestValidationError) {
      return reply.code(422).send({ detail: answer.issues });
    }
    if (answer instanceof JsonBodyError) {
      return reply.code(422).send({ detail: [issue.jsonInvalid(answer.position, answer.message)] });
    }
    if (answer instanceof ApiError) {
      // A 503 says retry (a market moving between replicas, a service restarting): expected in
      // a deployment that changes, so a warning; any other 5xx is an error of ours.
      if (answer.status === 503) request.log.warn({ err: error, code: answer.code }, 'request refused for now');
      else if (answer.status >= 500 && answer.status !== 501) request.log.error({ err: error }, 'request failed');
      if (answer.status === 500) return sendInternal(request, reply);
      return reply.code(answer.status).headers(answer.headers).send(answer.body());
    }
    // A path that matches no route is 404 whatever its body: Fastify reads the body (and may
    // refuse its Content-Type) before the not-found handler runs.
    if (request.is404) return sendNotFound(request, reply);
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode;
    if (status && status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.code(status).send({ detail: fastifyError.message, code: FASTIFY_REASONS[status] ?? 'bad_request' });
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendInternal(request, reply);
  });

  app.setNotFoundHandler(async (request, reply) => sendNotFound(request, reply));
}

function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send({ detail: `No route ${request.method} ${request.url.split('?')[0]}.`, code: 'not_found' });
}

function sendInternal(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(500).send({ detail: 'internal error', code: 'internal', request_id: request.id });
}
