// A body read as it arrives, over real HTTP: the same bytes whether it is copied into one buffer
// as its chunks arrive (a declared length of `copyFrom` or more) or gathered and joined at the
// end (a small or a chunked body), and the route's limit refused 413 either way.

import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyBytes } from './body-bytes.js';

const COPY_FROM = 64 * 1024;
const LIMIT = 1024 * 1024;

/** Bytes that differ from position to position, so a chunk copied to the wrong place shows. */
function bytesOf(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}

describe('reading a request body as bytes', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify({ bodyLimit: LIMIT });
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (request, payload, done) => readBodyBytes(request, payload as never, COPY_FROM, done));
    app.post('/echo', async (request) => {
      const body = request.body as Buffer;
      return { length: body.length, owned: body.byteOffset === 0 && body.buffer.byteLength === body.length, sum: body.reduce((a, b) => (a * 33 + b) >>> 0, 7) };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** POSTs `body` in pieces of `piece` bytes, with its length declared or chunked. */
  function post(body: Buffer, declared: boolean, piece = 10_000): Promise<{ status: number; json: any }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream' };
      if (declared) headers['content-length'] = body.length;
      const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/echo', headers }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, json: text ? JSON.parse(text) : undefined }));
      });
      // The server may answer 413 and close before the whole body is written: the answer still comes.
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
      for (let at = 0; at < body.length; at += piece) req.write(body.subarray(at, at + piece));
      req.end();
    });
  }

  const expected = (body: Buffer) => body.reduce((a, b) => (a * 33 + b) >>> 0, 7);

  it('a large body with its length declared arrives whole, in a buffer of its own', async () => {
    const body = bytesOf(300_000);
    expect(await post(body, true)).toEqual({ status: 200, json: { length: 300_000, owned: true, sum: expected(body) } });
  });

  it('a small body, and a large chunked one, arrive whole too', async () => {
    const small = bytesOf(5_000);
    expect(await post(small, true)).toMatchObject({ status: 200, json: { length: 5_000, sum: expected(small) } });
    const chunked = bytesOf(300_000);
    expect(await post(chunked, false)).toMatchObject({ status: 200, json: { length: 300_000, sum: expected(chunked) } });
  });

  it('a body over the route limit is 413, declared or chunked', async () => {
    const body = bytesOf(LIMIT + 1);
    expect((await post(body, true)).status).toBe(413);
    expect((await post(body, false)).status).toBe(413);
  });
});
