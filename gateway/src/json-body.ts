import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { InvalidUtf8Body } from './validation/index.js';
import { firstInvalidUtf8 } from './validation/utf8.js';

/**
 * Bodies are kept as text here and parsed as JSON by the route's validation, whatever the
 * declared content type (as FastAPI reads them): a route without a body ignores what was sent,
 * an empty body is "no body", and malformed JSON is D1 `json_invalid` at its position.
 *
 * The bytes are decoded strictly: bytes that are not UTF-8 are not turned into U+FFFD (a buy-box
 * name would be stored with characters nobody typed) but reach validation as InvalidUtf8Body,
 * which a route with a body answers as `json_invalid` (docs/decisions.md, "Invalid UTF-8").
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      const offset = firstInvalidUtf8(bytes);
      return done(null, new InvalidUtf8Body(bytes.subarray(0, Math.max(0, offset)).toString('utf8').length, offset));
    }
    const text = bytes.toString('utf8');
    done(null, text.trim() === '' ? undefined : text);
  });
}
