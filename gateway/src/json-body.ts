import type { FastifyInstance } from 'fastify';

/**
 * Bodies are kept as text here and parsed as JSON by the route's validation, whatever the
 * declared content type (as FastAPI reads them): a route without a body ignores what was sent,
 * an empty body is "no body", and malformed JSON is D1 `json_invalid` at its position.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    done(null, text.trim() === '' ? undefined : text);
  });
}
