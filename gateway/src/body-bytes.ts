import type { IncomingMessage } from 'node:http';
import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * Reads a request's body as bytes under the route's limit, with Fastify's own refusals (413 over
 * the limit, 400 for a body shorter or longer than its content-length). What Fastify's `parseAs:
 * 'buffer'` does, but a body whose declared length is `copyFrom` bytes or more is copied into one
 * buffer of that length as its chunks arrive, instead of concatenated when the last one has: a 30
 * MB body's concatenation was one copy of 30 MB (and of four such bodies at once) on the thread
 * answering requests. That buffer owns its memory, so a body worker takes it without a copy.
 */
export function readBodyBytes(request: FastifyRequest, payload: IncomingMessage, copyFrom: number, done: (error: Error | null, body?: Buffer) => void): void {
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const whole = declared >= copyFrom ? Buffer.from(new ArrayBuffer(declared)) : null;
  const chunks: Buffer[] = [];
  let received = 0;
  const finish = (error: Error | null, body?: Buffer) => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    if (received + chunk.length > limit) return finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    if (whole && received + chunk.length > whole.length) return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    if (whole) chunk.copy(whole, received);
    // A chunk may be a view into the socket's read buffer: it is copied before the end (concat).
    else chunks.push(chunk);
    received += chunk.length;
  };
  const onEnd = () => {
    if (!Number.isNaN(declared) && received !== declared) return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    finish(null, whole ?? Buffer.concat(chunks, received));
  };
  const onError = (error: Error & { statusCode?: number }) => {
    if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
    finish(error);
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
