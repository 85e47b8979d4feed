import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

/** The swagger-ui assets the page needs, served from the installed package: no CDN, works offline. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>landscreen API reference</title>
  <link rel="icon" href="/docs/static/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/static/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/static/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: true });
  </script>
</body>
</html>`;

/** `/docs`: an interactive reference over `/openapi.json` (try-it-out included). */
export async function registerDocsPage(app: FastifyInstance): Promise<void> {
  const assetDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Buffer>();
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get<{ Params: { file: string } }>('/docs/static/:file', async (request, reply) => {
    const { file } = request.params;
    const type = ASSETS[file];
    if (!type) return reply.code(404).send({ detail: 'No such asset.', code: 'not_found' });
    let content = cache.get(file);
    if (!content) cache.set(file, (content = await readFile(path.join(assetDir, file))));
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(content);
  });
}
