import type { FastifyInstance } from 'fastify';
import { JsonBodyError } from './errors/index.js';

/**
 * Bodies are JSON whatever the declared content type (as FastAPI reads them): an empty body is
 * "no body" (reported as `missing` where one is required) and malformed JSON is D1 `json_invalid`.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      const message = (error as Error).message;
      const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
      done(new JsonBodyError(position, message), undefined);
    }
  });
}
