import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleFiles, consolePage } from '@landscreen/console';
import { ifNoneMatch } from '../tiles/tile-answer.js';

/**
 * D40: the console at `/` in every mode. The page an emailed sign-in link opens
 * (`<PUBLIC_URL>/auth/verify?token=…`) is the console too: it consumes the link with
 * POST /v1/auth/session and carries on signed in. Its files come from @landscreen/console,
 * built or read once per process on first request.
 */
export function registerConsole(app: FastifyInstance, settings: { basemapStyleUrl?: string }): void {
  const page = consolePage(settings);
  const files = new ConsoleFiles();
  const sendPage = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      // The link's token must not leak to other sites through the Referer header.
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY')
      .send(page);
  app.get('/', sendPage);
  app.get('/auth/verify', sendPage);
  app.get<{ Params: { file: string } }>('/console/:file', async (request, reply) => {
    const file = await files.get(request.params.file);
    if (!file) return reply.code(404).send({ detail: 'No such console file.', code: 'not_found' });
    reply.header('etag', file.etag).header('cache-control', 'no-cache');
    if (ifNoneMatch(request).includes(file.etag)) return reply.code(304).send();
    return reply.type(file.type).send(file.body);
  });
}
