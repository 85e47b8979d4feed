import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { readBodyBytes } from './body-bytes.js';
import { LargeBody, LARGE_BODY_BYTES } from './validation/body-parser.js';
import { decodeBodyBytes } from './validation/utf8.js';

/**
 * Bodies are kept as text here and parsed as JSON by the route's validation, whatever the
 * declared content type (as FastAPI reads them; app.ts refuses a type no route reads with 415):
 * a route without a body ignores what was sent, an empty body is "no body", and malformed JSON
 * is D1 `json_invalid` at its position. A large body stays bytes: it is decoded, parsed and
 * validated on a worker thread (validation/body-parser.ts), read into one buffer as it arrives
 * (body-bytes.ts). Fastify reads the body only after the route's onRequest hook has authenticated
 * the caller (app.ts).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => {
    readBodyBytes(request, payload as IncomingMessage, LARGE_BODY_BYTES, (error, bytes) => {
      if (error) return done(error, undefined);
      done(null, bytes!.length >= LARGE_BODY_BYTES ? new LargeBody(bytes!) : decodeBodyBytes(bytes!));
    });
  });
}
